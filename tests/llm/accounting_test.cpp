#include "agent/llm/accounting.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "util/files.h"

namespace kopt::llm {
namespace {

PriceTable table() {
  return *PriceTable::from_json(Json::parse(R"({"format": "kopt-prices/1", "prices": [
      {"match": "gpt-4o", "input": 2.5, "output": 10},
      {"match": "gpt-4o-mini", "input": 0.15, "output": 0.6},
      {"match": "local:", "input": 0, "output": 0}]})"),
                                "test");
}

ChatResponse answered(const std::string& model, int64_t in, int64_t out) {
  ChatResponse response;
  response.model = model;
  response.usage = {in, out};
  return response;
}

TEST(PriceTableTest, LongestPrefixWinsCaseInsensitively) {
  EXPECT_DOUBLE_EQ(table().find("gpt-4o-mini-2024-07-18")->input, 0.15);
  EXPECT_DOUBLE_EQ(table().find("GPT-4o-2024-08-06")->input, 2.5);
  EXPECT_FALSE(table().find("claude-3-opus").has_value());
}

TEST(PriceTableTest, CostIsPerMillionTokens) {
  EXPECT_DOUBLE_EQ(*table().cost("gpt-4o", {1000000, 100000}), 3.5);
  EXPECT_DOUBLE_EQ(*table().cost("local:qwen", {5000, 5000}), 0.0);
  EXPECT_FALSE(table().cost("mystery", {1, 1}).has_value());
}

TEST(PriceTableTest, BadTablesAreRefusedWithTheReason) {
  EXPECT_NE(PriceTable::from_json(Json::parse(R"({"prices": []})"), "p.json")
                .error()
                .message.find("format"),
            std::string::npos);
  auto bad = PriceTable::from_json(
      Json::parse(R"({"format": "kopt-prices/1", "prices": [{"match": "x", "input": "cheap"}]})"),
      "p.json");
  EXPECT_NE(bad.error().message.find("'input'"), std::string::npos);
}

TEST(PriceTableTest, TheShippedTableLoadsAndKnowsTheCommonModels) {
  auto shipped = PriceTable::load_default(fixed_environment({}));
  ASSERT_TRUE(shipped.ok()) << shipped.error().message;
  for (const char* model :
       {"gpt-4o-mini", "gpt-4.1", "claude-3-5-sonnet-20241022", "claude-sonnet-4-20250514",
        "local:qwen2.5-coder-0.5b-instruct", "manual"})
    EXPECT_TRUE(shipped->find(model).has_value()) << model;
}

TEST(PriceTableTest, UserTableReplacesTheShippedOne) {
  TempDir dir("kopt-prices-test-");
  ASSERT_TRUE(
      write_file(
          dir.path() / "p.json",
          R"({"format":"kopt-prices/1","prices":[{"match":"my-model","input":1,"output":2}]})")
          .ok());
  auto mine = PriceTable::load_default(
      fixed_environment({{"KOPT_PRICES", (dir.path() / "p.json").string()}}));
  ASSERT_TRUE(mine.ok()) << mine.error().message;
  EXPECT_TRUE(mine->find("my-model-7b").has_value());
  EXPECT_FALSE(mine->find("gpt-4o").has_value());
}

TEST(UsageLedgerTest, SumsPerRunAndPerRole) {
  UsageLedger ledger(table());
  ledger.record("analyst", answered("gpt-4o", 1000, 200));
  ledger.record("optimizer", answered("gpt-4o", 3000, 800));
  ledger.record("analyst", answered("gpt-4o", 600, 100));
  EXPECT_EQ(ledger.total(), (Usage{4600, 1100}));
  EXPECT_EQ(ledger.total("analyst"), (Usage{1600, 300}));
  EXPECT_NEAR(ledger.cost_usd(), (4600 * 2.5 + 1100 * 10) / 1e6, 1e-12);
  EXPECT_EQ(ledger.summary(), "3 calls, 4600 in + 1100 out tokens, ~$0.0225");
}

TEST(UsageLedgerTest, UnpricedModelsAreNamed) {
  UsageLedger ledger(table());
  ledger.record("analyst", answered("mystery-1", 10, 10));
  ledger.record("analyst", answered("mystery-1", 10, 10));
  EXPECT_EQ(ledger.unpriced_models(), std::vector<std::string>{"mystery-1"});
  EXPECT_NE(ledger.summary().find("no price for mystery-1"), std::string::npos);
}

TEST(UsageLedgerTest, ABackendThatReportsNoUsageIsCountedAtFourCharactersATokenAndSaysSo) {
  ChatRequest request;
  request.system = std::string(400, 's');
  request.messages = {user_message(std::string(396, 'u'))};
  ChatResponse response;  // manual and exec report no usage.
  response.text = std::string(80, 'a');
  response.tool_calls = {{"c1", "submit", std::string(15, 'x'), ""}};
  UsageLedger ledger(table());
  const CallRecord& call = ledger.record("optimizer", response, &request);
  EXPECT_EQ(call.usage.input_tokens, 199);  // 796 characters.
  EXPECT_EQ(call.usage.output_tokens, 26);  // 80 + 6 + 15 characters, rounded up.
  EXPECT_TRUE(call.usage.estimated);
  EXPECT_NE(ledger.summary().find("(estimated at 4 characters a token)"), std::string::npos)
      << ledger.summary();
  // A reported usage is kept as reported, and a budget counts the estimates.
  ledger.record("analyst", answered("gpt-4o", 10, 5), &request);
  EXPECT_EQ(ledger.total(), (Usage{209, 31, true}));
  EXPECT_EQ(Budget({200, 0, 0}).tokens_left(ledger), 0);
}

TEST(BudgetTest, TokenLimitStopsTheRunWithTheReason) {
  UsageLedger ledger(table());
  Budget budget({1000, 0, 0});
  EXPECT_TRUE(budget.check(ledger).ok());
  EXPECT_EQ(budget.tokens_left(ledger), 1000);
  ledger.record("optimizer", answered("gpt-4o", 900, 150));
  EXPECT_EQ(budget.check(ledger).error().message,
            "token budget exhausted: 1050 of 1000 tokens used");
  EXPECT_EQ(budget.tokens_left(ledger), 0);
}

TEST(BudgetTest, CostAndCallLimits) {
  UsageLedger ledger(table());
  ledger.record("optimizer", answered("gpt-4o", 1000000, 0));
  EXPECT_NE(Budget({0, 2.0, 0})
                .check(ledger)
                .error()
                .message.find("cost budget exhausted: ~$2.5000 of $2.0000"),
            std::string::npos);
  EXPECT_TRUE(Budget({0, 3.0, 0}).check(ledger).ok());
  EXPECT_NE(Budget({0, 0, 1}).check(ledger).error().message.find("call budget"), std::string::npos);
  EXPECT_TRUE(Budget().check(ledger).ok());
}

TEST(BudgetTest, CostLimitCannotBeEnforcedWithoutPrices) {
  UsageLedger ledger(table());
  ledger.record("optimizer", answered("mystery-1", 1, 1));
  auto status = Budget({0, 5.0, 0}).check(ledger);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("cannot enforce the cost budget: no price for mystery-1"),
            std::string::npos);
}

}  // namespace
}  // namespace kopt::llm
