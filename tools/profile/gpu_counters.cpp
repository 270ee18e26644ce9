#include "tools/profile/gpu_counters.h"

#include <nlohmann/json.hpp>

#include "tools/eval/static_check.h"
#include "tools/profile/gpu_format.h"
#include "tools/profile/gpu_samples.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

// A count the header may hold; 0 for anything but a non-negative integer (a float past
// uint64's range converted would be undefined behaviour).
uint64_t count_at(const Json& header, const char* key) {
  const Json& value = json_member(header, key);
  if (value.is_number_unsigned()) return value.get<uint64_t>();
  if (value.is_number_integer() && value.get<int64_t>() > 0)
    return static_cast<uint64_t>(value.get<int64_t>());
  return 0;
}

void parse_header(const Json& header, GpuCounterData& data) {
  data.chip = header.value("chip", "");
  data.passes = count_at(header, "passes");
  data.ranges_dropped = count_at(header, "ranges_dropped");
  for (const auto& warning : json_member(header, "warnings"))
    data.warnings.push_back(warning.get<std::string>());
}

GpuLaunchCounters parse_launch(const Json& line) {
  GpuLaunchCounters launch;
  launch.kernel = line.value("kernel", "");
  if (launch.kernel.empty()) launch.kernel = line.value("name", "");
  for (const auto& [name, value] : line.at("metrics").items())
    launch.metrics[name] = value.is_number() ? value.get<double>() : 0.0;
  return launch;
}

double metric(const GpuLaunchCounters& launch, const char* name) {
  auto it = launch.metrics.find(name);
  return it == launch.metrics.end() ? 0.0 : it->second;
}

}  // namespace

Result<GpuCounterData> read_gpu_counters(const fs::path& folder) {
  const fs::path path = folder / gpu_format::kCountersFile;
  auto text = read_file(path);
  if (!text)
    return fail(injection_started(folder)
                    ? "the injection library wrote no counters (no CUDA context, or the program "
                      "ended without running its exit handlers)"
                    : "the injection library was not loaded (CUDA ignored " +
                          std::string(gpu_format::kInjectionVariable) + ")");
  GpuCounterData data;
  const std::vector<std::string> lines = split(*text, '\n');
  if (lines.empty() || trim(lines[0]).empty()) return fail(path.string() + " is empty");
  for (size_t i = 0; i < lines.size(); ++i) {
    if (trim(lines[i]).empty()) continue;
    const std::string where = path.string() + " line " + std::to_string(i + 1);
    auto line = parse_json(lines[i], where);
    if (!line) return line.error();
    try {
      if (i > 0) {
        data.launches.push_back(parse_launch(*line));
      } else if (line->value("format", "") != gpu_format::kCountersFormat) {
        return fail(path.string() + " is not " + gpu_format::kCountersFormat);
      } else {
        parse_header(*line, data);
      }
    } catch (const nlohmann::json::exception& e) {
      return fail(where + " is malformed: " + e.what());
    }
  }
  return data;
}

std::vector<GpuKernelCounters> per_kernel(const GpuCounterData& data) {
  std::vector<GpuKernelCounters> kernels;
  std::map<std::string, size_t> index;
  for (const auto& launch : data.launches) {
    const std::string name = demangle(launch.kernel);
    auto [it, added] = index.emplace(name, kernels.size());
    if (added) kernels.emplace_back().kernel = name;
    GpuKernelCounters& k = kernels[it->second];
    ++k.launches;
    k.fadd += metric(launch, gpu_format::kMetricFadd);
    k.fmul += metric(launch, gpu_format::kMetricFmul);
    k.ffma += metric(launch, gpu_format::kMetricFfma);
    k.dadd += metric(launch, gpu_format::kMetricDadd);
    k.dmul += metric(launch, gpu_format::kMetricDmul);
    k.dfma += metric(launch, gpu_format::kMetricDfma);
    k.integer += metric(launch, gpu_format::kMetricInteger);
    k.dram_bytes += metric(launch, gpu_format::kMetricDramBytes);
    k.duration_ns += metric(launch, gpu_format::kMetricDuration);
  }
  return kernels;
}

KernelCounters to_kernel_counters(const GpuKernelCounters& kernel) {
  const double launches = kernel.launches > 0 ? kernel.launches : 1;
  KernelCounters counters;
  counters.kernel = kernel.kernel;
  counters.seconds = kernel.duration_ns * 1e-9 / launches;
  counters.dram_bytes = kernel.dram_bytes / launches;
  counters.fp32_flops = kernel.fp32_flops() / launches;
  counters.fp64_flops = kernel.fp64_flops() / launches;
  counters.int_ops = kernel.integer / launches;
  return counters;
}

Json to_json(const std::vector<GpuKernelCounters>& kernels) {
  Json list = Json::array();
  for (const auto& k : kernels)
    list.push_back(
        {{"kernel", k.kernel},
         {"launches", k.launches},
         {"fp32", {{"add", k.fadd}, {"mul", k.fmul}, {"fma", k.ffma}, {"flops", k.fp32_flops()}}},
         {"fp64", {{"add", k.dadd}, {"mul", k.dmul}, {"fma", k.dfma}, {"flops", k.fp64_flops()}}},
         {"integer_instructions", k.integer},
         {"dram_bytes", k.dram_bytes},
         {"duration_ns", k.duration_ns}});
  return list;
}

}  // namespace kopt
