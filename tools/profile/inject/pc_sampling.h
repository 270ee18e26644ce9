// PC sampling through the CUPTI PC Sampling API, one session per CUDA context: enabled and
// configured (all stall reasons, continuous mode) when the context is created, drained after
// launches that filled CUPTI's buffer and around module loads and unloads, and disabled when the
// context is destroyed or the process exits. Records go into a PcAggregate.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tools/profile/inject/output.h"
#include "tools/profile/inject/pc_aggregate.h"

namespace kopt::inject {

/// A CUpti_PCSamplingData buffer with room for `pcs` records of `stall_reasons` reasons each.
class SamplingBuffer {
 public:
  SamplingBuffer(size_t pcs, size_t stall_reasons);
  SamplingBuffer(const SamplingBuffer&) = delete;
  SamplingBuffer& operator=(const SamplingBuffer&) = delete;

  /// The buffer, for CUPTI to fill.
  CUpti_PCSamplingData* get() { return &data_; }
  /// The buffer, to read.
  const CUpti_PCSamplingData& data() const { return data_; }

 private:
  CUpti_PCSamplingData data_{};
  std::vector<CUpti_PCSamplingPCData> pcs_;
  std::vector<CUpti_PCSamplingStallReason> stalls_;
};

class PcSampler {
 public:
  /// `sampling_period` is 0 for CUPTI's default, else 5..31 (2^n cycles).
  PcSampler(OutputFolder& out, PcAggregate& aggregate, uint32_t sampling_period);

  /// Enables and configures sampling on a new context; on failure records it and returns false.
  bool start(CUcontext ctx);
  /// Moves what CUPTI holds for `ctx` into the aggregate; with `only_if_full`, only when
  /// CUPTI's buffer is about to overflow (after kernel launches).
  void drain(CUcontext ctx, bool only_if_full);
  /// Drains, disables sampling and collects the last records; the context is forgotten.
  void finish(CUcontext ctx);
  /// finish() for every context still sampled (at process exit).
  void finish_all();

  /// Stall reason names of the first context, for the header.
  const StallReasonNames& stall_reasons() const { return first_names_; }
  /// Problems that did not stop sampling (a full hardware buffer, a failed retrieval).
  const std::vector<std::string>& warnings() const { return warnings_; }
  /// Number of contexts sampled so far.
  int contexts() const { return contexts_; }

 private:
  struct Session {
    StallReasonNames names;
    std::vector<uint32_t> indices;
    std::unique_ptr<SamplingBuffer> configured;  ///< CUPTI's own buffer (module unload, disable).
    std::unique_ptr<SamplingBuffer> retrieved;   ///< Where cuptiPCSamplingGetData writes.
  };

  bool configure(CUcontext ctx, Session& session);
  void absorb_configured(Session& session);
  /// Records a failed call in error.json; always false.
  bool refuse(const char* call, CUptiResult result);
  void warn(const std::string& text);

  OutputFolder& out_;
  PcAggregate& aggregate_;
  uint32_t sampling_period_;
  std::map<CUcontext, Session> sessions_;
  StallReasonNames first_names_;
  std::vector<std::string> warnings_;
  int contexts_ = 0;
};

}  // namespace kopt::inject
