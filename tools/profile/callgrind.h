// Reading callgrind's output format (uncompressed names and positions, "positions: line",
// "events: Ir") into kernel-line, place and function counts.
#pragma once

#include <string>

#include "tools/profile/profile_builder.h"

namespace kopt {

/// Attributes the instruction counts of a callgrind.out file. Costs in the kernel file go to
/// their lines; calls from kernel lines into other files or libraries add their inclusive cost
/// to the line as callees; everything else goes to the place of its object.
void attribute_callgrind(const std::string& text, const std::string& binary,
                         const std::string& kernel_file, ProfileBuilder& builder);

}  // namespace kopt
