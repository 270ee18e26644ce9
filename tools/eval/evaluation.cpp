#include "tools/eval/evaluation.h"

#include <ctime>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

namespace kopt {

bool verdict::is_correct(std::string_view status) {
  return status == kFaster || status == kNotFaster || status == kSlower || status == kCorrect;
}

bool Evaluation::correct() const {
  return verdict::is_correct(status);
}

std::string now_iso8601() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

Json to_json(const Evaluation& e) {
  Json doc = {{"format", "kopt-evaluation/1"},
              {"benchmark", {{"name", e.benchmark}, {"hash", e.benchmark_hash}}},
              {"candidate", {{"label", e.label}, {"source_hash", e.source_hash}}},
              {"baseline", e.baseline},
              {"verdict", {{"status", e.status}, {"category", e.category}, {"reason", e.reason}}},
              {"seeds", {{"check", e.check_seeds}, {"timing", e.timing_seed}}},
              {"build", to_json(e.build)},
              {"original_remarks", e.original_remarks},
              {"sandbox", e.sandbox},
              {"environment", e.environment},
              {"started", e.started},
              {"seconds", e.seconds}};
  doc["check"] = e.check ? to_json(*e.check) : Json();
  doc["timing"] = e.timing ? to_json(*e.timing) : Json();
  if (e.placement) {
    const Placement& p = *e.placement;
    doc["placement"] = {
        {"flops_per_call", p.flops},
        {"bytes_per_call", p.bytes},
        {"baseline", {{"gflops", p.baseline_gflops}, {"gbytes_per_s", p.baseline_gbytes}}},
        {"candidate", {{"gflops", p.candidate_gflops}, {"gbytes_per_s", p.candidate_gbytes}}}};
  }
  doc["plausibility"] = e.plausibility ? to_json(*e.plausibility) : Json();
  return doc;
}

std::string one_line(const Evaluation& e) {
  if (e.timing && e.correct()) {
    const auto& t = *e.timing;
    return fmt::format(
        "{}: {:.3g}x [{:.3g}, {:.3g}] over the {} (p={:.2g}; {:.4g} ms vs {:.4g} ms)", e.status,
        t.interval.speedup, t.interval.low, t.interval.high, e.baseline, t.p_value,
        t.candidate_spread.median * 1e3, t.baseline_spread.median * 1e3);
  }
  if (e.category.empty()) return e.status + ": " + e.reason;
  return e.status + " (" + e.category + "): " + e.reason;
}

}  // namespace kopt
