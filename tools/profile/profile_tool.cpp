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
         {{"variant",
           {{"type", "string"},
            {"enum", {"current", "original"}},
            {"description",
             "current: the best kernel so far (default); original: the starting kernel"}}},
          {"top", {{"type", "integer"}, {"description", "How many lines to list (default 8)"}}}}},
        {"required", Json::array()}};
  }

  ToolResult call(const Json& args, ToolContext& context) override {
    if (!context.benchmark) return tool_error("no benchmark in this context");
    auto* local = dynamic_cast<LocalEvaluator*>(context.executor);
    if (!local)
      return tool_error("profiling needs the local evaluator (this run evaluates elsewhere)");
    const std::string variant = args.value("variant", "current");
    const std::string source = tool_variant_source(variant, context);
    if (source.empty()) return tool_error("variant must be current or original");
    const int top = std::clamp(args.value("top", 8), 1, 30);
    ProfileOutcome outcome = profile_variant(*local, local->context(), *context.benchmark, source,
                                             variant, CpuProfileOptions{}, top);
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
  if (variant == "current" || variant == "original") {
    auto text = read_file(context.benchmark->kernel_path());
    return text ? *text : std::string();
  }
  return {};
}

std::unique_ptr<Tool> make_profile_tool() {
  return std::make_unique<ProfileTool>();
}

}  // namespace kopt
