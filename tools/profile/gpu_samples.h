// Reading what the CUPTI injection library left in its output folder: the sampled PCs with their
// stall-reason counts (pcsampling.jsonl), the captured cubins, and error.json when CUPTI refused.
// Stall reasons are CUPTI's metric names; each has a "_not_issued" twin that counts the subset
// of its samples in which no instruction issued, so a PC's samples are the sum over the plain ones.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "util/result.h"

namespace kopt {

/// One sampled instruction: a PC offset in a function of a cubin and its samples per reason.
struct PcSample {
  std::string cubin_crc;  ///< "0x" and 16 hex digits; names cubins/<crc>.cubin.
  std::string function;   ///< The function's (mangled) name.
  uint32_t function_index = 0;
  uint64_t pc_offset = 0;                  ///< Bytes from the start of the function.
  std::map<std::string, uint64_t> stalls;  ///< CUPTI stall reason name -> samples.
};

/// A run's PC sampling data.
struct PcSamplingData {
  uint64_t total_samples = 0;  ///< CUPTI's count, including dropped and non-user kernels.
  uint64_t dropped_samples = 0;
  uint64_t non_user_kernel_samples = 0;
  bool hardware_buffer_full = false;
  std::map<uint32_t, std::string> stall_reasons;  ///< CUPTI index -> name.
  std::vector<std::string> warnings;
  std::vector<PcSample> pcs;
  std::map<std::string, std::filesystem::path> cubins;  ///< CRC -> captured cubin file.
};

/// The failure the injection library recorded in error.json.
struct CuptiError {
  std::string reason;  ///< "insufficient-privileges", "no-device", "not-supported", ...
  std::string call;
  int code = 0;
  std::string message;
};

/// Reads pcsampling.jsonl and lists the cubins; the Error says what is missing or malformed.
Result<PcSamplingData> read_pc_sampling(const std::filesystem::path& folder);

/// Reads error.json, if the library wrote one.
std::optional<CuptiError> read_cupti_error(const std::filesystem::path& folder);

/// Whether the library was loaded at all (it writes injection.json first thing).
bool injection_started(const std::filesystem::path& folder);

/// "smsp__pcsamp_warps_issue_stalled_long_scoreboard" -> "long_scoreboard"; a "_not_issued"
/// twin keeps its suffix.
std::string short_stall_name(const std::string& reason);

/// True for the "_not_issued" twins.
bool is_not_issued(const std::string& reason);

/// A PC's samples: the sum over its plain (not "_not_issued") reasons.
uint64_t sample_count(const std::map<std::string, uint64_t>& stalls);

}  // namespace kopt
