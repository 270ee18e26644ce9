#include "agent/loop/orchestrator.h"

#include <gtest/gtest.h>

#include "loop_harness.h"
#include "util/strings.h"

namespace kopt {

namespace {

using test::call;
using test::is_analyst;
using test::kernel;
using test::LoopHarness;
using test::submit;
using test::text;

// A model whose analyst always gives a plan and whose optimizer submits the next source.
test::ScriptedBackend::Script submitting(std::vector<std::string> sources) {
  auto next = std::make_shared<size_t>(0);
  return [sources, next](const llm::ChatRequest& r) {
    if (is_analyst(r)) return text("Diagnosis: line 9.\nPlan:\n1. Hoist.");
    const std::string source = sources[std::min(*next, sources.size() - 1)];
    ++*next;
    return submit(source);
  };
}

RunConfig config(int iterations) {
  RunConfig c;
  c.benchmark = "licm";
  c.iterations = iterations;
  c.patience = 10;
  return c;
}

}  // namespace

TEST(OrchestratorTest, KeepsTheSignificantlyFasterCandidate) {
  LoopHarness loop(submitting({kernel("// FAST 2.0")}), config(1));
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(outcome->state.best_id, "0001");
  EXPECT_EQ(outcome->rule, "iterations");
  ASSERT_EQ(loop.events("decision").size(), 1u);
  EXPECT_TRUE(loop.events("decision")[0]["accepted"].get<bool>());
  EXPECT_EQ(outcome->summary["best"]["speedup"], 2.0);
}

TEST(OrchestratorTest, RejectedCandidateIsRepairedWithItsFeedback) {
  LoopHarness loop(submitting({kernel("// WRONG"), kernel("// FAST 1.5")}), config(1));
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  ASSERT_EQ(outcome->state.attempts.size(), 2u);
  EXPECT_EQ(outcome->state.attempts[0].verdict.status, "incorrect");
  EXPECT_EQ(outcome->state.attempts[1].summary.rfind("repair of 0001", 0), 0u);
  EXPECT_EQ(outcome->state.best_id, "0002");
  bool feedback_sent = false;
  for (const auto& e : loop.events("model_call"))
    for (const auto& m : e["request"]["messages"])
      feedback_sent =
          feedback_sent || m.value("content", "").find("output 'y' differs") != std::string::npos;
  EXPECT_TRUE(feedback_sent) << "the optimizer never saw why its kernel was rejected";
}

TEST(OrchestratorTest, CompileErrorsGoBackToTheOptimizer) {
  LoopHarness loop(submitting({kernel("// BROKEN"), kernel("// FAST 1.3")}), config(1));
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(outcome->state.attempts[0].verdict.status, "build-failed");
  EXPECT_EQ(outcome->state.best_id, "0002");
}

TEST(OrchestratorTest, AnIdenticalResubmissionIsNotAGain) {
  LoopHarness loop(submitting({kernel("// FAST 2.0")}), config(2));
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok());
  ASSERT_EQ(loop.events("decision").size(), 2u);
  EXPECT_FALSE(loop.events("decision")[1]["accepted"].get<bool>());
  EXPECT_NE(loop.events("decision")[1]["reason"].get<std::string>().find("identical"),
            std::string::npos);
}

// Records made before head-to-head promotion replay with the rule they were made with.
TEST(OrchestratorTest, TheIntervalRuleRefusesWhatDoesNotClearTheBestsSpeedup) {
  RunConfig c = config(3);
  c.promotion = "interval";
  LoopHarness loop(
      submitting({kernel("// FAST 2.0"), kernel("// FAST 2.02 "), kernel("// FAST 3.0")}), c);
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok());
  auto decisions = loop.events("decision");
  ASSERT_EQ(decisions.size(), 3u);
  EXPECT_FALSE(decisions[1]["accepted"].get<bool>()) << "2.02x [1.96, 2.08] must not replace 2.0x";
  EXPECT_TRUE(decisions[2]["accepted"].get<bool>());
  EXPECT_EQ(outcome->state.best_id, "0003");
  // The third iteration's prompts say why 0002 was refused, and how much of the run is left.
  const Json last = loop.events("model_call").back()["request"]["messages"][0];
  const std::string prompt = last.value("content", "");
  EXPECT_NE(prompt.find("- 0002 (iteration 2, from 0001): faster, 2.02x [1.96, 2.08]; not kept: "
                        "its interval [1.96, 2.08] does not clear 0001's 2.00x"),
            std::string::npos)
      << prompt;
  EXPECT_NE(prompt.find("This is iteration 3 of at most 3."), std::string::npos) << prompt;
}

