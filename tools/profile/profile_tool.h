// The loop's `profile` tool: profiles the current kernel (or the original) and answers with
// the hottest kernel lines, their code and share, and the share outside the kernel.
#pragma once

#include <memory>

#include "tools/registry/tool.h"

namespace kopt {

/// The profile tool (perf or callgrind on the CPU, CUPTI PC sampling on a GPU).
std::unique_ptr<Tool> make_profile_tool();

/// The kernel text a tool call names: "current" (the best so far), "original", or a correct
/// candidate's id ("0003"); the human version is never offered. Empty when the name is unknown.
std::string tool_variant_source(const std::string& variant, const ToolContext& context);

/// The schema of a tool's "variant" argument (what tool_variant_source accepts).
Json variant_schema();

/// The error for a variant tool_variant_source does not know, naming those it does.
ToolResult unknown_variant(const std::string& variant, const ToolContext& context);

}  // namespace kopt
