#include "tools/roofline/ir_values.h"

#include <cmath>

#include "util/strings.h"

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

std::optional<double> IrValues::known(const std::string& text) {
  assumed_ = false;
  const auto v = operand(text);
  return assumed_ ? std::nullopt : v;
}

std::optional<double> IrValues::parameter(const std::string& name) {
  for (size_t i = 0; i < f_.params.size(); ++i) {
    if (f_.params[i].second != name) continue;
    if (entry_ && i < assume_.arguments.size() && assume_.arguments[i]) return assume_.arguments[i];
    const std::string& type = f_.params[i].first;
    const auto [lanes, bits] = type_shape(type);
    if (type.back() == '*' || type == "ptr") return 0.0;
    if (lanes == 1 && bits > 1) assumed_ = true;
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

namespace {

std::optional<double> compare(const std::string& predicate, double a, double b) {
  if (predicate == "eq") return a == b;
  if (predicate == "ne") return a != b;
  if (predicate == "slt" || predicate == "ult") return a < b;
  if (predicate == "sle" || predicate == "ule") return a <= b;
  if (predicate == "sgt" || predicate == "ugt") return a > b;
  if (predicate == "sge" || predicate == "uge") return a >= b;
  return std::nullopt;
}

}  // namespace

// A phi outside the loops' inductions (which scalar evolution reads), such as where a vector
// loop's remainder starts (0 when the vector loop was skipped, the vectorized count after it):
// the largest of its known incoming values, the path through the main loop.
std::optional<double> IrValues::merged(const IrInstruction& inst) {
  std::optional<double> largest;
  for (const auto& incoming : inst.operands)
    if (auto v = operand(incoming)) largest = std::max(largest.value_or(*v), *v);
  return largest;
}

// Integer select, comparison and the min/max/abs intrinsics, where their operands are known.
std::optional<double> IrValues::chosen(const IrInstruction& inst) {
  const auto& ops = inst.operands;
  if (inst.opcode == "select" && ops.size() == 3) {
    auto condition = operand(ops[0]);
    return condition ? operand(*condition != 0 ? ops[1] : ops[2]) : std::nullopt;
  }
  if (ops.empty()) return std::nullopt;
  auto a = operand(ops[0]);
  if (!a) return std::nullopt;
  if (inst.opcode == "call" && starts_with(inst.callee, "@llvm.abs.")) return std::abs(*a);
  auto b = ops.size() > 1 ? operand(ops[1]) : std::nullopt;
  if (!b) return std::nullopt;
  if (inst.opcode == "icmp") return compare(inst.predicate, *a, *b);
  if (inst.opcode != "call") return std::nullopt;
  if (starts_with(inst.callee, "@llvm.smin.") || starts_with(inst.callee, "@llvm.umin."))
    return std::min(*a, *b);
  if (starts_with(inst.callee, "@llvm.smax.") || starts_with(inst.callee, "@llvm.umax."))
    return std::max(*a, *b);
  return std::nullopt;
}

std::optional<double> IrValues::defined(const IrInstruction& inst) {
  const std::string& op = inst.opcode;
  if (op == "select" || op == "icmp" || op == "call") return chosen(inst);
  if (op == "phi") return merged(inst);
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
