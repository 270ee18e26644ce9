// What model calls cost: tokens per call and per run, an estimated price from a table the user
// can override, and a budget the loop consults to stop cleanly before it overspends.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "agent/llm/chat.h"
#include "agent/llm/environment.h"
#include "util/json.h"
#include "util/result.h"

namespace kopt::llm {

/// US dollars per million tokens.
struct Price {
  double input = 0;
  double output = 0;
};

/// Prices by model name prefix ("kopt-prices/1"); the longest matching prefix wins.
class PriceTable {
 public:
  /// Parses a table; `where` names it in errors.
  static Result<PriceTable> from_json(const Json& json, const std::string& where);
  /// Reads a table file.
  static Result<PriceTable> load(const std::filesystem::path& path);
  /// $KOPT_PRICES when set, else agent/llm/prices.json under kopt_home().
  static Result<PriceTable> load_default(const EnvLookup& env = process_environment());

  /// The price of `model`, or nullopt when no entry matches.
  std::optional<Price> find(const std::string& model) const;
  /// The estimated cost of `usage` on `model`, or nullopt when unpriced.
  std::optional<double> cost(const std::string& model, const Usage& usage) const;

 private:
  std::vector<std::pair<std::string, Price>> entries_;
};

/// One accounted call.
struct CallRecord {
  std::string role;
  std::string model;
  Usage usage;
  std::optional<double> cost_usd;  ///< nullopt when the model has no price.
  double latency_seconds = 0;
};

/// Tokens of a call counted from its text at four characters a token, marked as an estimate:
/// for backends that report no usage (manual, exec, some servers).
Usage estimate_usage(const ChatRequest& request, const ChatResponse& response);

/// Tokens and cost of a run, call by call.
class UsageLedger {
 public:
  explicit UsageLedger(PriceTable prices = {});

  /// Accounts one answered call made for `role` ("analyst", "optimizer", ...). A response
  /// without usage is counted from `request` and the answer (estimate_usage), when given.
  const CallRecord& record(const std::string& role, const ChatResponse& response,
                           const ChatRequest* request = nullptr);
  /// Every call so far, in order.
  const std::vector<CallRecord>& calls() const { return calls_; }
  /// Tokens of all calls, or of one role's calls.
  Usage total() const;
  Usage total(const std::string& role) const;
  /// Estimated cost of the priced calls.
  double cost_usd() const;
  /// Models of calls that had no price (each once).
  std::vector<std::string> unpriced_models() const;
  /// "4 calls, 5120 in + 830 out tokens, ~$0.0210" (noting unpriced models).
  std::string summary() const;

 private:
  PriceTable prices_;
  std::vector<CallRecord> calls_;
};

/// Limits of a run; 0 means no limit.
struct BudgetLimits {
  int64_t max_tokens = 0;
  double max_cost_usd = 0;
  int64_t max_calls = 0;
};

/// The limits a run may spend; the loop asks before each call.
class Budget {
 public:
  explicit Budget(BudgetLimits limits = {}) : limits_(limits) {}

  /// OK while another call is allowed; otherwise an Error naming the limit reached ("token
  /// budget exhausted: 10240 of 10000 tokens used"). A cost limit with unpriced calls is an
  /// Error too: it cannot be enforced.
  Status check(const UsageLedger& ledger) const;
  /// Tokens left under max_tokens (nullopt without that limit), to cap the next max_tokens.
  std::optional<int64_t> tokens_left(const UsageLedger& ledger) const;
  const BudgetLimits& limits() const { return limits_; }

 private:
  BudgetLimits limits_;
};

}  // namespace kopt::llm
