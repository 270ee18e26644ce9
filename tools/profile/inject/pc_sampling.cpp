#include "tools/profile/inject/pc_sampling.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace kopt::inject {

namespace {

// PC records CUPTI may park in the configured buffer, and records fetched per retrieval.
constexpr size_t kConfiguredPcs = 16384;
constexpr size_t kRetrievedPcs = 4096;
// A retrieval loop that makes no progress ends after this many rounds.
constexpr int kMaxRetrievals = 10000;

CUpti_PCSamplingConfigurationInfo attribute(CUpti_PCSamplingConfigurationAttributeType type) {
  CUpti_PCSamplingConfigurationInfo info = {};
  info.attributeType = type;
  return info;
}

}  // namespace

SamplingBuffer::SamplingBuffer(size_t pcs, size_t stall_reasons)
    : pcs_(pcs), stalls_(pcs * std::max<size_t>(stall_reasons, 1)) {
  data_.size = sizeof(CUpti_PCSamplingData);
  data_.collectNumPcs = pcs;
  data_.pPcData = pcs_.data();
  for (size_t i = 0; i < pcs; ++i) {
    pcs_[i].size = sizeof(CUpti_PCSamplingPCData);
    pcs_[i].stallReason = stalls_.data() + i * std::max<size_t>(stall_reasons, 1);
  }
}

PcSampler::PcSampler(OutputFolder& out, PcAggregate& aggregate, uint32_t sampling_period)
    : out_(out), aggregate_(aggregate), sampling_period_(sampling_period) {}

bool PcSampler::start(CUcontext ctx) {
  CUpti_PCSamplingEnableParams enable = {};
  enable.size = CUpti_PCSamplingEnableParamsSize;
  enable.ctx = ctx;
  if (CUptiResult r = cuptiPCSamplingEnable(&enable); r != CUPTI_SUCCESS)
    return refuse("cuptiPCSamplingEnable", r);
  Session session;
  if (!configure(ctx, session)) {
    CUpti_PCSamplingDisableParams disable = {};
    disable.size = CUpti_PCSamplingDisableParamsSize;
    disable.ctx = ctx;
    cuptiPCSamplingDisable(&disable);
    return false;
  }
  if (contexts_++ == 0) first_names_ = session.names;
  sessions_.emplace(ctx, std::move(session));
  return true;
}

bool PcSampler::configure(CUcontext ctx, Session& session) {
  size_t count = 0;
  CUpti_PCSamplingGetNumStallReasonsParams number = {};
  number.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
  number.ctx = ctx;
  number.numStallReasons = &count;
  if (CUptiResult r = cuptiPCSamplingGetNumStallReasons(&number); r != CUPTI_SUCCESS)
    return refuse("cuptiPCSamplingGetNumStallReasons", r);

  std::vector<std::array<char, CUPTI_STALL_REASON_STRING_SIZE>> text(count);
  std::vector<char*> text_pointers;
  for (auto& entry : text) text_pointers.push_back(entry.data());
  session.indices.assign(count, 0);
  CUpti_PCSamplingGetStallReasonsParams reasons = {};
  reasons.size = CUpti_PCSamplingGetStallReasonsParamsSize;
  reasons.ctx = ctx;
  reasons.numStallReasons = count;
  reasons.stallReasonIndex = session.indices.data();
  reasons.stallReasons = text_pointers.data();
  if (CUptiResult r = cuptiPCSamplingGetStallReasons(&reasons); r != CUPTI_SUCCESS)
    return refuse("cuptiPCSamplingGetStallReasons", r);
  for (size_t i = 0; i < count; ++i)
    session.names[session.indices[i]] =
        std::string(text[i].data(), strnlen(text[i].data(), text[i].size()));

  session.configured = std::make_unique<SamplingBuffer>(kConfiguredPcs, count);
  session.retrieved = std::make_unique<SamplingBuffer>(kRetrievedPcs, count);

  std::vector<CUpti_PCSamplingConfigurationInfo> config;
  auto stall = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON);
  stall.attributeData.stallReasonData.stallReasonCount = count;
  stall.attributeData.stallReasonData.pStallReasonIndex = session.indices.data();
  config.push_back(stall);
  auto buffer = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER);
  buffer.attributeData.samplingDataBufferData.samplingDataBuffer = session.configured->get();
  config.push_back(buffer);
  auto mode = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE);
  mode.attributeData.collectionModeData.collectionMode =
      CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
  config.push_back(mode);
  if (sampling_period_ != 0) {
    auto period = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD);
    period.attributeData.samplingPeriodData.samplingPeriod = sampling_period_;
    config.push_back(period);
  }
  CUpti_PCSamplingConfigurationInfoParams params = {};
  params.size = CUpti_PCSamplingConfigurationInfoParamsSize;
  params.ctx = ctx;
  params.numAttributes = config.size();
  params.pPCSamplingConfigurationInfo = config.data();
  if (CUptiResult r = cuptiPCSamplingSetConfigurationAttribute(&params); r != CUPTI_SUCCESS)
    return refuse("cuptiPCSamplingSetConfigurationAttribute", r);
  return true;
}

