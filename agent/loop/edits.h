// Search/replace edits of a kernel file: a model may hand in, instead of a whole file, blocks
//   <<<<<<< SEARCH
//   lines copied from the current kernel
//   =======
//   the lines that replace them
//   >>>>>>> REPLACE
// which kopt applies to the file the model was shown. Small models copy a whole file poorly
// (they drop includes, paste kernel.h, or reproduce the original unchanged) but manage a short
// edit; long files cost fewer tokens as edits.
#pragma once

#include <string>
#include <string_view>

#include "util/result.h"

namespace kopt {

/// `code` without the "  12| " prefixes of kopt's numbered listings, when every non-empty line
/// has one (models copy them from the listing they were shown); otherwise `code` unchanged.
std::string without_listing_numbers(const std::string& code);

/// Whether `text` holds at least one complete SEARCH/REPLACE block.
bool has_edit_blocks(std::string_view text);

/// Applies every block of `text` to `source`, in order. A SEARCH part must match one place of
/// the source exactly or, failing that, line by line with leading and trailing white space and
/// the "  12| " line numbers of kopt's listings ignored; no match, or more than one, is an Error
/// that quotes the block's first line.
Result<std::string> apply_edit_blocks(const std::string& source, std::string_view text);

}  // namespace kopt
