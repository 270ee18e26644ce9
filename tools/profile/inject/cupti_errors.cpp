#include "tools/profile/inject/cupti_errors.h"

namespace kopt::inject {

std::string reason_of(CUptiResult result) {
  switch (result) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      return "insufficient-privileges";
    case CUPTI_ERROR_NOT_INITIALIZED:
    case CUPTI_ERROR_INVALID_DEVICE:
      return "no-device";
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
      return "not-supported";
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_HARDWARE_BUSY:
    case CUPTI_ERROR_DISABLED:
      return "profiler-busy";
    default:
      return "cupti-error";
  }
}

namespace {

std::string advice_for(const std::string& reason) {
  if (reason == "insufficient-privileges")
    return "the driver restricts GPU performance counters to administrators: load the nvidia "
           "module with NVreg_RestrictProfilingToAdminUsers=0, or run kopt as root with "
           "--no-sandbox (the sandbox runs candidates as an unprivileged user)";
  if (reason == "no-device") return "CUPTI cannot reach a CUDA device through the driver";
  if (reason == "not-supported")
    return "this GPU or configuration (virtual GPU, MIG, old architecture) does not support it";
  if (reason == "profiler-busy")
    return "another profiler (Nsight, a second injection library) holds the counters";
  return "";
}

}  // namespace

CuptiFailure describe_failure(const std::string& call, CUptiResult result) {
  CuptiFailure failure;
  failure.call = call;
  failure.code = static_cast<int>(result);
  failure.reason = reason_of(result);
  const char* name = nullptr;
  if (cuptiGetResultString(result, &name) != CUPTI_SUCCESS || name == nullptr) name = "?";
  failure.message = call + " failed with " + name + " (" + std::to_string(failure.code) + ")";
  const std::string advice = advice_for(failure.reason);
  if (!advice.empty()) failure.message += ": " + advice;
  return failure;
}

}  // namespace kopt::inject
