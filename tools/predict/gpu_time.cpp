#include "tools/predict/gpu_time.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace kopt {

namespace {

// Special-function units per SM and clock (transcendentals, reciprocals): 16 on every SM since
// Volta (4 per partition).
constexpr double kSfuPerSmClock = 16;

double grid_blocks(const LaunchConfig& launch) {
  double blocks = 1;
  for (double g : launch.grid) blocks *= std::max(g, 1.0);
  return blocks;
}

double at_rate(double work, double rate) {
  return work > 0 && rate > 0 ? work / rate : 0.0;
}

std::string format_extent(const std::array<double, 3>& e) {
  std::string out = fmt::format("{:g}", e[0]);
  if (e[1] > 1 || e[2] > 1) out += fmt::format("x{:g}", std::max(e[1], 1.0));
  if (e[2] > 1) out += fmt::format("x{:g}", e[2]);
  return out;
}

Json terms_json(const GpuTerms& t) {
  return {{"fp32", t.fp32},       {"fp64", t.fp64},     {"int", t.int_ops},
          {"special", t.special}, {"memory", t.memory}, {"atomics", t.atomics}};
}

}  // namespace

GpuLaunchTime predict_gpu_launch(const GpuLaunchWork& work, const HardwareSpec& gpu,
                                 const GpuEfficiency& e) {
  GpuLaunchTime out;
  out.work = work;
  const double sms = std::max(gpu.sm_count, 1);
  out.busy = std::min(1.0, grid_blocks(work.launch) / sms);
  const Peaks& p = gpu.peaks;
  const double sfu_rate = sms * kSfuPerSmClock * gpu.clock_ghz * 1e9;
  GpuTerms& t = out.terms;
  t.fp32 = at_rate(work.fp32_flops, p.fp32 * e.fp32 * out.busy);
  t.fp64 = at_rate(work.fp64_flops, p.fp64 * e.fp64 * out.busy);
  t.int_ops = at_rate(work.int_ops, p.int_ops * e.int_ops * out.busy);
  t.special = at_rate(work.special_ops, sfu_rate * e.fp32 * out.busy);
  t.memory = at_rate(work.dram_bytes, p.dram_bandwidth * e.memory * out.busy);
  t.atomics = at_rate(work.global_atomics, e.atomics_per_second);
  const std::pair<const char*, double> bounds[] = {{"memory", t.memory},   {"fp32", t.fp32},
                                                   {"fp64", t.fp64},       {"int", t.int_ops},
                                                   {"special", t.special}, {"atomics", t.atomics}};
  const auto* top =
      std::max_element(std::begin(bounds), std::end(bounds),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  out.bound = top->first;
  out.seconds = top->second;
  return out;
}

GpuTimePrediction predict_gpu_call(const std::vector<GpuLaunchWork>& launches,
                                   const HardwareSpec& gpu, const GpuEfficiency& e,
                                   bool calibrated) {
  GpuTimePrediction p;
  p.hardware = gpu.name;
  p.calibrated = calibrated;
  double work = 0;
  const GpuLaunchTime* largest = nullptr;
  for (const auto& launch : launches) {
    p.launches.push_back(predict_gpu_launch(launch, gpu, e));
    work += p.launches.back().seconds;
  }
  for (const auto& l : p.launches)
    if (!largest || l.seconds > largest->seconds) largest = &l;
  if (!launches.empty())
    p.overhead_seconds =
        e.first_launch_seconds + static_cast<double>(launches.size() - 1) * e.next_launch_seconds;
  p.seconds = work + p.overhead_seconds;
  p.bound = largest && largest->seconds > p.overhead_seconds ? largest->bound : "launch overhead";
  for (const auto& l : p.launches)
    if (l.busy < 1)
      p.notes.push_back(
          fmt::format("{}: {:g} blocks keep {:.0f}% of the {} SMs busy; its peaks "
                      "are scaled by that",
                      l.work.kernel, grid_blocks(l.work.launch), 100 * l.busy, gpu.sm_count));
  if (!calibrated)
    p.notes.push_back(fmt::format(
        "uncalibrated: the default efficiencies (DRAM {:.0f}%, FP32 {:.0f}%, FP64 {:.0f}%, int "
        "{:.0f}% of the table's peaks, {:.2g} atomics/s, {:.1f} + {:.1f} us a launch); kopt "
        "machine --gpu measures them on the GPU",
        100 * e.memory, 100 * e.fp32, 100 * e.fp64, 100 * e.int_ops, e.atomics_per_second,
        e.first_launch_seconds * 1e6, e.next_launch_seconds * 1e6));
  return p;
}

Json to_json(const GpuTimePrediction& p) {
  Json launches = Json::array();
  for (const auto& l : p.launches)
    launches.push_back({{"kernel", l.work.kernel},
                        {"grid", l.work.launch.grid},
                        {"block", l.work.launch.block},
                        {"seconds", l.seconds},
                        {"bound", l.bound},
                        {"busy_sm_share", l.busy},
                        {"terms", terms_json(l.terms)},
                        {"work",
                         {{"fp32_flops", l.work.fp32_flops},
                          {"fp64_flops", l.work.fp64_flops},
                          {"int_ops", l.work.int_ops},
                          {"special_ops", l.work.special_ops},
                          {"dram_bytes", l.work.dram_bytes},
                          {"global_atomics", l.work.global_atomics}}}});
  return {{"seconds", p.seconds},
          {"bound", p.bound},
          {"hardware", p.hardware},
          {"calibrated", p.calibrated},
          {"overhead_seconds", p.overhead_seconds},
          {"launches", launches},
          {"notes", p.notes}};
}

std::string summarize_gpu(const GpuTimePrediction& p) {
  std::string out;
  for (const auto& l : p.launches) {
    const GpuTerms& t = l.terms;
    out += fmt::format(
        "  {} <<<{}, {}>>>: {:.4g} ms, {}-bound (ms: memory {:.3g} for {:.4g} MB, fp32 {:.3g}, "
        "fp64 {:.3g}, int {:.3g}, special {:.3g}, atomics {:.3g})\n",
        l.work.kernel, format_extent(l.work.launch.grid), format_extent(l.work.launch.block),
        l.seconds * 1e3, l.bound, t.memory * 1e3, l.work.dram_bytes / 1e6, t.fp32 * 1e3,
        t.fp64 * 1e3, t.int_ops * 1e3, t.special * 1e3, t.atomics * 1e3);
  }
  out += fmt::format("  launch overhead {:.3g} ms ({} launch{})\n", p.overhead_seconds * 1e3,
                     p.launches.size(), p.launches.size() == 1 ? "" : "es");
  for (const auto& note : p.notes) out += "  note: " + note + "\n";
  return out;
}

}  // namespace kopt
