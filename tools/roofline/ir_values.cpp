#include "tools/roofline/ir_values.h"

#include <cmath>

namespace kopt {

IrValues::IrValues(const IrFunction& f, const ScevFacts* facts, const TripAssumptions& assume,
                   bool entry, std::function<std::optional<double>(const std::string&)> trips)
    : f_(f), facts_(facts), assume_(assume), entry_(entry) {
  for (const auto& inst : f.instructions)
    if (!inst.result.empty()) definitions_[inst.result] = &inst;
  env_.value = [this](const std::string& name) { return value(name); };
  env_.trips = std::move(trips);
}

std::optional<double> IrValues::value(const std::string& name) {
  if (auto p = parameter(name)) return p;
  if (depth_ > 16) return std::nullopt;
  ++depth_;
  std::optional<double> result;
  if (auto it = facts_ ? facts_->scev.find(name) : decltype(facts_->scev.end()){};
      facts_ && it != facts_->scev.end() && it->second != name) {
    if (auto expr = parse_scev(it->second)) result = evaluate(**expr, env_);
  }
  if (!result)
    if (auto it = definitions_.find(name); it != definitions_.end()) result = defined(*it->second);
  --depth_;
  return result;
}

std::optional<double> IrValues::parameter(const std::string& name) const {
  for (size_t i = 0; i < f_.params.size(); ++i) {
    if (f_.params[i].second != name) continue;
    if (entry_ && i < assume_.arguments.size() && assume_.arguments[i]) return assume_.arguments[i];
    const std::string& type = f_.params[i].first;
    const auto [lanes, bits] = type_shape(type);
    if (type.back() == '*' || type == "ptr") return 0.0;
    if (lanes == 1 && bits == 64) return assume_.size;
    if (lanes == 1 && bits > 1) return assume_.default_trips;
  }
  return std::nullopt;
}

std::optional<double> IrValues::operand(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (text[0] == '%') return value(text);
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  return *end == '\0' ? std::optional<double>(number) : std::nullopt;
}

std::optional<double> IrValues::defined(const IrInstruction& inst) {
  const std::string& op = inst.opcode;
  if (inst.operands.empty()) return std::nullopt;
  auto a = operand(inst.operands[0]);
  if (op == "sext" || op == "zext" || op == "trunc") return a;
  if (inst.operands.size() < 2 || !a) return std::nullopt;
  auto b = operand(inst.operands[1]);
  if (!b) return std::nullopt;
  if (op == "add") return *a + *b;
  if (op == "sub") return *a - *b;
  if (op == "mul") return *a * *b;
  if (op == "shl") return *a * std::pow(2.0, *b);
  if ((op == "sdiv" || op == "udiv") && *b != 0) return std::trunc(*a / *b);
  if ((op == "lshr" || op == "ashr")) return std::floor(*a / std::pow(2.0, *b));
  if ((op == "srem" || op == "urem") && *b != 0) return std::fmod(*a, *b);
  return std::nullopt;
}

}  // namespace kopt
