// Compile-time proof that kopt's copy of two CUPTI parameter blocks (gpu_cupti_abi.h) matches the
// CUPTI headers it is built against. Nothing here runs.
#include <cupti_pcsampling.h>

#include "tools/profile/gpu_cupti_abi.h"

namespace kopt::cupti_abi {

#define KOPT_SAME_FIELD(Ours, Theirs, field) \
  static_assert(offsetof(Ours, field) == offsetof(Theirs, field), #Theirs "::" #field " moved")

KOPT_SAME_FIELD(SassToSourceParams, CUpti_GetSassToSourceCorrelationParams, cubin);
KOPT_SAME_FIELD(SassToSourceParams, CUpti_GetSassToSourceCorrelationParams, functionName);
KOPT_SAME_FIELD(SassToSourceParams, CUpti_GetSassToSourceCorrelationParams, cubinSize);
KOPT_SAME_FIELD(SassToSourceParams, CUpti_GetSassToSourceCorrelationParams, lineNumber);
KOPT_SAME_FIELD(SassToSourceParams, CUpti_GetSassToSourceCorrelationParams, pcOffset);
KOPT_SAME_FIELD(SassToSourceParams, CUpti_GetSassToSourceCorrelationParams, fileName);
KOPT_SAME_FIELD(SassToSourceParams, CUpti_GetSassToSourceCorrelationParams, dirName);
static_assert(kSassToSourceParamsSize == CUpti_GetSassToSourceCorrelationParamsSize);

KOPT_SAME_FIELD(CubinCrcParams, CUpti_GetCubinCrcParams, cubinSize);
KOPT_SAME_FIELD(CubinCrcParams, CUpti_GetCubinCrcParams, cubin);
KOPT_SAME_FIELD(CubinCrcParams, CUpti_GetCubinCrcParams, cubinCrc);
static_assert(kCubinCrcParamsSize == CUpti_GetCubinCrcParamsSize);
static_assert(kSuccess == CUPTI_SUCCESS);

#undef KOPT_SAME_FIELD

}  // namespace kopt::cupti_abi
