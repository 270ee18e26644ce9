#include "agent/loop/verdict.h"

#include <regex>

#include <fmt/format.h>

#include "util/json.h"
#include "util/strings.h"

namespace kopt {

bool CandidateVerdict::correct() const {
  return verdict::is_correct(status);
}

CandidateVerdict read_verdict(const Json& e) {
  CandidateVerdict v;
  const Json verdict = e.value("verdict", Json::object());
  v.status = verdict.value("status", "error");
  v.category = verdict.value("category", "");
  v.reason = verdict.value("reason", "");
  const Json timing = e.value("timing", Json());
  if (timing.is_object() && timing.value("ok", false)) {
    v.speedup = timing.value("speedup", 0.0);
    v.ci_low = timing.value("ci_low", 0.0);
    v.ci_high = timing.value("ci_high", 0.0);
    v.p_value = timing.value("p_value", 1.0);
    v.candidate_ms = json_member(timing, "candidate").value("median", 0.0) * 1e3;
    v.original_ms = json_member(timing, "baseline").value("median", 0.0) * 1e3;
  }
  const Json placement = e.value("placement", Json());
  if (placement.is_object()) {
    v.gflops = json_member(placement, "candidate").value("gflops", 0.0);
    v.gbytes_per_s = json_member(placement, "candidate").value("gbytes_per_s", 0.0);
    v.original_gflops = json_member(placement, "baseline").value("gflops", 0.0);
    v.flops = placement.value("flops_per_call", 0.0);
    v.bytes = placement.value("bytes_per_call", 0.0);
  }
  const Json build = e.value("build", Json());
  if (build.is_object()) {
    v.remarks = build.value("remarks", "");
    if (!build.value("ok", true)) v.build_log = tail(build.value("log", ""), 3000);
  }
  return v;
}

std::string hide_seeds(const std::string& text) {
  static const std::regex seed(R"(seed \d+)");
  return std::regex_replace(text, seed, "a seed");
}

std::string feedback_text(const CandidateVerdict& v) {
  std::string text = "verdict: " + v.status;
  if (!v.category.empty()) text += " (" + v.category + ")";
  text += "\n";
  if (v.speedup > 0)
    text += fmt::format(
        "speedup over the original: {:.3f}x, CI [{:.3f}, {:.3f}], p = {:.2g}; {:.4g} ms vs "
        "{:.4g} ms\n",
        v.speedup, v.ci_low, v.ci_high, v.p_value, v.candidate_ms, v.original_ms);
  if (v.gflops > 0 || v.gbytes_per_s > 0)
    text += fmt::format("achieved: {:.3g} GFLOP/s, {:.3g} GB/s\n", v.gflops, v.gbytes_per_s);
  if (!v.reason.empty()) text += "reason: " + hide_seeds(v.reason) + "\n";
  if (!v.build_log.empty()) text += "compiler output:\n" + v.build_log + "\n";
  return text;
}

}  // namespace kopt
