#include "agent/llm/accounting.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "agent/llm/json_read.h"
#include "util/paths.h"
#include "util/strings.h"

namespace kopt::llm {

namespace {

Result<double> price_field(const Json& entry, const char* key, const std::string& where) {
  const Json* value = member(entry, key);
  if (!value || !value->is_number() || value->get<double>() < 0)
    return fail(where + ": entry '" + string_at(entry, "match") + "' needs a number '" + key + "'");
  return value->get<double>();
}

}  // namespace

Result<PriceTable> PriceTable::from_json(const Json& json, const std::string& where) {
  if (string_at(json, "format") != "kopt-prices/1")
    return fail(where + " is not a price table (format must be \"kopt-prices/1\")");
  PriceTable table;
  for (const auto& entry : array_at(json, "prices")) {
    const std::string match = string_at(entry, "match");
    if (match.empty()) return fail(where + ": every price needs a 'match'");
    auto input = price_field(entry, "input", where);
    if (!input) return input.error();
    auto output = price_field(entry, "output", where);
    if (!output) return output.error();
    table.entries_.emplace_back(to_lower(match), Price{*input, *output});
  }
  return table;
}

Result<PriceTable> PriceTable::load(const std::filesystem::path& path) {
  auto json = read_json_file(path);
  if (!json) return fail("cannot read the price table: " + json.error().message);
  return from_json(*json, path.string());
}

Result<PriceTable> PriceTable::load_default(const EnvLookup& env) {
  if (auto path = env("KOPT_PRICES")) return load(*path);
  return load(kopt_home() / "agent" / "llm" / "prices.json");
}

std::optional<Price> PriceTable::find(const std::string& model) const {
  const std::string name = to_lower(model);
  const std::pair<std::string, Price>* best = nullptr;
  for (const auto& entry : entries_) {
    if (name.compare(0, entry.first.size(), entry.first) == 0 &&
        (!best || entry.first.size() > best->first.size()))
      best = &entry;
  }
  if (!best) return std::nullopt;
  return best->second;
}

std::optional<double> PriceTable::cost(const std::string& model, const Usage& usage) const {
  auto price = find(model);
  if (!price) return std::nullopt;
  return (usage.input_tokens * price->input + usage.output_tokens * price->output) / 1e6;
}

UsageLedger::UsageLedger(PriceTable prices) : prices_(std::move(prices)) {}

Usage estimate_usage(const ChatRequest& request, const ChatResponse& response) {
  size_t in = request.system.size(), out = response.text.size();
  for (const auto& m : request.messages) {
    in += m.content.size();
    for (const auto& call : m.tool_calls) in += call.name.size() + call.arguments.size();
  }
  for (const auto& tool : request.tools)
    in += tool.name.size() + tool.description.size() + tool.parameters.size();
  for (const auto& call : response.tool_calls) out += call.name.size() + call.arguments.size();
  Usage usage;
  usage.input_tokens = static_cast<int64_t>((in + 3) / 4);
  usage.output_tokens = static_cast<int64_t>((out + 3) / 4);
  usage.estimated = true;
  return usage;
}

const CallRecord& UsageLedger::record(const std::string& role, const ChatResponse& response,
                                      const ChatRequest* request) {
  const Usage usage =
      response.usage.total() == 0 && request ? estimate_usage(*request, response) : response.usage;
  return calls_.emplace_back(CallRecord{
      role, response.model, usage, prices_.cost(response.model, usage), response.latency_seconds});
}

Usage UsageLedger::total() const {
  Usage sum;
  for (const auto& call : calls_) sum += call.usage;
  return sum;
}

Usage UsageLedger::total(const std::string& role) const {
  Usage sum;
  for (const auto& call : calls_)
    if (call.role == role) sum += call.usage;
  return sum;
}

double UsageLedger::cost_usd() const {
  double sum = 0;
  for (const auto& call : calls_) sum += call.cost_usd.value_or(0);
  return sum;
}

std::vector<std::string> UsageLedger::unpriced_models() const {
  std::vector<std::string> models;
  for (const auto& call : calls_) {
    if (!call.cost_usd && std::find(models.begin(), models.end(), call.model) == models.end())
      models.push_back(call.model);
  }
  return models;
}

std::string UsageLedger::summary() const {
  const Usage sum = total();
  std::string text =
      fmt::format("{} call{}, {} in + {} out tokens{}, ~${:.4f}", calls_.size(),
                  calls_.size() == 1 ? "" : "s", sum.input_tokens, sum.output_tokens,
                  sum.estimated ? " (estimated at 4 characters a token)" : "", cost_usd());
  const auto unpriced = unpriced_models();
  if (!unpriced.empty()) text += fmt::format(" (no price for {})", fmt::join(unpriced, ", "));
  return text;
}

Status Budget::check(const UsageLedger& ledger) const {
  const Usage used = ledger.total();
  if (limits_.max_tokens > 0 && used.total() >= limits_.max_tokens)
    return fail(fmt::format("token budget exhausted: {} of {} tokens used", used.total(),
                            limits_.max_tokens));
  if (limits_.max_calls > 0 && static_cast<int64_t>(ledger.calls().size()) >= limits_.max_calls)
    return fail(fmt::format("call budget exhausted: {} of {} calls made", ledger.calls().size(),
                            limits_.max_calls));
  if (limits_.max_cost_usd <= 0) return {};
  if (auto unpriced = ledger.unpriced_models(); !unpriced.empty())
    return fail(
        fmt::format("cannot enforce the cost budget: no price for {} (add it to the price "
                    "table, see KOPT_PRICES)",
                    fmt::join(unpriced, ", ")));
  if (ledger.cost_usd() >= limits_.max_cost_usd)
    return fail(fmt::format("cost budget exhausted: ~${:.4f} of ${:.4f} spent", ledger.cost_usd(),
                            limits_.max_cost_usd));
  return {};
}

std::optional<int64_t> Budget::tokens_left(const UsageLedger& ledger) const {
  if (limits_.max_tokens <= 0) return std::nullopt;
  return std::max<int64_t>(0, limits_.max_tokens - ledger.total().total());
}

}  // namespace kopt::llm
