// `kopt report`: one self-contained HTML page for a run: the speedup trajectory, a roofline
// chart with the original, the human version and every candidate, the analyst's reasoning,
// and each candidate's diff. No scripts, no external resources.
#pragma once

#include <optional>
#include <string>

#include "agent/report/run_view.h"

namespace kopt {

/// The machine's ceilings for the roofline chart.
struct Roofs {
  double peak_gflops = 0;
  double peak_gbytes_per_s = 0;
  std::string source;  ///< Where the figures come from ("measured by kopt machine", a datasheet).
};

/// The report as HTML text.
std::string render_html_report(const RunView& view, const std::optional<Roofs>& roofs);

}  // namespace kopt
