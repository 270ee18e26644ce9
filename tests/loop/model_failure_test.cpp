// A model that fails after its retries interrupts the run (no stop event, nothing lost); a
// resume makes the failed call again and the run goes on; the whole record then replays.
#include <gtest/gtest.h>

#include "loop_harness.h"

namespace kopt {

namespace {

using test::is_analyst;
using test::kernel;
using test::LoopHarness;
using test::submit;
using test::text;

// The scripted model, except that calls number `fail_from` to `fail_to` (1-based) fail.
struct Outage {
  int fail_from = 0, fail_to = 0;
  bool permanent = false;
  int calls = 0;
};

class FlakyBackend : public llm::LlmBackend {
 public:
  FlakyBackend(test::ScriptedBackend& inner, Outage& outage) : inner_(inner), outage_(outage) {}
  Result<llm::ChatResponse> chat(const llm::ChatRequest& r, const llm::ChatOptions& o) override {
    const int n = ++outage_.calls;
    if (n >= outage_.fail_from && n <= outage_.fail_to)
      return Error{outage_.permanent ? "bad key: HTTP 401" : "server error (HTTP 500)",
                   outage_.permanent};
    return inner_.chat(r, o);
  }
  std::string name() const override { return "flaky"; }
  bool native_tools() const override { return true; }

 private:
  test::ScriptedBackend& inner_;
  Outage& outage_;
};

RunConfig two_iterations() {
  RunConfig c;
  c.benchmark = "licm";
  c.iterations = 2;
  c.patience = 10;
  return c;
}

test::ScriptedBackend::Script model() {
  return [](const llm::ChatRequest& r) {
    return is_analyst(r) ? text("Diagnosis: line 9.\nPlan:\n1. Hoist.")
                         : submit(kernel("// FAST 2.0"));
  };
}

// A harness whose backend fails as `outage` says.
struct FlakyLoop {
  explicit FlakyLoop(Outage& outage)
      : loop(model(), two_iterations()), flaky(loop.backend, outage) {
    loop.use_backend(flaky);
  }
  LoopHarness loop;
  FlakyBackend flaky;
};

}  // namespace

TEST(ModelFailureTest, AFailedCallInterruptsTheRunWithoutAStopEvent) {
  Outage outage{3, 3};  // Iteration 2's analyst.
  FlakyLoop f(outage);
  auto outcome = f.loop.run();
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(outcome->rule, "interrupted");
  EXPECT_TRUE(outcome->interrupted());
  EXPECT_NE(outcome->reason.find("HTTP 500"), std::string::npos) << outcome->reason;
  EXPECT_TRUE(f.loop.events("stop").empty());
  EXPECT_EQ(f.loop.all_events().back()["type"], "model_error");
  EXPECT_EQ(outcome->state.best_id, "0001");  // What was done before the failure is kept.
}

TEST(ModelFailureTest, ARefusalFailsTheRunForGood) {
  Outage outage{1, 99, true};
  FlakyLoop f(outage);
  auto outcome = f.loop.run();
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(outcome->rule, "failed");
  EXPECT_TRUE(f.loop.events("stop").empty());
  EXPECT_TRUE(f.loop.all_events().back()["permanent"].get<bool>());
}

TEST(ModelFailureTest, AResumeMakesTheFailedCallAgainAndTheRecordReplays) {
  Outage outage{3, 3};
  FlakyLoop f(outage);
  ASSERT_TRUE(f.loop.run().ok());
  auto resumed = f.loop.resume();
  ASSERT_TRUE(resumed.ok()) << resumed.error().message;
  EXPECT_EQ(resumed->rule, "iterations");
  EXPECT_EQ(resumed->state.attempts.size(), 2u);
  EXPECT_EQ(f.loop.events("stop").size(), 1u);
  EXPECT_EQ(f.loop.events("resumed").size(), 1u);
  EXPECT_EQ(f.loop.events("candidate").size(), 2u);  // None made twice.
  EXPECT_EQ(outage.calls, 5);                        // Two before, the failed one, two after.
  auto replayed = f.loop.replay_log();
  ASSERT_TRUE(replayed.ok()) << replayed.error().message;
  EXPECT_EQ(replayed->rule, "iterations");
}

TEST(ModelFailureTest, AResumeWhileTheModelIsStillDownInterruptsAgain) {
  Outage outage{3, 4};
  FlakyLoop f(outage);
  ASSERT_TRUE(f.loop.run().ok());
  auto again = f.loop.resume();
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->rule, "interrupted");
  auto finally = f.loop.resume();
  ASSERT_TRUE(finally.ok()) << finally.error().message;
  EXPECT_EQ(finally->rule, "iterations");
  EXPECT_EQ(f.loop.events("resumed").size(), 2u);
  auto replayed = f.loop.replay_log();
  ASSERT_TRUE(replayed.ok()) << replayed.error().message;
}

}  // namespace kopt