// Once there is a best, a significant win over the original is timed against it in one
// alternated evaluation and kept only when significantly faster than it there.
TEST(OrchestratorTest, ANewBestMustBeatTheOldOneHeadToHead) {
  LoopHarness loop(submitting({kernel("// FAST 2.0"), kernel("// FAST 2.02 "),
                               kernel("// FAST 1.5"), kernel("// FAST 2.5")}),
                   config(4));
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok());
  auto decisions = loop.events("decision");
  ASSERT_EQ(decisions.size(), 4u);
  EXPECT_TRUE(decisions[0]["accepted"].get<bool>()) << "the first win needs no head-to-head";
  EXPECT_FALSE(decisions[1]["accepted"].get<bool>()) << "1% faster head to head is noise";
  EXPECT_NE(decisions[1]["reason"].get<std::string>().find(
                "not significantly faster than the best: 1.01x [0.98, 1.04] against 0001"),
            std::string::npos)
      << decisions[1]["reason"];
  EXPECT_FALSE(decisions[2]["accepted"].get<bool>()) << "a win over the original, slower than 0001";
  EXPECT_TRUE(decisions[3]["accepted"].get<bool>());
  EXPECT_EQ(outcome->state.best_id, "0004");
  auto head_to_heads = loop.events("head_to_head");
  ASSERT_EQ(head_to_heads.size(), 4u) << "0002, 0003 and 0004 against 0001; 0004 against human";
  EXPECT_EQ(head_to_heads.back()["baseline"], "human");
  head_to_heads.pop_back();
  for (const auto& h : head_to_heads) EXPECT_EQ(h["baseline"], "0001");
  EXPECT_EQ(head_to_heads[2]["candidate"], "0004");
  auto replayed = loop.replay_log();  // The recorded comparisons decide the replay alike.
  ASSERT_TRUE(replayed.ok()) << replayed.error().message;
  EXPECT_EQ(replayed->state.best_id, "0004");
}

TEST(OrchestratorTest, StopsAtTheTargetSpeedup) {
  RunConfig c = config(5);
  c.target_speedup = 1.5;
  LoopHarness loop(submitting({kernel("// FAST 2.0")}), c);
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(outcome->rule, "target");
  EXPECT_EQ(loop.events("iteration").size(), 1u);
}

namespace {

// A roofline tool that puts kernels marked FAST at 91% of their bound and the rest at 20%.
class MarkedRoofline : public Tool {
 public:
  std::string name() const override { return "roofline"; }
  std::string description() const override { return "test roofline"; }
  Json schema() const override { return {{"type", "object"}}; }
  ToolResult call(const Json&, ToolContext& context) override {
    const bool fast = context.current_source.find("FAST") != std::string::npos;
    return {true,
            fast ? "near the roof" : "far below the roof",
            {{"point", {{"headroom", fast ? 1.1 : 5.0}}}}};
  }
};

}  // namespace

TEST(OrchestratorTest, StopsNearTheRooflineBound) {
  RunConfig c = config(5);
  c.roofline_fraction = 0.8;
  LoopHarness loop(submitting({kernel("// FAST 2.0"), kernel("// FAST 3.0")}), c);
  loop.use_tool(std::make_unique<MarkedRoofline>());
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(outcome->rule, "roofline");
  EXPECT_NE(outcome->reason.find("91%"), std::string::npos) << outcome->reason;
  EXPECT_EQ(outcome->state.best_id, "0001");
  EXPECT_EQ(loop.events("decision").size(), 1u) << "no model call once the best is near its bound";
}

TEST(OrchestratorTest, TheFinalBestIsTimedHeadToHeadAgainstTheHumanVersion) {
  LoopHarness loop(submitting({kernel("// FAST 2.0")}), config(1));
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  ASSERT_EQ(outcome->state.best_id, "0001");
  const auto events = loop.events("head_to_head");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].value("candidate", ""), "0001");
  EXPECT_EQ(events[0].value("baseline", ""), "human");
  EXPECT_EQ(events[0]["evaluation"].value("baseline", ""), "human");
  ASSERT_EQ(loop.executor.baselines.size(), 1u);
  EXPECT_EQ(loop.executor.baselines[0],
            read_file(find_benchmark("licm", default_suite())->human_path()).value());
  const Json versus = outcome->summary["versus_human"];
  ASSERT_TRUE(versus.is_object()) << outcome->summary.dump();
  EXPECT_DOUBLE_EQ(versus.value("speedup", 0.0), 2.0);
  EXPECT_GT(versus.value("baseline_ms", 0.0), 0);
}

