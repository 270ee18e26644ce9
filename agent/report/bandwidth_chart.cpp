// The roofline of a benchmark without floating-point work: achieved bandwidth per variant under
// the memory roofs.
#include <algorithm>

#include <fmt/format.h>

#include "agent/report/charts.h"

namespace kopt {

namespace {

// The note under the chart: why this chart, which roofs it draws, which it leaves out.
std::string bandwidth_note(const Roofs& roofs) {
  std::string drawn = fmt::format("DRAM {:.3g} GB/s", roofs.peak_gbytes_per_s);
  for (const auto& [name, rate] : roofs.cache_gbytes_per_s)
    drawn += fmt::format(", {} {:.3g} GB/s", name, rate);
  const std::string integer =
      roofs.peak_int_gops > 0
          ? fmt::format("; the machine's 32-bit integer peak, {:.3g} GOP/s, is not drawn",
                        roofs.peak_int_gops)
          : "";
  return fmt::format(
      "{} ({}). The benchmark does no floating-point work and kopt counts no integer operations "
      "for it (its manifest states bytes only), so there is no intensity to place it at: this "
      "chart is bandwidth-only, each variant's analytic bytes over its measured time{}",
      drawn, roofs.source, integer);
}

}  // namespace

Json bandwidth_chart(const RunView& v, const Roofs& roofs) {
  const double bytes = v.reference.bytes;
  if (bytes <= 0 || roofs.peak_gbytes_per_s <= 0) return Json();
  double highest = roofs.peak_gbytes_per_s;
  for (const auto& [name, rate] : roofs.cache_gbytes_per_s) highest = std::max(highest, rate);
  Json points = Json::array(), colours = Json::array(), ids = Json::array();
  auto add = [&](const std::string& id, double gbs, Json detail, const std::string& colour) {
    if (gbs <= 0) return;
    ids.push_back(id);
    detail["x"] = static_cast<double>(ids.size());
    detail["y"] = gbs;
    detail["gbs"] = gbs;
    detail["above_roof"] = gbs > highest * 1.02;
    detail["above_dram"] = !detail["above_roof"] && gbs > roofs.peak_gbytes_per_s * 1.02;
    points.push_back(detail);
    colours.push_back(colour);
  };
  const double original_ms = v.reference.original_ms;
  if (original_ms > 0) add("original", bytes / original_ms / 1e6, {{"id", "original"}}, "#888888");
  if (!v.human.status.empty())
    add("human", v.human.gbytes_per_s, point_detail("human", v.human, ""), "#d97706");
  for (const auto& c : v.candidates)
    add(c.id, c.verdict.gbytes_per_s, point_detail(c.id, c.verdict, ""),
        status_colour(c.verdict.status, c.accepted));
  const double right = std::max<double>(2, static_cast<double>(ids.size())) + 0.5;
  Json datasets = Json::array();
  datasets.push_back({{"type", "scatter"},
                      {"label", "variants (analytic bytes over the measured time)"},
                      {"data", points},
                      {"pointBackgroundColor", colours},
                      {"pointRadius", 5},
                      {"kind", "variants"}});
  auto roof = [&](const std::string& label, double rate, const char* colour, bool dashed) {
    datasets.push_back(
        chart_line(label, colour,
                   Json::array({{{"x", 0.5}, {"y", rate}}, {{"x", right}, {"y", rate}}}), dashed));
  };
  roof(fmt::format("DRAM roof: {:.3g} GB/s", roofs.peak_gbytes_per_s), roofs.peak_gbytes_per_s,
       "#333333", false);
  static const char* kCacheColours[] = {"#9334e6", "#1a73e8", "#007b83", "#5f6368"};
  for (size_t i = 0; i < roofs.cache_gbytes_per_s.size(); ++i)
    roof(fmt::format("{} roof: {:.3g} GB/s", roofs.cache_gbytes_per_s[i].first,
                     roofs.cache_gbytes_per_s[i].second),
         roofs.cache_gbytes_per_s[i].second, kCacheColours[i % std::size(kCacheColours)], true);
  Json x = chart_axis("variant", false);
  x["min"] = 0.5;
  x["max"] = right;
  return {{"title", "Bandwidth roofline: achieved GB/s per variant (no floating-point work)"},
          {"ids", ids},
          {"datasets", datasets},
          {"x", x},
          {"y", chart_axis("GB/s (log)", true)},
          {"note", bandwidth_note(roofs)}};
}

}  // namespace kopt
