// The loop's `profile` tool: profiles the current kernel (or the original) and answers with
// the hottest kernel lines, their code and share, and the share outside the kernel.
#pragma once

#include <memory>
#include <optional>

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

class LocalEvaluator;

/// What a tool that runs or compiles a variant on this host (profile, roofline, predict) reads
/// from its call: the local evaluator and the variant named by "variant" (default "current").
struct LocalTarget {
  LocalEvaluator* local = nullptr;
  std::string variant;
  std::string source;
  std::optional<ToolResult> refusal;  ///< Set when the tool cannot run: its answer.
};

/// The target of a call, or the refusal: no benchmark, a whole program, another executor
/// ("`needs` the local evaluator ..."), an unknown variant.
LocalTarget local_target(const Json& args, const ToolContext& context, const std::string& needs);

}  // namespace kopt
