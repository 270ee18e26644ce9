// The contract between the CUPTI injection library (tools/profile/inject) and kopt: the
// environment variables that drive the library and the files it writes into its output folder.
// docs/gpu-profiling.md describes every field.
#pragma once

#include <string_view>

namespace kopt::gpu_format {

/// Whether a (mangled or demangled) kernel name is one of the harness's own (the poisoning of
/// the outputs between calls, benchmarks/common/cuda_harness.cuh), not the benchmark's: profiles
/// and measured rooflines leave those out.
inline bool is_harness_kernel(std::string_view name) {
  return name.find("kopt_bench") != std::string_view::npos;
}

/// The variable CUDA reads to load an injection library.
inline constexpr const char* kInjectionVariable = "CUDA_INJECTION64_PATH";
/// The folder the library writes into (created if missing); nothing is collected without it.
inline constexpr const char* kOutVariable = "KOPT_CUPTI_OUT";
/// "pcsampling" (the default) or "counters"; the two cannot share the hardware in one run.
inline constexpr const char* kModeVariable = "KOPT_CUPTI_MODE";
/// PC sampling period as a power of two of cycles, 5..31 (unset: CUPTI's default).
inline constexpr const char* kSamplingPeriodVariable = "KOPT_CUPTI_SAMPLING_PERIOD";
/// Kernel launches per counter-data image before it is decoded and reset (default 64).
inline constexpr const char* kMaxRangesVariable = "KOPT_CUPTI_MAX_RANGES";

inline constexpr const char* kModePcSampling = "pcsampling";
inline constexpr const char* kModeCounters = "counters";

/// Written when InitializeInjection runs: proof the library was loaded ({"format", "pid", "mode"}).
inline constexpr const char* kInjectionFile = "injection.json";
/// The first failure, one JSON object on one line ({"format", "reason", "call", "code",
/// "message"}).
inline constexpr const char* kErrorFile = "error.json";
/// PC sampling: a header line, then one line per sampled PC.
inline constexpr const char* kSamplesFile = "pcsampling.jsonl";
/// Range profiler: a header line, then one line per profiled kernel launch.
inline constexpr const char* kCountersFile = "counters.jsonl";
/// Captured cubins, one file per module: cubins/<crc as 16 hex digits>.cubin.
inline constexpr const char* kCubinFolder = "cubins";

/// The range-profiler metrics collected for every kernel launch in counters mode: thread-level
/// FP32 and FP64 add, mul and fma instructions, integer instructions, DRAM bytes, duration (ns).
inline constexpr const char* kMetricFadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
inline constexpr const char* kMetricFmul = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
inline constexpr const char* kMetricFfma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
inline constexpr const char* kMetricDadd = "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum";
inline constexpr const char* kMetricDmul = "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum";
inline constexpr const char* kMetricDfma = "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum";
inline constexpr const char* kMetricInteger =
    "smsp__sass_thread_inst_executed_op_integer_pred_on.sum";
inline constexpr const char* kMetricDramBytes = "dram__bytes.sum";
inline constexpr const char* kMetricDuration = "gpu__time_duration.sum";
inline constexpr const char* kCounterMetrics[] = {
    kMetricFadd, kMetricFmul,    kMetricFfma,      kMetricDadd,    kMetricDmul,
    kMetricDfma, kMetricInteger, kMetricDramBytes, kMetricDuration};

inline constexpr const char* kInjectionFormat = "kopt-cupti-injection/1";
inline constexpr const char* kErrorFormat = "kopt-cupti-error/1";
inline constexpr const char* kSamplesFormat = "kopt-pcsampling/1";
inline constexpr const char* kCountersFormat = "kopt-gpu-counters/1";

}  // namespace kopt::gpu_format
