#include "tools/predict/predict_tool.h"

#include "tools/eval/evaluator.h"
#include "tools/predict/gpu_predict.h"
#include "tools/predict/predict.h"
#include "tools/profile/profile_tool.h"

namespace kopt {

namespace {

class PredictTool : public Tool {
 public:
  std::string name() const override { return "predict"; }

  std::string description() const override {
    return "Predict how long one call of a kernel takes on this machine without running it: "
           "its static counts (instructions as compiled and vectorized here, floating-point "
           "dependence chains, divisions, math-library calls, compulsory bytes) times costs "
           "measured on this machine; names the resource that bounds it and the hardware's "
           "floor for the same work (how fast it could be).";
  }

  Json schema() const override {
    return {{"type", "object"},
            {"properties", {{"variant", variant_schema()}}},
            {"required", Json::array()}};
  }

  ToolResult call(const Json& args, ToolContext& context) override {
    LocalTarget target = local_target(args, context, "the prediction needs");
    if (target.refusal) return *target.refusal;
    const ExecutionContext& ctx = target.local->context();
    if (context.benchmark->language == Language::cuda) return call_gpu(ctx, target, context);
    auto machine = host_machine(ctx, MachineOptions{});
    if (!machine) return tool_error(machine.error().message);
    auto calibration = host_calibration(ctx, *machine);
    if (!calibration) return tool_error(calibration.error().message);
    auto prediction = predict_variant(ctx, *context.benchmark, target.variant, target.source, 0,
                                      *machine, *calibration);
    if (!prediction) return tool_error(prediction.error().message);
    ToolResult result;
    result.text = summarize(*prediction);
    result.data = to_json(*prediction);
    return result;
  }

 private:
  // A CUDA benchmark: the GPU this machine has (else the h100) and its calibration.
  static ToolResult call_gpu(const ExecutionContext& ctx, const LocalTarget& target,
                             ToolContext& context) {
    auto gpu = gpu_target(ctx, "", true);
    if (!gpu) return tool_error(gpu.error().message);
    auto prediction =
        predict_gpu_variant(ctx, *context.benchmark, target.variant, target.source, 0, *gpu);
    if (!prediction) return tool_error(prediction.error().message);
    ToolResult result;
    result.text = summarize(*prediction);
    result.data = to_json(*prediction);
    return result;
  }
};

}  // namespace

std::unique_ptr<Tool> make_predict_tool() {
  return std::make_unique<PredictTool>();
}

}  // namespace kopt
