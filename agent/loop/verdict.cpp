#include "agent/loop/verdict.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "util/json.h"
#include "util/strings.h"

namespace kopt {

bool CandidateVerdict::correct() const {
  return verdict::is_correct(status);
}

namespace {

// The largest error of each output over every checked size, and the tolerance.
void read_errors(const Json& check, CandidateVerdict& v) {
  if (!check.is_object()) return;
  const Json tolerance = json_member(check, "tolerance");
  v.rtol = tolerance.value("rtol", 0.0);
  v.atol = tolerance.value("atol", 0.0);
  const Json cases = check.value("cases", Json::array());
  if (!cases.is_array()) return;
  for (const Json& c : cases) {
    const Json outputs = c.is_object() ? c.value("outputs", Json::array()) : Json::array();
    if (!outputs.is_array()) continue;
    for (const Json& o : outputs) {
      if (!o.is_object()) continue;
      const std::string name = o.value("name", "");
      auto it = std::find_if(v.errors.begin(), v.errors.end(),
                             [&](const OutputError& k) { return k.name == name; });
      if (it == v.errors.end()) it = v.errors.insert(v.errors.end(), OutputError{name});
      it->max_abs_error = std::max(it->max_abs_error, o.value("max_abs_error", 0.0));
      it->max_rel_error = std::max(it->max_rel_error, o.value("max_rel_error", 0.0));
      if (const Json used = o.value("tolerance_used", Json()); used.is_number())
        it->tolerance_used = std::max(it->tolerance_used, used.get<double>());
    }
  }
}

}  // namespace

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
  read_errors(e.value("check", Json()), v);
  v.original_remarks = json_text(e, "original_remarks");
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

std::string errors_text(const CandidateVerdict& v) {
  if (v.errors.empty()) return "";
  std::string text = fmt::format(
      "largest errors against the original (tolerance |got - want| <= "
      "{:.3g} + {:.3g} |want|):",
      v.atol, v.rtol);
  for (const auto& e : v.errors) {
    text += fmt::format(" {} abs {:.3g}, rel {:.3g}", e.name, e.max_abs_error, e.max_rel_error);
    // Where atol covers a small |want|, rel can exceed rtol in a passing array: say how much of
    // the combined tolerance the worst element used.
    if (e.tolerance_used >= 0)
      text += fmt::format(", {:.3g}% of the tolerance", 100 * e.tolerance_used);
    text += ";";
  }
  text.back() = '\n';
  return text;
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
  text += errors_text(v);
  if (!v.build_log.empty()) text += "compiler output:\n" + v.build_log + "\n";
  return text;
}

Json verdict_json(const std::string& id, const CandidateVerdict& v) {
  return {{"id", id},
          {"status", v.status},
          {"category", v.category},
          {"reason", v.reason},
          {"ms", v.candidate_ms},
          {"baseline_ms", v.original_ms},
          {"speedup", v.speedup},
          {"ci_low", v.ci_low},
          {"ci_high", v.ci_high},
          {"p_value", v.p_value},
          {"gflops", v.gflops},
          {"gbytes_per_s", v.gbytes_per_s}};
}

Json candidate_json(const std::string& id, const CandidateVerdict& v, const std::string& parent,
                    int iteration, bool accepted, const std::string& summary) {
  Json c = verdict_json(id, v);
  c["iteration"] = iteration;
  c["parent"] = parent;
  c["accepted"] = accepted;
  c["summary"] = summary;
  return c;
}

}  // namespace kopt
