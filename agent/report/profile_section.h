// The report's "where the time goes" section: the top profile lines of the original and of the
// run's best, as the run's own profile tool recorded them (the report runs nothing).
#pragma once

#include <string>

#include "agent/report/run_view.h"

namespace kopt {

/// The section's HTML (<h2 id=profiles>): per version, the profile's header line and its
/// hottest kernel lines, or a sentence saying it was never profiled and how to profile it.
std::string profiles_section(const RunView& view);

}  // namespace kopt
