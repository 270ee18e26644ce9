// A campaign's results, read from its index lines (one per run, the latest of each cell): per
// benchmark x model x strategy over its seeds, and per model x strategy over its benchmarks.
// `kopt compare` prints it; `kopt report DIR` draws it.
#pragma once

#include <vector>

#include "util/json.h"

namespace kopt {

/// The format tag of the comparison.
inline constexpr const char* kCompareFormat = "kopt-compare/1";

/// {"format", "rows": [per benchmark x model x strategy], "models": [per model x strategy]}.
/// Each row has its runs (seed, run folder, status, best speedup) under "seeds".
Json compare_campaign(const std::vector<Json>& latest_index_lines);

}  // namespace kopt
