// The loop's `roofline` tool: classifies the current kernel (or the original) as compute-,
// bandwidth- or latency-bound on this host or a GPU of the hardware table, with its
// intensities, the balance points and the headroom to the roof.
#pragma once

#include <memory>

#include "tools/registry/tool.h"

namespace kopt {

/// The roofline tool (methods measured and static; the llm method is not offered to the loop).
std::unique_ptr<Tool> make_roofline_tool();

}  // namespace kopt
