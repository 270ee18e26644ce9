// The compiler's remarks as the analyst reads them. g++ writes a remark for every loop and
// statement it tried, most about set-up code ("statement clobbers memory"); cut at a length,
// the remark about the loop that takes the time could be the one dropped. So the remarks about
// the profile's hot lines come first, hottest first, then the rest by line.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "util/json.h"

namespace kopt {

/// How many characters of remarks the analyst is shown at most.
inline constexpr size_t kRemarksBudget = 3000;

/// A kernel line and its share of the time.
using HotLine = std::pair<int, double>;

/// The kernel's source lines and their shares in a kopt-profile/1 document, hottest first.
std::vector<HotLine> hot_lines(const Json& profile);

/// `remarks` ("file:LINE:COL: optimized|missed: ..." a line) with those on `hot` lines first,
/// under a line giving the line's share, then the others in line order, within `budget`
/// characters; what did not fit is counted at the end.
std::string ranked_remarks(const std::string& remarks, const std::vector<HotLine>& hot,
                           size_t budget);

}  // namespace kopt