void PcSampler::absorb_configured(Session& session) {
  CUpti_PCSamplingData* configured = session.configured->get();
  if (configured->totalNumPcs == 0) return;
  aggregate_.absorb(*configured, session.names);
  configured->totalNumPcs = 0;
}

void PcSampler::drain(CUcontext ctx, bool only_if_full) {
  auto it = sessions_.find(ctx);
  if (it == sessions_.end()) return;
  Session& session = it->second;
  if (only_if_full && session.configured->data().remainingNumPcs < kRetrievedPcs) return;
  absorb_configured(session);
  CUpti_PCSamplingGetDataParams params = {};
  params.size = CUpti_PCSamplingGetDataParamsSize;
  params.ctx = ctx;
  params.pcSamplingData = session.retrieved->get();
  for (int round = 0; round < kMaxRetrievals; ++round) {
    CUpti_PCSamplingData* retrieved = session.retrieved->get();
    retrieved->totalNumPcs = 0;
    retrieved->remainingNumPcs = 0;
    const CUptiResult r = cuptiPCSamplingGetData(&params);
    if (r != CUPTI_SUCCESS) {
      if (retrieved->hardwareBufferFull)
        warn("the hardware buffer filled up and samples were lost (raise the sampling period)");
      else
        warn(describe_failure("cuptiPCSamplingGetData", r).message);
      aggregate_.absorb(*retrieved, session.names);
      break;
    }
    aggregate_.absorb(*retrieved, session.names);
    absorb_configured(session);
    if (retrieved->remainingNumPcs == 0 || retrieved->totalNumPcs == 0) break;
  }
}

void PcSampler::finish(CUcontext ctx) {
  auto it = sessions_.find(ctx);
  if (it == sessions_.end()) return;
  drain(ctx, false);
  CUpti_PCSamplingDisableParams disable = {};
  disable.size = CUpti_PCSamplingDisableParamsSize;
  disable.ctx = ctx;
  if (CUptiResult r = cuptiPCSamplingDisable(&disable); r != CUPTI_SUCCESS)
    warn(describe_failure("cuptiPCSamplingDisable", r).message);
  absorb_configured(it->second);
  sessions_.erase(it);
}

void PcSampler::finish_all() {
  while (!sessions_.empty()) finish(sessions_.begin()->first);
}

bool PcSampler::refuse(const char* call, CUptiResult result) {
  out_.write_failure(describe_failure(call, result));
  return false;
}

void PcSampler::warn(const std::string& text) {
  for (const auto& seen : warnings_)
    if (seen == text) return;
  warnings_.push_back(text);
}

}  // namespace kopt::inject
