#include "tools/profile/gpu_attribution.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "tools/eval/static_check.h"
#include "tools/profile/gpu_format.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxCodeWidth = 72;
constexpr size_t kMaxWarnings = 8;

void warn(GpuAttribution& profile, const std::string& text) {
  if (profile.warnings.size() >= kMaxWarnings) return;
  if (std::find(profile.warnings.begin(), profile.warnings.end(), text) == profile.warnings.end())
    profile.warnings.push_back(text);
}

double share(uint64_t part, uint64_t whole) {
  return whole ? double(part) / double(whole) : 0.0;
}

// Reasons by samples, most first.
std::vector<std::pair<std::string, uint64_t>> ranked(
    const std::map<std::string, uint64_t>& stalls) {
  std::vector<std::pair<std::string, uint64_t>> list(stalls.begin(), stalls.end());
  std::stable_sort(list.begin(), list.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return list;
}

std::string top_stalls(const std::map<std::string, uint64_t>& stalls, uint64_t whole,
                       size_t count) {
  std::vector<std::string> parts;
  for (const auto& [reason, samples] : ranked(stalls)) {
    if (parts.size() == count || samples == 0) break;
    parts.push_back(fmt::format("{} {:.0f}%", reason, 100 * share(samples, whole)));
  }
  return join(parts, ", ");
}

std::string clip(std::string text, size_t width) {
  if (text.size() <= width) return text;
  return text.substr(0, width - 3) + "...";
}

void add_pc(GpuAttribution& profile, std::map<std::pair<std::string, uint32_t>, GpuLine>& lines,
            const PcSample& pc, uint64_t samples, const SourceLocation& where) {
  GpuLine& line = lines[{where.file, where.line}];
  line.file = where.file;
  line.line = where.line;
  line.samples += samples;
  for (const auto& [reason, count] : pc.stalls) {
    if (is_not_issued(reason)) continue;
    line.stalls[short_stall_name(reason)] += count;
    profile.stalls[short_stall_name(reason)] += count;
  }
  const std::string function = demangle(pc.function);
  if (std::find(line.functions.begin(), line.functions.end(), function) == line.functions.end())
    line.functions.push_back(function);
}

void check_totals(GpuAttribution& profile, const PcSamplingData& data) {
  for (const auto& warning : data.warnings) warn(profile, warning);
  if (data.hardware_buffer_full)
    warn(profile, "CUPTI's hardware buffer filled up: samples were lost");
  if (data.dropped_samples > 0)
    warn(profile, fmt::format("{} samples were dropped by the hardware", data.dropped_samples));
  if (data.total_samples > 0 && profile.samples > data.total_samples)
    warn(profile, fmt::format("the PC records hold {} samples but CUPTI counted {}: some may be "
                              "counted twice",
                              profile.samples, data.total_samples));
}

}  // namespace

std::string SourceFiles::line_text(const SourceLocation& location) const {
  auto given = by_name.find(location.file);
  std::string content;
  if (given != by_name.end()) {
    content = given->second;
  } else {
    fs::path path = fs::path(location.file).is_absolute() ? fs::path(location.file)
                                                          : fs::path(location.dir) / location.file;
    auto text = read_file(path);
    if (!text) return {};
    content = std::move(*text);
  }
  const std::vector<std::string> lines = split(content, '\n');
  return location.line >= 1 && location.line <= lines.size() ? trim(lines[location.line - 1]) : "";
}

