// The two CUPTI entry points kopt itself calls (it loads libcupti at run time, so kopt builds and
// runs without the CUDA toolkit): cuptiGetSassToSourceCorrelation and cuptiGetCubinCrc, with
// their parameter blocks laid out as in cupti_pcsampling.h. The injection library's build
// checks these layouts against the real header (tools/profile/inject/abi_check.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace kopt::cupti_abi {

/// CUpti_GetSassToSourceCorrelationParams.
struct SassToSourceParams {
  size_t size;
  const void* cubin;
  const char* functionName;
  size_t cubinSize;
  uint32_t lineNumber;
  uint64_t pcOffset;
  char* fileName;  ///< Allocated by CUPTI; the caller frees it.
  char* dirName;   ///< Allocated by CUPTI; the caller frees it.
};

/// CUpti_GetCubinCrcParams.
struct CubinCrcParams {
  size_t size;
  size_t cubinSize;
  const void* cubin;
  uint64_t cubinCrc;
};

/// The size CUPTI expects in `size`: up to the end of the last field
/// (CUPTI_PCSAMPLING_STRUCT_SIZE).
inline constexpr size_t kSassToSourceParamsSize =
    offsetof(SassToSourceParams, dirName) + sizeof(char*);
inline constexpr size_t kCubinCrcParamsSize = offsetof(CubinCrcParams, cubinCrc) + sizeof(uint64_t);

using SassToSourceFunction = int (*)(SassToSourceParams*);
using CubinCrcFunction = int (*)(CubinCrcParams*);

/// CUPTI_SUCCESS.
inline constexpr int kSuccess = 0;

}  // namespace kopt::cupti_abi
