// The run configuration as run.json keeps it: a round trip, and the promotion rule of records
// made before head-to-head promotion.
#include "agent/loop/config.h"

#include <gtest/gtest.h>

namespace kopt {

TEST(RunConfigTest, RoundTripsThroughRunJson) {
  RunConfig c;
  c.benchmark = "licm";
  c.iterations = 7;
  c.promotion = "interval";
  auto back = config_from_json(to_json(c));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->iterations, 7);
  EXPECT_EQ(back->promotion, "interval");
  EXPECT_EQ(to_json(RunConfig{})["promotion"], "head-to-head") << "new runs promote head to head";
}

TEST(RunConfigTest, ARecordWithoutAPromotionRuleUsesTheIntervalRuleItWasMadeWith) {
  Json old = to_json(RunConfig{});
  old["benchmark"] = "licm";
  old.erase("promotion");
  auto c = config_from_json(old);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->promotion, "interval");
  old["promotion"] = "vibes";
  auto bad = config_from_json(old);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("promotion must be head-to-head or interval"),
            std::string::npos);
}

TEST(RunConfigTest, TheStrategyRoundTripsAndARecordWithoutOneIsMarco) {
  RunConfig c;
  c.benchmark = "licm";
  c.strategy = "direct";
  auto back = config_from_json(to_json(c));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->strategy, "direct");
  Json marco = to_json(RunConfig{});
  marco["benchmark"] = "licm";
  EXPECT_FALSE(marco.contains("strategy")) << "records made before strategies replay unchanged";
  EXPECT_EQ(config_from_json(marco).value().strategy, "marco");
  marco["strategy"] = "vibes";
  auto bad = config_from_json(marco);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("strategy must be marco, direct or guided"),
            std::string::npos);
  EXPECT_EQ(default_strategy("local"), "guided");
  EXPECT_EQ(default_strategy("openai:some-model"), "marco");
}

}  // namespace kopt
