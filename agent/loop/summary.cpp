#include <nlohmann/json.hpp>

#include "agent/loop/orchestrator.h"

namespace kopt {

Json make_summary(const Benchmark& bench, const RunOutcome& outcome,
                  const llm::UsageLedger& ledger) {
  const LoopState& s = outcome.state;
  Json candidates = Json::array();
  for (const auto& a : s.attempts)
    candidates.push_back(
        candidate_json(a.id, a.verdict, a.parent, a.iteration, a.accepted, a.summary));
  Json best = s.best_id == "original"
                  ? Json{{"id", "original"}, {"speedup", 1.0}, {"ms", s.reference.original_ms}}
                  : verdict_json(s.best_id, s.best);
  const double human_speedup = s.human.speedup;
  const double best_speedup = best.value("speedup", 1.0);
  const llm::Usage tokens = ledger.total();
  Json versus_human;
  if (s.versus_human) versus_human = verdict_json(s.best_id + " vs human", *s.versus_human);
  return {{"benchmark", bench.name},
          {"original", {{"ms", s.reference.original_ms}}},
          {"human", s.human.status.empty() ? Json() : verdict_json("human", s.human)},
          {"best", best},
          {"fraction_of_human_speedup",
           human_speedup > 0 ? Json(best_speedup / human_speedup) : Json()},
          {"versus_human", versus_human},
          {"candidates", candidates},
          {"stop", {{"rule", outcome.rule}, {"reason", outcome.reason}}},
          {"usage",
           {{"input_tokens", tokens.input_tokens},
            {"output_tokens", tokens.output_tokens},
            {"tokens_estimated", tokens.estimated},
            {"cost_usd", ledger.cost_usd()},
            {"calls", ledger.calls().size()}}}};
}

}  // namespace kopt