TEST(OrchestratorTest, NoHeadToHeadWhenTheOriginalStaysBest) {
  LoopHarness loop(submitting({kernel("// SAME")}), config(1));
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(loop.events("head_to_head").empty());
  EXPECT_TRUE(outcome->summary["versus_human"].is_null());
}

TEST(OrchestratorTest, StopsOnStagnation) {
  RunConfig c = config(10);
  c.patience = 2;
  LoopHarness loop(submitting({kernel("// SAME")}), c);
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(outcome->rule, "stagnation");
  EXPECT_EQ(loop.events("iteration").size(), 2u);
}

TEST(OrchestratorTest, StopsCleanlyWhenTheTokenBudgetIsSpent) {
  RunConfig c = config(10);
  c.budget_tokens = 2500;  // Each scripted call costs 1100 tokens.
  LoopHarness loop(submitting({kernel("// SAME")}), c);
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(outcome->rule, "budget");
  EXPECT_NE(outcome->reason.find("token budget"), std::string::npos) << outcome->reason;
  EXPECT_EQ(loop.backend.calls, 3);
  EXPECT_EQ(loop.events("stop").size(), 1u);
}

TEST(OrchestratorTest, BadToolCallsGetAClearMessageAndBoundedChances) {
  auto script = [](const llm::ChatRequest& r) {
    if (is_analyst(r)) return text("Plan: 1. hoist");
    return call("frobnicate", "{}");
  };
  LoopHarness loop(script, config(1));
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(loop.events("no_candidate").size(), 1u);
  const Json last = loop.events("model_call").back()["request"]["messages"].back();
  EXPECT_NE(last.value("content", "").find("there is no tool 'frobnicate'"), std::string::npos)
      << last.dump();
  EXPECT_LE(loop.backend.calls, 1 + 3 + 2 * 3) << "the model must not get unbounded chances";
}

TEST(OrchestratorTest, MalformedToolArgumentsAreRefusedWithTheReason) {
  auto script = [](const llm::ChatRequest& r) {
    if (is_analyst(r)) return text("Plan: 1. hoist");
    return call("compile", R"({"source": 42})");
  };
  LoopHarness loop(script, config(1));
  ASSERT_TRUE(loop.run().ok());
  const Json last = loop.events("model_call").back()["request"]["messages"].back();
  EXPECT_NE(last.value("content", "").find("argument 'source' must be of type string"),
            std::string::npos)
      << last.dump();
  EXPECT_EQ(loop.executor.evaluations, 1) << "only the human reference is evaluated";
}

// A submit whose summary is a number once ended a live run as "failed", blaming events.jsonl
// for "an event of an unexpected shape".
TEST(OrchestratorTest, ASubmitWithASummaryOfAnotherTypeIsACandidate) {
  auto script = [](const llm::ChatRequest& r) {
    if (is_analyst(r)) return text("Plan: 1. hoist");
    return call("submit", dump_json(Json{{"source", kernel("// FAST 2.0")}, {"summary", 5}}));
  };
  LoopHarness loop(script, config(1));
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(outcome->rule, "iterations");
  EXPECT_EQ(outcome->state.best_id, "0001");
}

// One answer of 3,000 tool calls once ran all 3,000 (each may be a build and a timing).
TEST(OrchestratorTest, OnlyAnAnswersFirstToolCallsAreRun) {
  auto script = [](const llm::ChatRequest& r) {
    if (!is_analyst(r)) return submit(kernel("// FAST 2.0"));
    if (r.tool_choice == "none") return text("Plan: 1. hoist");
    llm::ChatResponse many;
    for (int i = 0; i < 3000; ++i)
      many.tool_calls.push_back(
          {"c" + std::to_string(i), "read_file", R"({"path": "kernel.h"})", ""});
    many.finish_reason = llm::FinishReason::tool_calls;
    return many;
  };
  RunConfig c = config(1);
  c.analyst_tool_rounds = 1;
  LoopHarness loop(script, c);
  ASSERT_TRUE(loop.run().ok());
  int analyst_calls = 0;
  for (const auto& e : loop.events("tool_call")) analyst_calls += e["role"] == "analyst";
  EXPECT_EQ(analyst_calls, 16);
  bool told = false;  // Every call is answered; those past the first 16 say they were not run.
  for (const auto& e : loop.events("model_call"))
    for (const auto& m : e["request"]["messages"])
      told = told || m.value("content", "").find("error: not run") != std::string::npos;
  EXPECT_TRUE(told) << "the model was not told which calls were not run";
}

