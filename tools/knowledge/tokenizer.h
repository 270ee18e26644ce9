// Turns note text and queries into search terms: lowercase words of letters, digits and '_',
// with C and CUDA identifiers kept whole (`__restrict__` -> "restrict", `float4`,
// `__shfl_down_sync` -> "shfl_down_sync" plus its parts), common words dropped, and a tiny
// suffix stripping so "hoisting", "hoisted" and "hoist" meet.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kopt {

/// The search terms of `text`, in order, repeats kept.
std::vector<std::string> tokenize(std::string_view text);

/// The stem of one lowercase word ("caches" -> "cach", "tiling" -> "til"); words holding
/// digits or '_' and words under four letters are returned as they are.
std::string stem(std::string_view word);

/// True for words too common to rank by ("the", "with", "when").
bool is_stop_word(std::string_view word);

}  // namespace kopt
