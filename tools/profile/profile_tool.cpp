#include "tools/profile/profile_tool.h"

#include "tools/eval/evaluator.h"
#include "tools/profile/profile_request.h"
#include "util/files.h"

namespace kopt {

namespace {

class ProfileTool : public Tool {
 public:
  std::string name() const override { return "profile"; }

  std::string description() const override {
    return "Profile a kernel at the benchmark's timing size and rank the lines of the kernel file "
           "by "
           "the time spent in them (CPU: perf sampling, time in called library functions such as "
           "exp "
           "counted on the calling line; CUDA: PC sampling with stall reasons). Also gives the "
           "share "
           "spent outside the kernel (libm, OpenMP runtime, harness). Use it to find where the "
           "time "
           "goes before choosing an optimization.";
  }

  Json schema() const override {
    return {
        {"type", "object"},
        {"properties",
         {{"variant", variant_schema()},
          {"top", {{"type", "integer"}, {"description", "How many lines to list (default 8)"}}}}},
        {"required", Json::array()}};
  }

  ToolResult call(const Json& args, ToolContext& context) override {
    LocalTarget target = local_target(args, context, "profiling needs");
    if (target.refusal) return *target.refusal;
    const int top = std::clamp(args.value("top", 8), 1, 30);
    ProfileOutcome outcome =
        profile_variant(*target.local, target.local->context(), *context.benchmark, target.source,
                        target.variant, CpuProfileOptions{}, top);
    ToolResult result;
    result.ok = outcome.ok;
    result.text = outcome.text;
    result.data = std::move(outcome.data);
    return result;
  }
};

}  // namespace

std::string tool_variant_source(const std::string& variant, const ToolContext& context) {
  if (variant == "current" && !context.current_source.empty()) return context.current_source;
  if (auto it = context.candidates.find(variant); it != context.candidates.end()) return it->second;
  if (variant == "current" || variant == "original") {
    auto text = original_source(*context.benchmark);
    return text ? *text : std::string();
  }
  return {};
}

Json variant_schema() {
  return {{"type", "string"},
          {"pattern", "^(current|original|[0-9]+)$"},
          {"description",
           "current: the best kernel so far (default); original: the starting kernel; or the id "
           "of a correct candidate, such as 0003"}};
}

LocalTarget local_target(const Json& args, const ToolContext& context, const std::string& needs) {
  LocalTarget target;
  if (!context.benchmark) {
    target.refusal = tool_error("no benchmark in this context");
  } else if (context.benchmark->is_program()) {
    target.refusal = tool_error(kNoProgramEvidence);
  } else if (!(target.local = dynamic_cast<LocalEvaluator*>(context.executor))) {
    target.refusal = tool_error(needs + " the local evaluator (this run evaluates elsewhere)");
  } else {
    target.variant = args.value("variant", "current");
    target.source = tool_variant_source(target.variant, context);
    if (target.source.empty()) target.refusal = unknown_variant(target.variant, context);
  }
  return target;
}

ToolResult unknown_variant(const std::string& variant, const ToolContext& context) {
  std::string known = "current, original";
  for (const auto& [id, source] : context.candidates) known += ", " + id;
  return tool_error("no variant '" + variant + "': choose one of " + known);
}

std::unique_ptr<Tool> make_profile_tool() {
  return std::make_unique<ProfileTool>();
}

}  // namespace kopt