TEST(OrchestratorTest, AReplyWithoutCodeGetsRemindersThenCodeInAFenceCounts) {
  auto replies = std::make_shared<int>(0);
  auto script = [replies](const llm::ChatRequest& r) {
    if (is_analyst(r)) return text("Plan: 1. hoist");
    if (++*replies < 3) return text("I would hoist the exponential.");
    return text("Here it is:\n```cpp\n" + kernel("// FAST 1.4") + "```\n");
  };
  LoopHarness loop(script, config(1));
  auto outcome = loop.run();
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(outcome->state.best_id, "0001");
  const Json messages = loop.events("model_call").back()["request"]["messages"];
  EXPECT_NE(messages.back().value("content", "").find("contained no kernel file"),
            std::string::npos)
      << messages.dump();
}

TEST(OrchestratorTest, ToolRoundsAreBoundedByAFinalAnswerRequest) {
  auto script = [](const llm::ChatRequest& r) {
    if (is_analyst(r) && r.tool_choice != "none")
      return call("read_file", R"({"path": "kernel.h"})");
    if (is_analyst(r)) return text("Plan: 1. hoist");
    return submit(kernel("// SAME"));
  };
  RunConfig c = config(1);
  c.analyst_tool_rounds = 2;
  LoopHarness loop(script, c);
  ASSERT_TRUE(loop.run().ok());
  int analyst_calls = 0;
  for (const auto& e : loop.events("tool_call")) analyst_calls += e["role"] == "analyst";
  EXPECT_EQ(analyst_calls, 2);
  EXPECT_EQ(loop.events("model_call")[2]["request"]["tool_choice"], "none");
}

TEST(OrchestratorTest, NothingTheModelReadsDescribesTheHumanVersion) {
  // The analyst asks for every file it might, the human version's names included.
  const std::vector<std::string> paths = {"benchmark.json", "human.cpp", "human",
                                          "../human.cpp",   "kernel.h",  "original.cpp",
                                          "driver.cpp",     "current"};
  auto asked = std::make_shared<size_t>(0);
  auto script = [paths, asked](const llm::ChatRequest& r) {
    if (is_analyst(r) && r.tool_choice != "none" && *asked < paths.size())
      return call("read_file", Json{{"path", paths[(*asked)++]}}.dump());
    if (is_analyst(r)) return text("Plan: 1. hoist");
    return submit(kernel("// FAST 1.5"));
  };
  RunConfig c = config(1);
  c.analyst_tool_rounds = static_cast<int>(paths.size());
  LoopHarness loop(script, c);
  ASSERT_TRUE(loop.run().ok());
  const Benchmark bench = find_benchmark("licm", default_suite()).value();
  ASSERT_FALSE(bench.technique.empty());
  const std::string human = read_file(bench.dir / "human.cpp").value();
  // A line of the human version that the original does not have.
  const std::string original = read_file(bench.kernel_path()).value();
  std::string telling;
  for (const auto& line : split(human, '\n'))
    if (trim(line).size() > 20 && original.find(line) == std::string::npos) telling = line;
  ASSERT_FALSE(telling.empty());
  const std::string escaped = Json(telling).dump();  // As it would appear inside an event.
  int tool_results = 0;
  for (const auto& e : loop.all_events()) {
    const std::string type = e.value("type", "");
    if (type != "model_call" && type != "tool_call") continue;
    tool_results += type == "tool_call";
    const std::string seen = e.dump();
    EXPECT_EQ(to_lower(seen).find(to_lower(bench.technique)), std::string::npos) << seen;
    EXPECT_EQ(seen.find(escaped.substr(1, escaped.size() - 2)), std::string::npos) << telling;
  }
  EXPECT_GE(tool_results, static_cast<int>(paths.size()));
}

TEST(OrchestratorTest, BothRolesLearnTheToleranceAndTheChecksAndTheErrorsAgainstThem) {
  auto script = [](const llm::ChatRequest& r) {
    if (is_analyst(r)) return text("Plan: 1. hoist");
    if (r.messages.size() == 1)
      return call("run_tests", Json{{"source", kernel("// FAST 1.5")}}.dump());
    return submit(kernel("// FAST 1.5"));
  };
  LoopHarness loop(script, config(1));
  ASSERT_TRUE(loop.run().ok());
  const auto calls = loop.events("model_call");
  ASSERT_GE(calls.size(), 2u);
  const std::string rule = "within |got - want| <= 1e-12 + 1e-12 |want| of the original's";
  for (const Json& c : calls) {
    const std::string prompt = c["request"]["messages"][0].value("content", "");
    EXPECT_NE(prompt.find(rule), std::string::npos) << prompt;
    EXPECT_NE(prompt.find("at n = 1, 7, 65, 2048, on 5 fresh random inputs"), std::string::npos)
        << prompt;
    EXPECT_NE(prompt.find("one column of n*n rows"), std::string::npos) << "edge cases";
  }
  std::string result;
  for (const Json& e : loop.events("tool_call"))
    if (e.value("name", "") == "run_tests") result = e.value("text", "");
  ASSERT_FALSE(result.empty());
  EXPECT_NE(result.find("tolerance |got - want| <= 1e-12 + 1e-12 |want|): y abs 2e-13, rel 3e-14"),
            std::string::npos)
      << result;
}

