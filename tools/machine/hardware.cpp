#include "tools/machine/hardware.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "util/paths.h"
#include "util/strings.h"

namespace kopt {

namespace {

// Reads {"value": ..., "source": ...}; a figure without a source is an error.
Result<double> figure(const Json& entry, const std::string& key, HardwareSpec& spec) {
  if (!entry.contains(key) || !entry[key].is_object()) return fail("no figure '" + key + "'");
  const Json& f = entry[key];
  if (!f.contains("value") || !f["value"].is_number()) return fail("'" + key + "' has no value");
  const std::string source = f.value("source", "");
  if (source.empty()) return fail("'" + key + "' has no source");
  spec.sources[key] = source;
  return f["value"].get<double>();
}

Result<HardwareSpec> parse_entry(const Json& entry) {
  HardwareSpec spec;
  spec.name = entry.value("name", "");
  if (spec.name.empty()) return fail("an entry has no name");
  spec.full_name = entry.value("full_name", spec.name);
  for (const auto& alias : entry.value("aliases", Json::array()))
    spec.aliases.push_back(alias.get<std::string>());
  spec.peaks.name = spec.name;
  double* targets[] = {&spec.peaks.fp32,           &spec.peaks.fp64, &spec.peaks.int_ops,
                       &spec.peaks.dram_bandwidth, &spec.l2_bytes,   &spec.clock_ghz};
  const char* keys[] = {"fp32", "fp64", "int", "dram_bandwidth", "l2_bytes", "clock_ghz"};
  for (size_t i = 0; i < std::size(keys); ++i) {
    auto value = figure(entry, keys[i], spec);
    if (!value) return fail(spec.name + ": " + value.error().message);
    *targets[i] = *value;
  }
  auto sms = figure(entry, "sm_count", spec);
  if (!sms) return fail(spec.name + ": " + sms.error().message);
  spec.sm_count = static_cast<int>(*sms);
  return spec;
}

}  // namespace

std::filesystem::path default_hardware_table() {
  return kopt_home() / "tools" / "machine" / "hardware.json";
}

Result<std::vector<HardwareSpec>> load_hardware_table(const std::filesystem::path& path) {
  auto doc = read_json_file(path);
  if (!doc) return doc.error();
  if (doc->value("format", "") != "kopt-hardware/1")
    return fail(path.string() + " is not a kopt-hardware/1 table");
  std::vector<HardwareSpec> specs;
  for (const auto& entry : doc->value("hardware", Json::array())) {
    auto spec = parse_entry(entry);
    if (!spec) return fail(path.string() + ": " + spec.error().message);
    specs.push_back(std::move(*spec));
  }
  return specs;
}

Result<HardwareSpec> find_hardware(const std::string& name) {
  auto table = load_hardware_table(default_hardware_table());
  if (!table) return table.error();
  const std::string wanted = to_lower(name);
  std::vector<std::string> known;
  for (const auto& spec : *table) {
    known.push_back(spec.name);
    if (spec.name == wanted) return spec;
    for (const auto& alias : spec.aliases)
      if (to_lower(alias) == wanted) return spec;
  }
  return fail("unknown hardware '" + name + "' (known: host, " + join(known, ", ") + ")");
}

Json to_json(const HardwareSpec& spec) {
  return {{"name", spec.name},
          {"full_name", spec.full_name},
          {"peaks", to_json(spec.peaks)},
          {"sm_count", spec.sm_count},
          {"clock_ghz", spec.clock_ghz},
          {"l2_bytes", spec.l2_bytes},
          {"balance", to_json(balance_points(spec.peaks))},
          {"sources", spec.sources}};
}

}  // namespace kopt
