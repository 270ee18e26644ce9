#include "tools/roofline/roofline_tool.h"

#include "tools/eval/evaluator.h"
#include "tools/profile/profile_tool.h"
#include "tools/roofline/roofline.h"

namespace kopt {

namespace {

class RooflineTool : public Tool {
 public:
  std::string name() const override { return "roofline"; }

  std::string description() const override {
    return "Place a kernel on the roofline: its double, single and integer arithmetic intensities "
           "against the machine's balance points, the class (compute-bound, bandwidth-bound, or "
           "latency-bound: bandwidth-bound by intensity but far below peak bandwidth), achieved "
           "fractions of peak and the headroom. method measured times the kernel (analytic work "
           "over measured time, or GPU counters); static reads the compiled code without running "
           "it.";
  }

  Json schema() const override {
    return {{"type", "object"},
            {"properties",
             {{"method",
               {{"type", "string"},
                {"enum", {"measured", "static"}},
                {"description", "default measured"}}},
              {"hardware",
               {{"type", "string"},
                {"description",
                 "host (default) or a GPU: rtx3080, a100, h100, h200 (static method for other "
                 "hardware)"}}},
              {"variant", variant_schema()}}},
            {"required", Json::array()}};
  }

  ToolResult call(const Json& args, ToolContext& context) override {
    LocalTarget target = local_target(args, context, "the roofline needs");
    if (target.refusal) return *target.refusal;
    RooflineRequest request;
    request.method = args.value("method", "measured");
    request.variant = target.variant;
    request.source = target.source;
    const std::string hardware = args.value("hardware", "host");
    LocalEvaluator* local = target.local;
    auto machine = roofline_machine(hardware, local->context());
    if (!machine) return tool_error(machine.error().message);
    auto report =
        classify_variant(*local, local->context(), *context.benchmark, request, *machine, hardware);
    if (!report) return tool_error(report.error().message);
    ToolResult result;
    result.text = summarize(*report);
    result.data = to_json(*report);
    return result;
  }
};

}  // namespace

std::unique_ptr<Tool> make_roofline_tool() {
  return std::make_unique<RooflineTool>();
}

}  // namespace kopt
