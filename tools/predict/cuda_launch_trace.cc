// kopt's launch tracer: a stand-in for the CUDA runtime that a benchmark's driver and kernel
// file are linked against (nvcc -cudart=none) so that one call runs on the CPU and reports the
// launches it makes, without a GPU (tools/predict/gpu_trace.cpp builds it). Device memory is
// a range of addresses no host code may touch: copies to it are dropped, copies from it give
// zeros; kernels never run. Each launch prints one line to stderr:
//   kopt-launch NAME GX GY GZ BX BY BZ SHARED ARG...
// an ARG being "p" for a device pointer, else the parameter's bytes in hex (little-endian).
// kopt_trace_config.h (written by kopt) defines KOPT_TRACE_SMS, KOPT_TRACE_CLOCK_KHZ,
// KOPT_TRACE_L2_BYTES and kKoptTraceParams, each kernel's parameter sizes.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "kopt_trace_config.h"

namespace {

constexpr uintptr_t kDeviceBase = uintptr_t{0x6f0000000000};
uintptr_t device_next = kDeviceBase;

struct PendingLaunch {
  dim3 grid, block;
  size_t shared;
  cudaStream_t stream;
};

std::vector<PendingLaunch>& pending() {
  static std::vector<PendingLaunch> stack;
  return stack;
}

std::map<const void*, std::string>& kernel_names() {
  static std::map<const void*, std::string> names;
  return names;
}

bool on_device(const void* p) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  return a >= kDeviceBase && a < device_next + 4096;
}

const char* param_sizes(const std::string& name) {
  for (const auto& entry : kKoptTraceParams)
    if (name == entry.name) return entry.sizes;
  return nullptr;
}

void print_argument(void* arg, long size) {
  if (size == 8) {
    void* value = nullptr;
    std::memcpy(&value, arg, 8);
    if (on_device(value)) {
      std::fprintf(stderr, " p");
      return;
    }
  }
  if (size <= 0) {               // A type the tracer cannot size: a word all the same, so that the
    std::fprintf(stderr, " ?");  // arguments after it keep their positions.
    return;
  }
  std::fprintf(stderr, " ");
  const auto* bytes = static_cast<const unsigned char*>(arg);
  for (long i = 0; i < size; ++i) std::fprintf(stderr, "%02x", bytes[i]);
}

cudaError_t trace_launch(const void* kernel, dim3 grid, dim3 block, void** args, size_t shared) {
  const auto found = kernel_names().find(kernel);
  const std::string name = found == kernel_names().end() ? "?" : found->second;
  std::fprintf(stderr, "kopt-launch %s %u %u %u %u %u %u %zu", name.c_str(), grid.x, grid.y, grid.z,
               block.x, block.y, block.z, shared);
  if (const char* sizes = param_sizes(name)) {
    char* end = nullptr;
    for (int k = 0; *sizes; ++k) {
      const long size = std::strtol(sizes, &end, 10);
      print_argument(args[k], size);
      sizes = *end == ',' ? end + 1 : end;
    }
  }
  std::fprintf(stderr, "\n");
  return cudaSuccess;
}

void* new_device_range(size_t bytes) {
  void* p = reinterpret_cast<void*>(device_next);
  device_next += (bytes + 4095) / 4096 * 4096 + 4096;
  return p;
}

int blocks_per_sm(int block_size) {
  const int by_threads = block_size > 0 ? 2048 / block_size : 1;
  return by_threads < 1 ? 1 : (by_threads > 32 ? 32 : by_threads);
}

void* handle() {
  static int any;
  return &any;
}

}  // namespace

extern "C" {

void** __cudaRegisterFatBinary(void*) {
  return static_cast<void**>(handle());
}
void __cudaRegisterFatBinaryEnd(void**) {}
void __cudaUnregisterFatBinary(void**) {}
void __cudaRegisterFunction(void**, const char* host, char*, const char* name, int, uint3*, uint3*,
                            dim3*, dim3*, int*) {
  kernel_names()[host] = name;
}
void __cudaRegisterVar(void**, char*, char*, const char*, int, size_t, int, int) {}
void __cudaRegisterManagedVar(void**, void**, char*, const char*, int, size_t, int, int) {}
char __cudaInitModule(void**) {
  return 0;
}
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, cudaStream_t stream) {
  pending().push_back({grid, block, shared, stream});
  return 0;
}
cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream) {
  if (pending().empty()) return cudaErrorInvalidConfiguration;
  const PendingLaunch p = pending().back();
  pending().pop_back();
  *grid = p.grid, *block = p.block, *shared = p.shared;
  *static_cast<cudaStream_t*>(stream) = p.stream;
  return cudaSuccess;
}
cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* host) {
  *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(host));
  return cudaSuccess;
}
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                               size_t shared, cudaStream_t) {
  return trace_launch(reinterpret_cast<const void*>(kernel), grid, block, args, shared);
}
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                                    size_t shared, cudaStream_t) {
  return trace_launch(reinterpret_cast<const void*>(kernel), grid, block, args, shared);
}

}  // extern "C"

