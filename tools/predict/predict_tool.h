// The loop's `predict` tool: "how fast could this be?" The predicted time of one call of the
// current kernel (or the original, or a candidate) on this host from its static counts and the
// calibrated costs, which resource bounds it, and the hardware's floor for the same work.
#pragma once

#include <memory>

#include "tools/registry/tool.h"

namespace kopt {

std::unique_ptr<Tool> make_predict_tool();

}  // namespace kopt
