#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "agent/cli/commands.h"
#include "agent/cli/eval_support.h"
#include "agent/cli/status_line.h"
#include "tools/machine/hardware.h"
#include "tools/machine/machine.h"
#include "tools/predict/gpu_calibration.h"
#include "util/json.h"

namespace kopt::cli {

namespace {

void print_hardware(const HardwareSpec& spec) {
  const Intensities b = balance_points(spec.peaks);
  fmt::print("{}: {}\n", spec.name, spec.full_name);
  fmt::print("  fp32 {:.3g} TFLOP/s, fp64 {:.3g} TFLOP/s, int32 {:.3g} TOP/s, DRAM {:.4g} GB/s\n",
             spec.peaks.fp32 / 1e12, spec.peaks.fp64 / 1e12, spec.peaks.int_ops / 1e12,
             spec.peaks.dram_bandwidth / 1e9);
  fmt::print("  {} SMs at {} GHz, L2 {:.0f} MiB; balance fp32 {:.2f}, fp64 {:.3f}, int {:.2f}\n",
             spec.sm_count, spec.clock_ghz, spec.l2_bytes / (1 << 20), b.fp32, b.fp64, b.int_ops);
  for (const auto& [figure, source] : spec.sources) fmt::print("  {:<15} {}\n", figure, source);
}

int show_table(const Args& args) {
  auto table = load_hardware_table(default_hardware_table());
  if (!table) throw UsageError{table.error().message};
  const std::string wanted = args.get("hardware");
  std::string only;  // The table's name for the one wanted, or empty for all.
  if (wanted != "all") {
    auto one = find_hardware(wanted);
    if (!one) throw UsageError{one.error().message};
    only = one->name;
  }
  Json docs = Json::array();
  for (const auto& spec : *table) {
    if (!only.empty() && spec.name != only) continue;
    if (args.flag("json"))
      docs.push_back(to_json(spec));
    else
      print_hardware(spec);
  }
  if (args.flag("json")) std::cout << dump_json(docs, 2) << "\n";
  return 0;
}

// `kopt machine --gpu`: the GPU time model's sweep on this machine's GPU (cached).
int calibrate_gpu(const Args& args) {
  EvaluatorSession session(args);
  StatusLine status;
  status.update("kopt machine --gpu: the GPU sweep (under 30 s, once per GPU and driver)...");
  auto calibration = gpu_calibration(session.evaluator().context(), args.flag("refresh"));
  status.clear();
  if (!calibration) {
    fmt::print(stderr, "kopt machine --gpu: {}\n", calibration.error().message);
    return 3;
  }
  if (args.flag("json"))
    std::cout << dump_json(to_json(*calibration), 2) << "\n";
  else
    fmt::print("{}", describe(*calibration));
  return 0;
}

int run_machine(const Args& args) {
  if (args.has("hardware")) return show_table(args);
  if (args.flag("gpu")) return calibrate_gpu(args);
  EvaluatorSession session(args);
  MachineOptions options;
  options.refresh = args.flag("refresh");
  StatusLine status;
  auto model = host_machine(session.evaluator().context(), options, [&](const std::string& step) {
    status.update("kopt machine: " + step + "...");
  });
  status.clear();
  if (!model) {
    fmt::print(stderr, "kopt machine: {}\n", model.error().message);
    return 3;
  }
  if (args.flag("json"))
    std::cout << dump_json(to_json(*model), 2) << "\n";
  else
    fmt::print("{}", describe(*model));
  return 0;
}

}  // namespace

CommandSpec machine_command() {
  std::vector<OptionSpec> options = {
      {"--refresh", "Measure again instead of using the cached model", "", true},
      {"--json", "Print the kopt-machine/1 document (--gpu: kopt-gpu-calibration/1)", "", true},
      {"--gpu",
       "Measure this machine's GPU for kopt predict's CUDA time model: DRAM, FP32, FP64, int and "
       "atomic rates and launch overheads (cached per GPU and driver)",
       "", true},
      {"--hardware", "Show a GPU of the hardware table with the source of each figure (or 'all')"}};
  for (auto& o : evaluator_options()) options.push_back(o);
  return {"machine",
          "Measure this host's memory bandwidth and peak FLOP/s for the roofline (cached)", options,
          run_machine};
}

}  // namespace kopt::cli
