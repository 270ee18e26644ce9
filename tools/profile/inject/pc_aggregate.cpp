#include "tools/profile/inject/pc_aggregate.h"

#include <nlohmann/json.hpp>

#include "tools/profile/gpu_format.h"
#include "tools/profile/inject/output.h"

namespace kopt::inject {

void PcAggregate::absorb(const CUpti_PCSamplingData& data, const StallReasonNames& names) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++retrievals_;
  total_samples_ += data.totalSamples;
  dropped_samples_ += data.droppedSamples;
  non_user_samples_ += data.nonUsrKernelsTotalSamples;
  hardware_buffer_full_ = hardware_buffer_full_ || data.hardwareBufferFull != 0;
  if (data.pPcData == nullptr) return;
  for (size_t i = 0; i < data.totalNumPcs && i < data.collectNumPcs; ++i) {
    const CUpti_PCSamplingPCData& record = data.pPcData[i];
    Pc& pc = pcs_[Key{record.cubinCrc, record.functionIndex, record.pcOffset}];
    if (pc.function.empty() && record.functionName != nullptr) pc.function = record.functionName;
    for (size_t k = 0; k < record.stallReasonCount && record.stallReason != nullptr; ++k) {
      const CUpti_PCSamplingStallReason& stall = record.stallReason[k];
      if (stall.samples == 0) continue;
      auto name = names.find(stall.pcSamplingStallReasonIndex);
      pc.stalls[name != names.end()
                    ? name->second
                    : "index_" + std::to_string(stall.pcSamplingStallReasonIndex)] += stall.samples;
    }
  }
}

nlohmann::json PcAggregate::header(const nlohmann::json& extra) const {
  std::lock_guard<std::mutex> lock(mutex_);
  nlohmann::json header = {{"format", gpu_format::kSamplesFormat},
                           {"pcs", pcs_.size()},
                           {"total_samples", total_samples_},
                           {"dropped_samples", dropped_samples_},
                           {"non_user_kernel_samples", non_user_samples_},
                           {"hardware_buffer_full", hardware_buffer_full_},
                           {"retrievals", retrievals_}};
  if (extra.is_object()) header.update(extra);
  return header;
}

std::vector<nlohmann::json> PcAggregate::records() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<nlohmann::json> lines;
  lines.reserve(pcs_.size());
  for (const auto& [key, pc] : pcs_) {
    const auto& [crc, function_index, offset] = key;
    lines.push_back({{"cubin_crc", crc_hex(crc)},
                     {"function", pc.function},
                     {"function_index", function_index},
                     {"pc_offset", offset},
                     {"stalls", pc.stalls}});
  }
  return lines;
}

size_t PcAggregate::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pcs_.size();
}

}  // namespace kopt::inject
