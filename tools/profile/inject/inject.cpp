// The injection library's entry point. CUDA calls InitializeInjection() from cuInit when
// CUDA_INJECTION64_PATH names this library; it subscribes to context, module and launch
// callbacks and, at process exit, writes what it collected into $KOPT_CUPTI_OUT (the files of
// tools/profile/gpu_format.h). A failure is written to error.json and the program runs on.
#include <cupti.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "tools/profile/gpu_format.h"
#include "tools/profile/inject/output.h"
#include "tools/profile/inject/pc_aggregate.h"
#include "tools/profile/inject/pc_sampling.h"
#include "tools/profile/inject/range_profiler.h"

namespace kopt::inject {

namespace {

struct Injector {
  OutputFolder out = OutputFolder::from_environment();
  std::string mode;
  // Recursive, so that a callback CUPTI raised from inside one of ours cannot deadlock.
  std::recursive_mutex mutex;
  PcAggregate aggregate;
  std::unique_ptr<PcSampler> sampler;
  std::unique_ptr<RangeProfiler> counters;
  CUpti_SubscriberHandle subscriber = nullptr;
  std::vector<std::string> warnings;
  bool finished = false;
};

// Never destroyed: callbacks and the exit handler may run after static destructors.
Injector& injector() {
  static Injector* instance = new Injector();
  return *instance;
}

long env_number(const char* name, long fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return *end == '\0' ? value : fallback;
}

const CUpti_CallbackId kLaunches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};

const CUpti_CallbackId kResources[] = {
    CUPTI_CBID_RESOURCE_CONTEXT_CREATED,
    CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
    CUPTI_CBID_RESOURCE_MODULE_LOADED,
    CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING,
};

void on_resource(Injector& in, CUpti_CallbackId id, const CUpti_ResourceData& data) {
  switch (id) {
    case CUPTI_CBID_RESOURCE_CONTEXT_CREATED:
      if (in.out.failed()) return;
      if (in.sampler) in.sampler->start(data.context);
      if (in.counters) in.counters->start(data.context);
      return;
    case CUPTI_CBID_RESOURCE_MODULE_LOADED:
      if (in.sampler && data.resourceDescriptor != nullptr) {
        const auto* module = static_cast<const CUpti_ModuleResourceData*>(data.resourceDescriptor);
        in.out.write_cubin(module->pCubin, module->cubinSize);
        in.sampler->drain(data.context, false);
      }
      return;
    case CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING:
      if (in.sampler) in.sampler->drain(data.context, false);
      return;
    case CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING:
      if (in.sampler) in.sampler->finish(data.context);
      if (in.counters) in.counters->finish(data.context);
      return;
    default:
      return;
  }
}

void on_launch(Injector& in, const CUpti_CallbackData& data) {
  if (data.callbackSite != CUPTI_API_EXIT) return;
  if (in.sampler) in.sampler->drain(data.context, true);
  if (in.counters) in.counters->launched(data.context, data.symbolName);
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                          const void* data) {
  Injector& in = injector();
  std::lock_guard<std::recursive_mutex> lock(in.mutex);
  if (in.finished || data == nullptr) return;
  if (domain == CUPTI_CB_DOMAIN_RESOURCE)
    on_resource(in, id, *static_cast<const CUpti_ResourceData*>(data));
  else if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
    on_launch(in, *static_cast<const CUpti_CallbackData*>(data));
}

void write_results(Injector& in) {
  if (in.sampler && in.sampler->contexts() > 0) {
    nlohmann::json names = nlohmann::json::object();
    for (const auto& [index, name] : in.sampler->stall_reasons())
      names[std::to_string(index)] = name;
    std::vector<std::string> warnings = in.warnings;
    warnings.insert(warnings.end(), in.sampler->warnings().begin(), in.sampler->warnings().end());
    nlohmann::json extra = {{"collection", "continuous"},
                            {"sampling_period", env_number(gpu_format::kSamplingPeriodVariable, 0)},
                            {"contexts", in.sampler->contexts()},
                            {"stall_reasons", names},
                            {"warnings", warnings}};
    in.out.write_lines(gpu_format::kSamplesFile, in.aggregate.header(extra),
                       in.aggregate.records());
  }
  if (in.counters) {
    nlohmann::json header = in.counters->header();
    if (!in.counters->records().empty() || !in.out.failed())
      in.out.write_lines(gpu_format::kCountersFile, header, in.counters->records());
  }
}

void at_exit() {
  Injector& in = injector();
  std::lock_guard<std::recursive_mutex> lock(in.mutex);
  if (in.finished) return;
  if (in.sampler) in.sampler->finish_all();
  if (in.counters) in.counters->finish_all();
  write_results(in);
  in.finished = true;
}

bool subscribe(Injector& in) {
  if (CUptiResult r = cuptiSubscribe(&in.subscriber, on_callback, nullptr); r != CUPTI_SUCCESS) {
    in.subscriber = nullptr;
    in.out.write_failure(describe_failure("cuptiSubscribe", r));
    return false;
  }
  for (CUpti_CallbackId id : kResources)
    if (CUptiResult r = cuptiEnableCallback(1, in.subscriber, CUPTI_CB_DOMAIN_RESOURCE, id);
        r != CUPTI_SUCCESS) {
      in.out.write_failure(describe_failure("cuptiEnableCallback", r));
      return false;
    }
  for (CUpti_CallbackId id : kLaunches)
    cuptiEnableCallback(1, in.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
  return true;
}

// Reads the mode and its settings; false (with error.json) for a mode it does not know.
bool configure(Injector& in) {
  const char* mode = std::getenv(gpu_format::kModeVariable);
  in.mode = mode && *mode ? mode : gpu_format::kModePcSampling;
  if (in.mode == gpu_format::kModePcSampling) {
    long period = env_number(gpu_format::kSamplingPeriodVariable, 0);
    if (period != 0 && (period < 5 || period > 31)) {
      in.warnings.push_back("sampling period " + std::to_string(period) +
                            " is outside 5..31; CUPTI's default is used");
      period = 0;
    }
    in.sampler = std::make_unique<PcSampler>(in.out, in.aggregate, static_cast<uint32_t>(period));
    return true;
  }
  if (in.mode == gpu_format::kModeCounters) {
    std::vector<std::string> metrics(std::begin(gpu_format::kCounterMetrics),
                                     std::end(gpu_format::kCounterMetrics));
    const long ranges = env_number(gpu_format::kMaxRangesVariable, 64);
    in.counters = std::make_unique<RangeProfiler>(in.out, metrics, ranges > 0 ? ranges : 64);
    return true;
  }
  in.out.write_failure({"configuration", 0, "configuration",
                        std::string(gpu_format::kModeVariable) + "=" + in.mode +
                            " is not a mode (pcsampling or counters)"});
  return false;
}

}  // namespace

}  // namespace kopt::inject

/// Called by the CUDA driver during cuInit; returns 1 whether or not profiling could start.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  using namespace kopt::inject;
  Injector& in = injector();
  std::lock_guard<std::recursive_mutex> lock(in.mutex);
  if (in.subscriber != nullptr || in.finished) return 1;
  if (!in.out.valid()) {
    std::fprintf(stderr, "kopt-cupti: %s is not set; nothing is profiled\n",
                 kopt::gpu_format::kOutVariable);
    return 1;
  }
  const char* mode = std::getenv(kopt::gpu_format::kModeVariable);
  in.out.write_json(kopt::gpu_format::kInjectionFile,
                    {{"format", kopt::gpu_format::kInjectionFormat},
                     {"pid", static_cast<long>(::getpid())},
                     {"mode", mode ? mode : kopt::gpu_format::kModePcSampling}});
  if (!configure(in) || !subscribe(in)) {
    in.finished = true;
    return 1;
  }
  std::atexit(at_exit);
  return 1;
}