GpuAttribution attribute(const PcSamplingData& data, SassLineMapper& mapper,
                         const SourceFiles& sources) {
  GpuAttribution profile;
  profile.line_mapper = mapper.name();
  std::map<std::pair<std::string, uint32_t>, GpuLine> lines;
  std::map<std::string, uint64_t> functions;
  std::vector<const PcSample*> located;
  std::vector<PcQuery> queries;
  for (const auto& pc : data.pcs) {
    const uint64_t samples = sample_count(pc.stalls);
    if (samples == 0) continue;
    profile.samples += samples;
    functions[pc.function] += samples;
    auto cubin = data.cubins.find(pc.cubin_crc);
    if (cubin == data.cubins.end()) {
      profile.unattributed += samples;
      warn(profile, "no cubin was captured for module " + pc.cubin_crc);
      continue;
    }
    located.push_back(&pc);
    queries.push_back({cubin->second, pc.function, pc.pc_offset});
  }
  const std::vector<Result<SourceLocation>> where = mapper.locate_all(queries);
  for (size_t i = 0; i < located.size(); ++i) {
    const uint64_t samples = sample_count(located[i]->stalls);
    if (i >= where.size() || !where[i]) {
      profile.unattributed += samples;
      if (i < where.size()) warn(profile, where[i].error().message);
      continue;
    }
    add_pc(profile, lines, *located[i], samples, *where[i]);
  }
  for (auto& [key, line] : lines) {
    line.share = share(line.samples, profile.samples);
    line.code = sources.line_text({line.file, "", line.line});
    profile.lines.push_back(std::move(line));
  }
  std::stable_sort(profile.lines.begin(), profile.lines.end(),
                   [](const GpuLine& a, const GpuLine& b) { return a.samples > b.samples; });
  for (const auto& [name, samples] : functions)
    profile.functions.push_back({name, demangle(name), samples, share(samples, profile.samples)});
  std::stable_sort(
      profile.functions.begin(), profile.functions.end(),
      [](const GpuFunction& a, const GpuFunction& b) { return a.samples > b.samples; });
  check_totals(profile, data);
  return profile;
}

std::string summarize(const GpuAttribution& profile, int top_lines) {
  if (profile.samples == 0) return "GPU PC sampling: no samples (did the kernel run?)\n";
  uint64_t stall_total = 0;
  for (const auto& [reason, samples] : profile.stalls) stall_total += samples;
  // The harness's own kernels (poisoning the outputs between calls) are not the candidate's.
  std::vector<std::string> kernels;
  for (const auto& function : profile.functions)
    if (!gpu_format::is_harness_kernel(function.demangled))
      kernels.push_back(
          fmt::format("{} {:.1f}%", clip(function.demangled, 60), 100 * function.share));
  std::string text = fmt::format("GPU PC sampling (CUPTI): {} samples in {} kernel{}\n",
                                 profile.samples, kernels.size(), kernels.size() == 1 ? "" : "s");
  text += "kernels: " + join(kernels, "; ") + "\n";
  text += "stall reasons overall: " + top_stalls(profile.stalls, stall_total, 4) + "\n";
  text += "top lines (share of samples, code, top stall reasons of the line):\n";
  for (size_t i = 0, shown = 0; i < profile.lines.size() && shown < static_cast<size_t>(top_lines);
       ++i) {
    const GpuLine& line = profile.lines[i];
    if (line.file == "cuda_harness.cuh") continue;
    ++shown;
    text += fmt::format("  {}:{} {:5.1f}%  {}  | {}\n", line.file, line.line, 100 * line.share,
                        line.code.empty() ? "?" : clip(line.code, kMaxCodeWidth),
                        top_stalls(line.stalls, line.samples, 3));
  }
  if (profile.unattributed > 0)
    text += fmt::format("not attributed to a line: {:.1f}%\n",
                        100 * share(profile.unattributed, profile.samples));
  for (const auto& warning : profile.warnings) text += "warning: " + warning + "\n";
  return text;
}

Json to_json(const GpuAttribution& profile) {
  Json lines = Json::array();
  for (const auto& line : profile.lines)
    lines.push_back({{"file", line.file},
                     {"line", line.line},
                     {"samples", line.samples},
                     {"share", line.share},
                     {"stalls", line.stalls},
                     {"functions", line.functions},
                     {"code", line.code}});
  Json functions = Json::array();
  for (const auto& function : profile.functions)
    functions.push_back({{"name", function.name},
                         {"demangled", function.demangled},
                         {"samples", function.samples},
                         {"share", function.share}});
  return {{"format", "kopt-gpu-profile/1"},
          {"method", "cupti-pc-sampling"},
          {"line_mapper", profile.line_mapper},
          {"samples", profile.samples},
          {"unattributed", profile.unattributed},
          {"stalls", profile.stalls},
          {"functions", functions},
          {"lines", lines},
          {"warnings", profile.warnings}};
}

}  // namespace kopt
