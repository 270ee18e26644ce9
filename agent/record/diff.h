// Unified diffs between kernel files, as people and models read them.
#pragma once

#include <string>

namespace kopt {

/// A unified diff of `before` and `after` with "--- a/NAME" / "+++ b/NAME" headers; empty when
/// the texts are equal.
std::string unified_diff(const std::string& before, const std::string& after,
                         const std::string& name_before, const std::string& name_after);

}  // namespace kopt
