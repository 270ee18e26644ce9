// `kopt report`: one self-contained HTML page for a run: where and how it was made, every
// evaluation with its decision, the speedup trajectory, the timing samples, a roofline chart,
// the analyst's reasoning and each candidate's diff. The chart library is inlined: the page
// makes no request.
#pragma once

#include <optional>
#include <string>

#include "agent/report/charts.h"
#include "agent/report/run_view.h"

namespace kopt {

/// The report as HTML text.
std::string render_html_report(const RunView& view, const std::optional<Roofs>& roofs);

}  // namespace kopt
