// Sums the PC records CUPTI hands back (CUpti_PCSamplingData buffers) per sampled instruction,
// across retrievals and contexts, and turns them into the lines of pcsampling.jsonl.
#pragma once

#include <cupti_pcsampling.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <tuple>
#include <vector>

namespace kopt::inject {

/// Stall reason names by CUPTI index, as cuptiPCSamplingGetStallReasons lists them.
using StallReasonNames = std::map<uint32_t, std::string>;

class PcAggregate {
 public:
  /// Adds every PC record of `data` (its first totalNumPcs entries) and its sample totals.
  void absorb(const CUpti_PCSamplingData& data, const StallReasonNames& names);

  /// The header line of pcsampling.jsonl; `extra` fields are merged in.
  nlohmann::json header(const nlohmann::json& extra) const;
  /// One line per sampled PC, ordered by cubin, function and offset.
  std::vector<nlohmann::json> records() const;

  /// Number of distinct PCs seen so far.
  size_t size() const;

 private:
  // (cubin CRC, function index, PC offset)
  using Key = std::tuple<uint64_t, uint32_t, uint64_t>;
  struct Pc {
    std::string function;
    std::map<std::string, uint64_t> stalls;
  };

  mutable std::mutex mutex_;
  std::map<Key, Pc> pcs_;
  uint64_t total_samples_ = 0;
  uint64_t dropped_samples_ = 0;
  uint64_t non_user_samples_ = 0;
  uint64_t retrievals_ = 0;
  bool hardware_buffer_full_ = false;
};

}  // namespace kopt::inject
