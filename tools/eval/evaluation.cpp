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

void set_verdict(Evaluation& e, const char* status, std::string category, std::string reason) {
  e.status = status;
  e.category = std::move(category);
  e.reason = std::move(reason);
}

void judge_timing(Evaluation& e) {
  const TimingOutcome& t = *e.timing;
  if (!t.ok) {
    set_verdict(e, t.baseline_failed ? verdict::kError : verdict::kIncorrect, t.category, t.reason);
  } else if (t.significant && t.interval.low > 1) {
    set_verdict(e, verdict::kFaster, "", "a significant win over the " + e.baseline);
  } else if (t.significant && t.interval.high < 1) {
    set_verdict(e, verdict::kSlower, "", "significantly slower than the " + e.baseline);
  } else if (t.within_floor) {
    set_verdict(e, verdict::kNotFaster, "",
                fmt::format("no significant difference from the {}: {:.3f}x, but its interval "
                            "[{:.3f}, {:.3f}] reaches into the {:.0f}% by which two processes of "
                            "one binary can differ",
                            e.baseline, t.interval.speedup, t.interval.low, t.interval.high,
                            t.process_floor * 100));
  } else {
    set_verdict(e, verdict::kNotFaster, "", "no significant difference from the " + e.baseline);
  }
}

std::string now_iso8601() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

Json to_json(const ProgramRecord& p) {
  return {{"build_command", p.build},
          {"run_command", p.run},
          {"pass_regex", p.pass_regex},
          {"compare", p.compare},
          {"runs_checked", p.runs_checked},
          {"time_basis", "wall time of each run, measured by kopt outside the program"},
          {"region",
           {{"regex", p.region_regex},
            {"trusted", false},
            {"baseline_seconds", p.baseline_region},
            {"candidate_seconds", p.candidate_region},
            {"speedup", p.region_speedup},
            {"candidate_over_wall", p.region_over_wall}}},
          {"original_output", p.original_output},
          {"candidate_output", p.candidate_output}};
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
  doc["verdict_strength"] = e.verdict_strength;
  if (e.program) doc["program"] = to_json(*e.program);
  return doc;
}

namespace {

// What a program verdict adds to its line: the caveat, and when nothing but the program's own
// PASS line judged it, that code in an editable file can print that line.
std::string program_caveat(const Evaluation& e) {
  if (e.verdict_strength != strength::kProgram) return "";
  std::string caveat = std::string("; ") + kProgramCaveat;
  if (e.program && e.program->compare.empty())
    caveat +=
        "; checked by its PASS line alone, which an editable file's code can print "
        "(a compare command against the original's output would check what it computed)";
  return caveat;
}

}  // namespace

std::string one_line(const Evaluation& e) {
  if (e.timing && e.correct()) {
    const auto& t = *e.timing;
    return fmt::format(
        "{}: {:.3g}x [{:.3g}, {:.3g}] over the {} (p={:.2g}; {:.4g} ms vs {:.4g} ms){}", e.status,
        t.interval.speedup, t.interval.low, t.interval.high, e.baseline, t.p_value,
        t.candidate_spread.median * 1e3, t.baseline_spread.median * 1e3, program_caveat(e));
  }
  if (e.category.empty()) return e.status + ": " + e.reason;
  return e.status + " (" + e.category + "): " + e.reason;
}

}  // namespace kopt
