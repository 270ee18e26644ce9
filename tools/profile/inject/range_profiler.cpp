#include "tools/profile/inject/range_profiler.h"

#include <cupti.h>
#include <cupti_target.h>

#include <algorithm>

#include "tools/profile/gpu_format.h"

namespace kopt::inject {

namespace {

// A zeroed CUPTI parameter block with its structSize set.
template <class Params>
Params make_params(size_t struct_size) {
  Params params{};
  params.structSize = struct_size;
  return params;
}

#define KOPT_CUPTI_PARAMS(Type) make_params<Type>(Type##_STRUCT_SIZE)

}  // namespace

RangeProfiler::RangeProfiler(OutputFolder& out, std::vector<std::string> metrics, size_t max_ranges)
    : out_(out), metrics_(std::move(metrics)), max_ranges_(std::max<size_t>(max_ranges, 1)) {
  for (const auto& name : metrics_) metric_names_.push_back(name.c_str());
}

bool RangeProfiler::start(CUcontext ctx) {
  Session session;
  if (!prepare(ctx, session) || !begin_image(session)) {
    if (session.object != nullptr) {
      auto disable = KOPT_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
      disable.pRangeProfilerObject = session.object;
      cuptiRangeProfilerDisable(&disable);
    }
    return false;
  }
  sessions_.emplace(ctx, std::move(session));
  return true;
}

bool RangeProfiler::prepare(CUcontext ctx, Session& session) {
  if (!initialized_) {
    auto init = KOPT_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
    if (CUptiResult r = cuptiProfilerInitialize(&init); r != CUPTI_SUCCESS)
      return refuse("cuptiProfilerInitialize", r);
    initialized_ = true;
  }
  uint32_t device = 0;
  if (CUptiResult r = cuptiGetDeviceId(ctx, &device); r != CUPTI_SUCCESS)
    return refuse("cuptiGetDeviceId", r);
  auto chip = KOPT_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  chip.deviceIndex = device;
  if (CUptiResult r = cuptiDeviceGetChipName(&chip); r != CUPTI_SUCCESS)
    return refuse("cuptiDeviceGetChipName", r);
  session.chip = chip.pChipName ? chip.pChipName : "";
  if (chip_.empty()) chip_ = session.chip;

  auto enable = KOPT_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
  enable.ctx = ctx;
  if (CUptiResult r = cuptiRangeProfilerEnable(&enable); r != CUPTI_SUCCESS)
    return refuse("cuptiRangeProfilerEnable", r);
  session.object = enable.pRangeProfilerObject;

  auto available = KOPT_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
  available.ctx = ctx;
  if (CUptiResult r = cuptiProfilerGetCounterAvailability(&available); r != CUPTI_SUCCESS)
    return refuse("cuptiProfilerGetCounterAvailability", r);
  session.availability.resize(available.counterAvailabilityImageSize);
  available.pCounterAvailabilityImage = session.availability.data();
  if (CUptiResult r = cuptiProfilerGetCounterAvailability(&available); r != CUPTI_SUCCESS)
    return refuse("cuptiProfilerGetCounterAvailability", r);

  auto host = KOPT_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = session.chip.c_str();
  host.pCounterAvailabilityImage = session.availability.data();
  if (CUptiResult r = cuptiProfilerHostInitialize(&host); r != CUPTI_SUCCESS)
    return refuse("cuptiProfilerHostInitialize", r);
  session.host = host.pHostObject;

  auto add = KOPT_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
  add.pHostObject = session.host;
  add.ppMetricNames = metric_names_.data();
  add.numMetrics = metric_names_.size();
  if (CUptiResult r = cuptiProfilerHostConfigAddMetrics(&add); r != CUPTI_SUCCESS)
    return refuse("cuptiProfilerHostConfigAddMetrics", r);
  auto size = KOPT_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = session.host;
  if (CUptiResult r = cuptiProfilerHostGetConfigImageSize(&size); r != CUPTI_SUCCESS)
    return refuse("cuptiProfilerHostGetConfigImageSize", r);
  session.config.resize(size.configImageSize);
  auto image = KOPT_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
  image.pHostObject = session.host;
  image.configImageSize = session.config.size();
  image.pConfigImage = session.config.data();
  if (CUptiResult r = cuptiProfilerHostGetConfigImage(&image); r != CUPTI_SUCCESS)
    return refuse("cuptiProfilerHostGetConfigImage", r);
  auto passes = KOPT_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
  passes.configImageSize = session.config.size();
  passes.pConfigImage = session.config.data();
  if (cuptiProfilerHostGetNumOfPasses(&passes) == CUPTI_SUCCESS) passes_ = passes.numOfPasses;
  return true;
}

bool RangeProfiler::begin_image(Session& session) {
  auto size = KOPT_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
  size.pRangeProfilerObject = session.object;
  size.pMetricNames = metric_names_.data();
  size.numMetrics = metric_names_.size();
  size.maxNumOfRanges = max_ranges_;
  size.maxNumRangeTreeNodes = static_cast<uint32_t>(max_ranges_);
  if (CUptiResult r = cuptiRangeProfilerGetCounterDataSize(&size); r != CUPTI_SUCCESS)
    return refuse("cuptiRangeProfilerGetCounterDataSize", r);
  session.counter_data.assign(size.counterDataSize, 0);
  auto init = KOPT_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
  init.pRangeProfilerObject = session.object;
  init.counterDataSize = session.counter_data.size();
  init.pCounterData = session.counter_data.data();
  if (CUptiResult r = cuptiRangeProfilerCounterDataImageInitialize(&init); r != CUPTI_SUCCESS)
    return refuse("cuptiRangeProfilerCounterDataImageInitialize", r);

  auto config = KOPT_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
  config.pRangeProfilerObject = session.object;
  config.configSize = session.config.size();
  config.pConfig = session.config.data();
  config.counterDataImageSize = session.counter_data.size();
  config.pCounterDataImage = session.counter_data.data();
  config.range = CUPTI_AutoRange;
  config.replayMode = CUPTI_KernelReplay;
  config.maxRangesPerPass = max_ranges_;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  if (CUptiResult r = cuptiRangeProfilerSetConfig(&config); r != CUPTI_SUCCESS)
    return refuse("cuptiRangeProfilerSetConfig", r);
  auto start = KOPT_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
  start.pRangeProfilerObject = session.object;
  if (CUptiResult r = cuptiRangeProfilerStart(&start); r != CUPTI_SUCCESS)
    return refuse("cuptiRangeProfilerStart", r);
  session.kernels.clear();
  session.running = true;
  return true;
}

void RangeProfiler::launched(CUcontext ctx, const char* kernel) {
  auto it = sessions_.find(ctx);
  if (it == sessions_.end() || !it->second.running) return;
  it->second.kernels.push_back(kernel ? kernel : "");
  if (it->second.kernels.size() < max_ranges_) return;
  collect(it->second);
  begin_image(it->second);
}

void RangeProfiler::collect(Session& session) {
  if (!session.running) return;
  session.running = false;
  auto stop = KOPT_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
  stop.pRangeProfilerObject = session.object;
  if (CUptiResult r = cuptiRangeProfilerStop(&stop); r != CUPTI_SUCCESS)
    return warn(describe_failure("cuptiRangeProfilerStop", r).message);
  auto decode = KOPT_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
  decode.pRangeProfilerObject = session.object;
  if (CUptiResult r = cuptiRangeProfilerDecodeData(&decode); r != CUPTI_SUCCESS)
    return warn(describe_failure("cuptiRangeProfilerDecodeData", r).message);
  ranges_dropped_ += decode.numOfRangeDropped;
  auto info = KOPT_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
  info.pCounterDataImage = session.counter_data.data();
  info.counterDataImageSize = session.counter_data.size();
  if (CUptiResult r = cuptiRangeProfilerGetCounterDataInfo(&info); r != CUPTI_SUCCESS)
    return warn(describe_failure("cuptiRangeProfilerGetCounterDataInfo", r).message);

  for (size_t i = 0; i < info.numTotalRanges; ++i) {
    auto range = KOPT_CUPTI_PARAMS(CUpti_RangeProfiler_CounterData_GetRangeInfo_Params);
    range.pCounterDataImage = session.counter_data.data();
    range.counterDataImageSize = session.counter_data.size();
    range.rangeIndex = i;
    range.rangeDelimiter = "/";
    const bool named = cuptiRangeProfilerCounterDataGetRangeInfo(&range) == CUPTI_SUCCESS;
    std::vector<double> values(metric_names_.size(), 0.0);
    auto evaluate = KOPT_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    evaluate.pHostObject = session.host;
    evaluate.pCounterDataImage = session.counter_data.data();
    evaluate.counterDataImageSize = session.counter_data.size();
    evaluate.rangeIndex = i;
    evaluate.ppMetricNames = metric_names_.data();
    evaluate.numMetrics = metric_names_.size();
    evaluate.pMetricValues = values.data();
    if (CUptiResult r = cuptiProfilerHostEvaluateToGpuValues(&evaluate); r != CUPTI_SUCCESS) {
      warn(describe_failure("cuptiProfilerHostEvaluateToGpuValues", r).message);
      continue;
    }
    nlohmann::json metrics = nlohmann::json::object();
    for (size_t m = 0; m < metrics_.size(); ++m) metrics[metrics_[m]] = values[m];
    records_.push_back({{"range", records_.size()},
                        {"name", named && range.rangeName ? range.rangeName : ""},
                        {"kernel", i < session.kernels.size() ? session.kernels[i] : ""},
                        {"metrics", metrics}});
  }
}

void RangeProfiler::finish(CUcontext ctx) {
  auto it = sessions_.find(ctx);
  if (it == sessions_.end()) return;
  Session& session = it->second;
  collect(session);
  auto disable = KOPT_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
  disable.pRangeProfilerObject = session.object;
  cuptiRangeProfilerDisable(&disable);
  auto host = KOPT_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
  host.pHostObject = session.host;
  if (session.host != nullptr) cuptiProfilerHostDeinitialize(&host);
  sessions_.erase(it);
}

void RangeProfiler::finish_all() {
  while (!sessions_.empty()) finish(sessions_.begin()->first);
  if (!initialized_) return;
  auto deinit = KOPT_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params);
  cuptiProfilerDeInitialize(&deinit);
  initialized_ = false;
}

nlohmann::json RangeProfiler::header() const {
  return {{"format", gpu_format::kCountersFormat},
          {"chip", chip_},
          {"metrics", metrics_},
          {"passes", passes_},
          {"launches", records_.size()},
          {"ranges_dropped", ranges_dropped_},
          {"warnings", warnings_}};
}

bool RangeProfiler::refuse(const char* call, CUptiResult result) {
  out_.write_failure(describe_failure(call, result));
  return false;
}

void RangeProfiler::warn(const std::string& text) {
  for (const auto& seen : warnings_)
    if (seen == text) return;
  warnings_.push_back(text);
}

}  // namespace kopt::inject
