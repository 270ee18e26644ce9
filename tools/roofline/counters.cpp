#include "tools/roofline/counters.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <nlohmann/json.hpp>

namespace kopt {

namespace {

double ratio(double work, double bytes) {
  if (work <= 0) return 0;
  if (bytes <= 0) return std::numeric_limits<double>::infinity();
  return work / bytes;
}

double fraction(double achieved, double peak) {
  return peak > 0 ? achieved / peak : 0;
}

// The kind whose intensity exceeds its balance point by the largest factor.
std::string dominant_kind(const Intensities& ai, const Intensities& balance) {
  const double sp = fraction(ai.fp32, balance.fp32), dp = fraction(ai.fp64, balance.fp64),
               in = fraction(ai.int_ops, balance.int_ops);
  if (sp >= dp && sp >= in) return "fp32";
  return dp >= in ? "fp64" : "int";
}

double achieved_of(const std::string& kind, const Intensities& rates) {
  return kind == "fp32" ? rates.fp32 : kind == "fp64" ? rates.fp64 : rates.int_ops;
}

double peak_of(const std::string& kind, const Peaks& peaks) {
  return kind == "fp32" ? peaks.fp32 : kind == "fp64" ? peaks.fp64 : peaks.int_ops;
}

void add_rates(RooflinePoint& p, const KernelCounters& c, const Peaks& peaks, double latency) {
  p.timed = true;
  p.achieved = {c.fp32_flops / c.seconds, c.fp64_flops / c.seconds, c.int_ops / c.seconds};
  p.bandwidth = c.dram_bytes / c.seconds;
  p.bandwidth_fraction = fraction(p.bandwidth, peaks.dram_bandwidth);
  p.compute_fraction =
      std::max({fraction(p.achieved.fp32, peaks.fp32), fraction(p.achieved.fp64, peaks.fp64),
                fraction(p.achieved.int_ops, peaks.int_ops)});
  if (p.by_intensity == BoundClass::compute) {
    const double rate = achieved_of(p.limiting_kind, p.achieved);
    p.headroom = rate > 0 ? peak_of(p.limiting_kind, peaks) / rate : 0;
    return;
  }
  p.headroom = p.bandwidth > 0 ? 1 / p.bandwidth_fraction : 0;
  if (p.bandwidth_fraction < latency) p.cls = BoundClass::latency;
}

}  // namespace

std::string to_string(BoundClass cls) {
  switch (cls) {
    case BoundClass::compute:
      return "compute-bound";
    case BoundClass::bandwidth:
      return "bandwidth-bound";
    case BoundClass::latency:
      return "latency-bound";
  }
  return "unknown";
}

bool parse_bound_class(const std::string& text, BoundClass& cls) {
  std::string word;
  for (char ch : text) word += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (word.starts_with("compute"))
    cls = BoundClass::compute;
  else if (word.starts_with("bandwidth") || word.starts_with("memory"))
    cls = BoundClass::bandwidth;
  else if (word.starts_with("latency"))
    cls = BoundClass::latency;
  else
    return false;
  return true;
}

Intensities intensities(const KernelCounters& c) {
  return {ratio(c.fp32_flops, c.dram_bytes), ratio(c.fp64_flops, c.dram_bytes),
          ratio(c.int_ops, c.dram_bytes)};
}

Intensities balance_points(const Peaks& p) {
  return {ratio(p.fp32, p.dram_bandwidth), ratio(p.fp64, p.dram_bandwidth),
          ratio(p.int_ops, p.dram_bandwidth)};
}

BoundClass paper_class(const Intensities& ai, const Intensities& balance) {
  const bool below =
      ai.fp32 < balance.fp32 && ai.fp64 < balance.fp64 && ai.int_ops < balance.int_ops;
  return below ? BoundClass::bandwidth : BoundClass::compute;
}

RooflinePoint place(const KernelCounters& counters, const Peaks& peaks, double latency_fraction) {
  RooflinePoint p;
  p.kernel = counters.kernel;
  p.intensity = intensities(counters);
  p.balance = balance_points(peaks);
  p.by_intensity = paper_class(p.intensity, p.balance);
  p.cls = p.by_intensity;
  p.limiting_kind =
      p.by_intensity == BoundClass::compute ? dominant_kind(p.intensity, p.balance) : "dram";
  if (counters.seconds > 0) add_rates(p, counters, peaks, latency_fraction);
  return p;
}

Json to_json(const KernelCounters& c) {
  return {{"kernel", c.kernel},         {"seconds", c.seconds},       {"dram_bytes", c.dram_bytes},
          {"fp32_flops", c.fp32_flops}, {"fp64_flops", c.fp64_flops}, {"int_ops", c.int_ops}};
}

Json to_json(const Peaks& p) {
  Json out = {{"name", p.name},
              {"fp32", p.fp32},
              {"fp64", p.fp64},
              {"int", p.int_ops},
              {"dram_bandwidth", p.dram_bandwidth}};
  if (!p.cache_bandwidth.empty()) {
    out["cache_bandwidth"] = Json::array();
    for (const auto& [level, rate] : p.cache_bandwidth)
      out["cache_bandwidth"].push_back({{"level", level}, {"bandwidth", rate}});
  }
  return out;
}

Json to_json(const Intensities& i) {
  return {{"fp32", i.fp32}, {"fp64", i.fp64}, {"int", i.int_ops}};
}

Json to_json(const RooflinePoint& p) {
  Json j = {{"kernel", p.kernel},
            {"intensity", to_json(p.intensity)},
            {"balance", to_json(p.balance)},
            {"class_by_intensity", to_string(p.by_intensity)},
            {"class", to_string(p.cls)},
            {"limiting", p.limiting_kind}};
  if (p.timed) {
    j["achieved"] = to_json(p.achieved);
    j["bandwidth"] = p.bandwidth;
    j["bandwidth_fraction"] = p.bandwidth_fraction;
    j["compute_fraction"] = p.compute_fraction;
    j["headroom"] = p.headroom;
  }
  return j;
}

}  // namespace kopt
