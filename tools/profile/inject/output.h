// The injection library's output folder ($KOPT_CUPTI_OUT): error.json, JSON-lines data files
// and captured cubins, in the format of tools/profile/gpu_format.h. Files are written through a
// temporary name and renamed, so kopt never reads half a file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <set>
#include <string>
#include <vector>

#include "tools/profile/inject/cupti_errors.h"

namespace kopt::inject {

/// A cubin CRC as kopt names it: "0x" and 16 lower-case hex digits.
std::string crc_hex(uint64_t crc);

/// The CRC CUPTI gives a cubin (the key of PC records); 0 when CUPTI cannot compute it.
uint64_t cubin_crc(const void* cubin, size_t size);

class OutputFolder {
 public:
  /// Writes into `dir`, creating it; invalid (writes nothing) when `dir` is empty.
  explicit OutputFolder(std::filesystem::path dir);

  /// The folder named by $KOPT_CUPTI_OUT.
  static OutputFolder from_environment();

  /// False when no folder was named: every write is then skipped.
  bool valid() const { return !dir_.empty(); }
  /// The folder written into.
  const std::filesystem::path& dir() const { return dir_; }

  /// Records the first failure in error.json; later ones are ignored. Returns false if a
  /// failure had already been recorded.
  bool write_failure(const CuptiFailure& failure);
  /// True once a failure has been recorded.
  bool failed() const;

  /// Saves a module's cubin as cubins/<crc>.cubin (once per CRC); returns its CRC, 0 on failure.
  uint64_t write_cubin(const void* data, size_t size);

  /// Writes `name` as a header line followed by one line per record.
  bool write_lines(const std::string& name, const nlohmann::json& header,
                   const std::vector<nlohmann::json>& records);
  /// Writes `name` as one JSON object on one line.
  bool write_json(const std::string& name, const nlohmann::json& value);

 private:
  bool write_atomic(const std::filesystem::path& path, const std::string& content);

  std::filesystem::path dir_;
  mutable std::mutex mutex_;
  bool failed_ = false;
  std::set<uint64_t> cubins_;
};

}  // namespace kopt::inject
