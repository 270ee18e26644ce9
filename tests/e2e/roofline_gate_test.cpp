// The roofline gate end to end: a legitimate kernel judged on a deliberately tiny machine model
// is "faster than the hardware allows"; on a generous one it is not.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/kopt_cli.h"
#include "../support/small_suite.h"

namespace kopt {

namespace {

// The human version of licm timed against a machine model. At the suite's time size (67 MB of
// data, past the generous machine's last-level cache) the memory roof applies; the tiny machine
// rejects it at any size, so that test runs the smaller suite (tests/support/small_suite.h).
Json evaluate_human_on(const std::string& machine, const std::vector<std::string>& extra = {}) {
  const auto model = test::source_root() / "tests" / "fixtures" / "machine" / (machine + ".json");
  std::vector<std::string> args = {
      "eval", "licm", "--variant", "human", "--json", "--timing-budget", "2"};
  args.insert(args.end(), extra.begin(), extra.end());
  ProcessResult r =
      test::run_kopt(args, std::chrono::seconds(300), {{"KOPT_MACHINE_MODEL", model.string()}});
  return test::last_json(r.output);
}

}  // namespace

TEST(RooflineGateTest, LegitimateKernelOnATinyMachineIsRejectedWithTheFigures) {
  const auto small = test::small_suite({"licm"});
  const Json doc = evaluate_human_on("tiny", {"--suite", small->path().string()});
  ASSERT_TRUE(doc.is_object());
  const Json& verdict = doc["verdict"];
  // The human version is a clear win; only a win meets the gate.
  ASSERT_NE(verdict.value("status", ""), "not-faster") << verdict.dump();
  EXPECT_EQ(verdict.value("status", ""), "rejected") << verdict.dump();
  EXPECT_EQ(verdict.value("category", ""), "roofline");
  const std::string reason = verdict.value("reason", "");
  EXPECT_NE(reason.find("faster than the hardware allows"), std::string::npos) << reason;
  EXPECT_NE(reason.find("tiny test machine"), std::string::npos) << reason;
  EXPECT_TRUE(doc["plausibility"].value("judged", false));
  EXPECT_FALSE(doc["plausibility"].value("ok", true));
}

TEST(RooflineGateTest, LegitimateKernelOnAGenerousMachineIsWithinTheRoof) {
  const Json doc = evaluate_human_on("generous");
  ASSERT_TRUE(doc.is_object());
  EXPECT_NE(doc["verdict"].value("category", ""), "roofline") << doc["verdict"].dump();
  if (doc["verdict"].value("status", "") == "faster") {
    EXPECT_TRUE(doc["plausibility"].value("judged", false)) << doc["plausibility"].dump();
    EXPECT_TRUE(doc["plausibility"].value("ok", false)) << doc["plausibility"].dump();
  }
}

}  // namespace kopt
