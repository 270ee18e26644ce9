// The hardware table: datasheet peaks of the GPUs people optimize for, each figure with its
// source (tools/machine/hardware.json, "kopt-hardware/1").
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tools/roofline/counters.h"
#include "util/result.h"

namespace kopt {

/// One GPU of the table.
struct HardwareSpec {
  std::string name;  ///< "h100"
  std::vector<std::string> aliases;
  std::string full_name;
  Peaks peaks;
  int sm_count = 0;
  double clock_ghz = 0;
  double l2_bytes = 0;
  std::map<std::string, std::string> sources;  ///< Figure ("fp32", "l2_bytes", ...) -> source.
};

/// kopt_home()/tools/machine/hardware.json.
std::filesystem::path default_hardware_table();

/// Reads a hardware table; the Error names the first entry or figure that is wrong.
Result<std::vector<HardwareSpec>> load_hardware_table(const std::filesystem::path& path);

/// The entry named `name` (or one of its aliases, any case) in the default table.
Result<HardwareSpec> find_hardware(const std::string& name);

/// Every figure with its source, for records and `kopt machine --hardware`.
Json to_json(const HardwareSpec& spec);

}  // namespace kopt
