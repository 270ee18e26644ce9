#include "agent/loop/state.h"

#include <cstdio>

#include <fmt/format.h>

#include "util/strings.h"

namespace kopt {

std::string candidate_id(int number) {
  return fmt::format("{:04d}", number);
}

std::string history_text(const LoopState& state) {
  if (state.attempts.empty()) return "(none yet)";
  std::string text;
  for (const auto& a : state.attempts) {
    text += fmt::format("- {} (iteration {}, from {}): {}", a.id, a.iteration, a.parent,
                        a.verdict.status);
    if (a.verdict.speedup > 0)
      text += fmt::format(", {:.2f}x [{:.2f}, {:.2f}]", a.verdict.speedup, a.verdict.ci_low,
                          a.verdict.ci_high);
    if (a.accepted) text += ", became the best";
    if (!a.accepted && a.verdict.correct() && !a.decision.empty())
      text += "; not kept: " + a.decision.substr(0, 300);
    if (!a.summary.empty()) text += "; change: " + a.summary;
    if (!a.verdict.correct() && !a.verdict.reason.empty())
      text += "; reason: " + hide_seeds(a.verdict.reason).substr(0, 300);
    text += "\n";
  }
  return text;
}

std::string measurements_text(const LoopState& s) {
  std::string text;
  if (s.best_id == "original") {
    text += fmt::format("The original takes {:.4g} ms per call.\n", s.reference.original_ms);
  } else {
    text += fmt::format(
        "{} takes {:.4g} ms per call: {:.3f}x over the original (CI [{:.3f}, {:.3f}]).\n",
        s.best_id, s.best.candidate_ms, s.best.speedup, s.best.ci_low, s.best.ci_high);
    if (s.best.gflops > 0 || s.best.gbytes_per_s > 0)
      text += fmt::format("Achieved {:.3g} GFLOP/s and {:.3g} GB/s.\n", s.best.gflops,
                          s.best.gbytes_per_s);
  }
  if (s.human.speedup > 0)
    text += fmt::format(
        "An expert's version reaches {:.2f}x over the original; aim to match or beat it.\n",
        s.human.speedup);
  return text;
}

}  // namespace kopt
