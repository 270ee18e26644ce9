// The report's charts, drawn in the page by Chart.js (Debian's libjs-chart.js, inlined so the
// page needs no network): the speedup trajectory, the roofline and the timing samples of the
// final comparison. This file turns a run into the charts' data; the page's script adds the
// log axes' ticks, the tooltips and the intervals.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "agent/report/run_view.h"
#include "util/json.h"
#include "util/result.h"

namespace kopt {

/// The machine's ceilings for the roofline chart.
struct Roofs {
  double peak_gflops = 0;
  double peak_gbytes_per_s = 0;
  std::string source;  ///< Where the figures come from ("measured by kopt machine", a datasheet).
  /// GB/s of each data cache level ("L1", ...), innermost first: roofs above the DRAM one.
  std::vector<std::pair<std::string, double>> cache_gbytes_per_s = {};
  double peak_int_gops = 0;  ///< 32-bit integer GOP/s, where the machine model has it.
};

/// A status's colour on the charts (the promoted ones green).
const char* status_colour(const std::string& status, bool accepted);
/// A point's details for the tooltips: id, status, speedup with its interval, times, why.
Json point_detail(const std::string& id, const CandidateVerdict& verdict, const std::string& why);

/// A line through `points` ({x, y} objects), a reference the tooltips skip; dashed or not.
Json chart_line(const std::string& label, const std::string& colour, Json points, bool dashed);
/// A chart axis with its title, linear or logarithmic.
Json chart_axis(const std::string& title, bool log);

/// Every candidate against the original, the best so far, the original and human lines; the
/// candidates never timed are listed with their status at the chart's floor.
Json trajectory_chart(const RunView& view);

/// The original, the human version and each timed candidate at the benchmark's analytic
/// intensity, under the roofs (compute, DRAM, and each cache level's where measured); without
/// floating-point work, the bandwidth chart below; null without analytic bytes or roofs. A
/// point above the highest roof is flagged (above_roof), one above only the DRAM roof noted
/// (above_dram); the page names each point beside it, no two names overlapping.
Json roofline_chart(const RunView& view, const Roofs& roofs);

/// For a benchmark with bytes but no floating-point work (integer-only: kopt counts no integer
/// operations, so there is no intensity to place it at): each variant's achieved GB/s under the
/// memory roofs (DRAM and each cache level's), its note naming the roofs drawn and the integer
/// peak left out; null without bytes or a DRAM roof.
Json bandwidth_chart(const RunView& view, const Roofs& roofs);

/// The per-call times of the last head-to-head comparison (else the best's evaluation against
/// the original, else the last timed candidate's, else the human version's against the
/// original): every sample with its quartiles, per side; null when none was timed.
Json samples_chart(const RunView& view);

/// The scripts that draw `charts` (the library inlined, then chart_script's), or a paragraph
/// saying why there are no charts.
std::string chart_scripts(const Json& charts);

/// The chart library's text, from Debian's package; the Error names the package.
Result<std::string> chart_library();

/// The page's script: draws every <canvas data-chart=NAME> from `charts` (an object of the
/// charts above by name) and records any error in the page.
std::string chart_script(const Json& charts);

}  // namespace kopt
