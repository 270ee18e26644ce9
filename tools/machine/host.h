// What the operating system says about this machine without measuring anything: the CPU
// model, cores, vector extensions and caches (from /proc/cpuinfo and sysfs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/json.h"

namespace kopt {

/// One cache level as sysfs describes it.
struct CacheLevel {
  int level = 0;
  std::string type;    ///< "Data", "Instruction" or "Unified".
  uint64_t bytes = 0;  ///< Size of one instance.
  int shared_by = 1;   ///< Logical CPUs sharing one instance.
  int instances = 1;   ///< Instances on the machine.
};

/// The host's static description.
struct HostInfo {
  std::string cpu_model;
  int cores = 0;          ///< Physical cores.
  int threads = 0;        ///< Logical CPUs.
  int vector_bits = 128;  ///< Widest SIMD registers: 512 (avx512f), 256 (avx2/avx), 128.
  bool fma = false;
  std::vector<std::string> isa;  ///< The SIMD flags kopt cares about, as /proc/cpuinfo spells them.
  std::vector<CacheLevel> caches;

  /// Size of the last-level cache (all instances), 0 when unknown.
  uint64_t last_level_cache_bytes() const;
};

/// Reads /proc/cpuinfo and /sys/devices/system/cpu.
HostInfo read_host_info();

/// One line for a model's prompt: "Host: MODEL, C cores (T hardware threads); SIMD up to N bits
/// (flags); caches L1d 32 KiB per core, ...".
std::string host_text(const HostInfo& host);

/// The load averages over 1, 5 and 15 minutes (empty when they cannot be read): how busy the
/// machine was, recorded beside every run's figures.
std::vector<double> load_averages();

/// Parses a sysfs cache size ("48K", "2048K", "1M").
uint64_t parse_cache_size(const std::string& text);

Json to_json(const HostInfo& host);
HostInfo host_info_from_json(const Json& doc);

}  // namespace kopt
