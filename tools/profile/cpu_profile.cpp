#include "tools/profile/cpu_profile.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace kopt {

namespace {

std::string percent(double share) {
  return fmt::format("{:.1f}%", 100 * share);
}

// "exp (libm.so.6) 40.1%, ..." for the biggest callees of a line.
std::string callee_text(const CpuProfile& p, const LineCount& line) {
  std::vector<std::pair<uint64_t, std::string>> ranked;
  for (const auto& [name, count] : line.callee_names) ranked.push_back({count, name});
  std::sort(ranked.rbegin(), ranked.rend());
  std::string text;
  for (size_t i = 0; i < ranked.size() && i < 2; ++i)
    text +=
        fmt::format("{}{} {}", i ? ", " : "", ranked[i].second, percent(p.share(ranked[i].first)));
  return text;
}

std::string outside_text(const CpuProfile& p) {
  std::string text;
  for (const char* place :
       {where::kHarness, where::kLibm, where::kOpenMp, where::kLibc, where::kOther}) {
    auto it = p.by_place.find(place);
    if (it == p.by_place.end() || p.share(it->second) < 0.001) continue;
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", place, percent(p.share(it->second)));
  }
  return text.empty() ? "none" : text;
}

}  // namespace

Json to_json(const CpuProfile& p) {
  Json lines = Json::array();
  for (const auto& l : p.lines)
    lines.push_back({{"line", l.line},
                     {"self", l.self},
                     {"callees", l.callees},
                     {"callee_names", l.callee_names},
                     {"share", p.share(l.total())},
                     {"code", l.code}});
  Json functions = Json::array();
  for (const auto& f : p.functions)
    functions.push_back(
        {{"name", f.name}, {"object", f.object}, {"self", f.self}, {"share", p.share(f.self)}});
  return {{"format", "kopt-profile/1"},
          {"profiler", p.profiler},
          {"event", p.event},
          {"unit", p.unit},
          {"fallback_reason", p.fallback_reason},
          {"raw_file", p.raw_file.empty() ? Json() : Json(p.raw_file)},
          {"open_with", p.open_with.empty() ? Json() : Json(p.open_with)},
          {"total", p.total},
          {"by_place", p.by_place},
          {"lines", lines},
          {"functions", functions},
          {"size", p.size},
          {"reps", p.reps},
          {"threads", p.threads},
          {"seconds", p.seconds},
          {"call_seconds", p.call_seconds},
          {"frequency", p.frequency}};
}

std::string summarize(const CpuProfile& p, const std::string& title, int top_lines) {
  std::string text =
      fmt::format("profile of {}: {} {} ({} {}, {} calls at size {}, {} threads)\n", title,
                  p.profiler, p.event, p.total, p.unit, p.reps, p.size, p.threads);
  if (!p.fallback_reason.empty()) text += "(perf unavailable: " + p.fallback_reason + ")\n";
  if (!p.open_with.empty()) text += "raw data kept: " + p.open_with + "\n";
  const auto in_kernel = [&](const char* place) {
    auto it = p.by_place.find(place);
    return it == p.by_place.end() ? 0.0 : p.share(it->second);
  };
  text += fmt::format("kernel file {} of the {}; outside it: {}\n",
                      percent(in_kernel(where::kKernel)), p.unit, outside_text(p));
  text += "hottest lines of the kernel file (share includes time in the functions they call):\n";
  int shown = 0;
  for (const auto& line : p.lines) {
    if (shown++ == top_lines || p.share(line.total()) < 0.005) break;
    const std::string_view code = std::string_view(line.code).substr(0, 90);
    text += fmt::format("  {:>6} line {:<4} {}\n", percent(p.share(line.total())), line.line, code);
    if (line.callees > 0) text += fmt::format("         in callees: {}\n", callee_text(p, line));
  }
  if (shown == 0) text += "  (no samples in the kernel file)\n";
  return text;
}

}  // namespace kopt