cudaError_t cudaLaunchKernel(const void* kernel, dim3 grid, dim3 block, void** args, size_t shared,
                             cudaStream_t) {
  return trace_launch(kernel, grid, block, args, shared);
}
cudaError_t cudaMalloc(void** p, size_t bytes) {
  *p = new_device_range(bytes);
  return cudaSuccess;
}
cudaError_t cudaMallocAsync(void** p, size_t bytes, cudaStream_t) {
  return cudaMalloc(p, bytes);
}
cudaError_t cudaFree(void*) {
  return cudaSuccess;
}
cudaError_t cudaFreeAsync(void*, cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void* to, const void* from, size_t bytes, cudaMemcpyKind) {
  if (!to || on_device(to)) return cudaSuccess;  // Device memory holds nothing here.
  if (from && !on_device(from))
    std::memmove(to, from, bytes);  // Host to host: the copy itself.
  else
    std::memset(to, 0, bytes);  // From the device: kernels never ran, zeros stand in.
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* to, const void* from, size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t) {
  return cudaMemcpy(to, from, bytes, kind);
}
cudaError_t cudaMemset(void*, int, size_t) {
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void*, int, size_t, cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* count) {
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int) {
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int) {
  std::memset(prop, 0, sizeof *prop);
  std::snprintf(prop->name, sizeof prop->name, "kopt launch tracer");
  prop->major = 9;
  prop->multiProcessorCount = KOPT_TRACE_SMS;
  prop->l2CacheSize = KOPT_TRACE_L2_BYTES;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->sharedMemPerBlock = 48 * 1024;
  prop->warpSize = 32;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int) {
  switch (attr) {
    case cudaDevAttrMultiProcessorCount:
      *value = KOPT_TRACE_SMS;
      break;
    case cudaDevAttrClockRate:
      *value = KOPT_TRACE_CLOCK_KHZ;
      break;
    case cudaDevAttrL2CacheSize:
      *value = KOPT_TRACE_L2_BYTES;
      break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
      *value = 2048;
      break;
    case cudaDevAttrMaxThreadsPerBlock:
      *value = 1024;
      break;
    case cudaDevAttrMaxBlocksPerMultiprocessor:
      *value = 32;
      break;
    case cudaDevAttrWarpSize:
      *value = 32;
      break;
    case cudaDevAttrComputeCapabilityMajor:
      *value = 9;
      break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
      *value = 48 * 1024;
      break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      *value = 227 * 1024;
      break;
    default:
      *value = 0;
  }
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void*, int size,
                                                          size_t) {
  *blocks = blocks_per_sm(size);
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void*,
                                                                   int size, size_t, unsigned) {
  *blocks = blocks_per_sm(size);
  return cudaSuccess;
}
cudaError_t cudaFuncSetAttribute(const void*, cudaFuncAttribute, int) {
  return cudaSuccess;
}
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void*) {
  std::memset(attr, 0, sizeof *attr);
  attr->maxThreadsPerBlock = 1024;
  return cudaSuccess;
}
cudaError_t cudaGetLastError() {
  return cudaSuccess;
}
cudaError_t cudaPeekAtLastError() {
  return cudaSuccess;
}
const char* cudaGetErrorName(cudaError_t) {
  return "cudaSuccess";
}
const char* cudaGetErrorString(cudaError_t) {
  return "no error (kopt launch tracer)";
}
cudaError_t cudaDeviceSynchronize() {
  return cudaSuccess;
}
cudaError_t cudaDeviceReset() {
  return cudaSuccess;
}
cudaError_t cudaCtxResetPersistingL2Cache() {
  return cudaSuccess;
}
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total) {
  *free_bytes = *total = size_t{80} << 30;
  return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  *stream = static_cast<cudaStream_t>(handle());
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned) {
  return cudaStreamCreate(stream);
}
cudaError_t cudaStreamDestroy(cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t* event) {
  *event = static_cast<cudaEvent_t>(handle());
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned) {
  return cudaEventCreate(event);
}
cudaError_t cudaEventDestroy(cudaEvent_t) {
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) {
  return cudaSuccess;
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
  *ms = 0.001f;
  return cudaSuccess;
}