TEST(OrchestratorTest, EveryCorrectCandidateStaysReadableByItsId) {
  // 0001 is correct and kept, 0002 is wrong; in iteration 3 the analyst reads both.
  auto asked = std::make_shared<int>(0);
  auto submitted = std::make_shared<int>(0);
  auto script = [asked, submitted](const llm::ChatRequest& r) {
    const bool third = r.messages[0].content.find("iteration 3 of") != std::string::npos;
    if (is_analyst(r) && third && r.tool_choice != "none" && *asked < 2)
      return call("read_file", Json{{"path", ++*asked == 1 ? "0001" : "0002"}}.dump());
    if (is_analyst(r)) return text("Plan: 1. hoist");
    return submit(
        kernel(++*submitted == 2 ? "// WRONG" : "// FAST 1." + std::to_string(*submitted)));
  };
  LoopHarness loop(script, config(3));
  ASSERT_TRUE(loop.run().ok());
  std::vector<Json> reads;
  for (const Json& e : loop.events("tool_call"))
    if (e.value("name", "") == "read_file") reads.push_back(e);
  ASSERT_EQ(reads.size(), 2u);
  EXPECT_TRUE(reads[0].value("ok", false));
  EXPECT_NE(reads[0].value("text", "").find("// FAST 1.1"), std::string::npos) << reads[0].dump();
  EXPECT_FALSE(reads[1].value("ok", true)) << "an incorrect candidate is not offered";
  EXPECT_NE(reads[1].value("text", "").find("current, 0001"), std::string::npos) << reads[1].dump();
}

TEST(OrchestratorTest, TheAnalystSeesTheOptimizersToolResultsOfThePreviousIteration) {
  auto script = [](const llm::ChatRequest& r) {
    if (is_analyst(r)) return text("Plan: 1. hoist");
    if (r.messages.size() == 1)
      return call("benchmark", Json{{"source", kernel("// FAST 1.7")}}.dump());
    return submit(kernel("// FAST 1.5"));
  };
  LoopHarness loop(script, config(2));
  ASSERT_TRUE(loop.run().ok());
  std::vector<std::string> analyst_prompts;
  for (const Json& c : loop.events("model_call"))
    if (c.value("role", "") == "analyst")
      analyst_prompts.push_back(c["request"]["messages"][0].value("content", ""));
  ASSERT_EQ(analyst_prompts.size(), 2u);
  EXPECT_NE(analyst_prompts[0].find("previous iteration\n(none)"), std::string::npos);
  EXPECT_NE(analyst_prompts[1].find("- benchmark(a kernel file): verdict: faster; speedup over "
                                    "the original: 1.700x"),
            std::string::npos)
      << analyst_prompts[1];
}

TEST(OrchestratorTest, ReplayOfTheRecordReproducesEveryEvent) {
  LoopHarness loop(submitting({kernel("// WRONG"), kernel("// FAST 1.5"), kernel("// FAST 2.5")}),
                   config(2));
  ASSERT_TRUE(loop.run().ok());
  const std::vector<Json> recorded = loop.all_events();
  const int calls = loop.backend.calls;
  auto replayed = loop.replay(recorded);
  ASSERT_TRUE(replayed.ok()) << replayed.error().message;
  EXPECT_EQ(loop.backend.calls, calls) << "a replay must not call the model";
  EXPECT_EQ(replayed->state.best_id, "0003");
}

TEST(OrchestratorTest, ReplayOfATamperedRecordNamesTheDivergence) {
  LoopHarness loop(submitting({kernel("// FAST 2.0")}), config(1));
  ASSERT_TRUE(loop.run().ok());
  std::vector<Json> recorded = loop.all_events();
  for (auto& e : recorded)
    if (e.value("type", "") == "evaluation" && e.value("candidate", "") == "0001")
      e["evaluation"]["verdict"]["status"] = "slower";
  auto replayed = loop.replay(recorded);
  ASSERT_FALSE(replayed.ok());
  EXPECT_NE(replayed.error().message.find("(decision)"), std::string::npos)
      << replayed.error().message;
}

}  // namespace kopt
