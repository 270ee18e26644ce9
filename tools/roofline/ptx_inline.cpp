// Call inlining for the PTX reader (declared in ptx_module.h): each call to a device function
// defined in the module is replaced by a copy of its body whose registers and labels carry a
// per-call suffix; the caller's `st.param` into the call's parameters and its `ld.param` of the
// return value become moves, and the callee's `ret` a branch to the end of the copy.
#include <algorithm>
#include <map>
#include <regex>

#include "tools/roofline/ptx_module.h"
#include "util/strings.h"

namespace kopt {

namespace {

// "[param0+8]" -> "param0+8", "[param0]" -> "param0+0".
std::string param_slot(const std::string& operand) {
  std::string inner = operand.size() > 2 ? operand.substr(1, operand.size() - 2) : operand;
  inner = trim(inner);
  return inner.find('+') == std::string::npos ? inner + "+0" : inner;
}

// The register that carries a callee copy's result slot ("func_retval0+8").
std::string result_register(const std::string& suffix, std::string slot) {
  std::replace(slot.begin(), slot.end(), '+', '_');
  return "%ret" + suffix + "_" + slot;
}

std::string type_suffix(const std::string& opcode) {
  const auto dot = opcode.rfind('.');
  return dot == std::string::npos ? ".b32" : opcode.substr(dot);
}

class Inliner {
 public:
  Inliner(const std::vector<PtxFunction>& module, int& calls_left)
      : module_(module), calls_left_(calls_left) {}

  void append(const PtxFunction& f, const std::string& suffix,
              const std::map<std::string, std::string>& args, int depth,
              std::vector<std::string>& stack, std::vector<PtxInstruction>& out) {
    std::map<std::string, std::string> stores;   // the caller's "param0+0" -> value
    std::map<std::string, std::string> returns;  // "retval0" -> the callee copy's suffix
    const std::string end_label = "$ret" + suffix;
    for (PtxInstruction inst : f.body) {
      rename(inst, suffix);
      inst.inline_depth = depth;
      const std::string& op = inst.opcode;
      if (starts_with(op, "st.param") && inst.operands.size() == 2 &&
          inst.operands[0].find("func_retval") == std::string::npos) {
        stores[param_slot(inst.operands[0])] = inst.operands[1];
        continue;
      }
      if (starts_with(op, "st.param") && inst.operands.size() == 2) {  // the callee's result
        out.push_back({"mov" + type_suffix(op),
                       {result_register(suffix, param_slot(inst.operands[0])), inst.operands[1]},
                       inst.guard,
                       "",
                       depth});
        continue;
      }
      if (starts_with(op, "ld.param") && inst.operands.size() == 2) {
        const std::string slot = param_slot(inst.operands[1]);
        const std::string base = slot.substr(0, slot.find('+'));
        if (auto it = args.find(slot); it != args.end()) {
          out.push_back(
              {"mov" + type_suffix(op), {inst.operands[0], it->second}, inst.guard, "", depth});
          continue;
        }
        if (auto it = returns.find(base); it != returns.end()) {
          const std::string value =
              result_register(it->second, "func_retval0" + slot.substr(base.size()));
          out.push_back(
              {"mov" + type_suffix(op), {inst.operands[0], value}, inst.guard, "", depth});
          continue;
        }
      }
      if (starts_with(op, "ret") && depth > 0) {
        out.push_back({"bra.uni", {end_label}, inst.guard, "", depth});
        continue;
      }
      if (starts_with(op, "call") && try_inline(inst, stores, returns, depth, stack, out)) continue;
      out.push_back(inst);
    }
    if (depth > 0) out.push_back({"", {}, "", end_label, depth});
  }

 private:
  bool try_inline(const PtxInstruction& call, const std::map<std::string, std::string>& stores,
                  std::map<std::string, std::string>& returns, int depth,
                  std::vector<std::string>& stack, std::vector<PtxInstruction>& out) {
    // "call.uni (retval0), name, (param0, param1)" or "call.uni name, (param0)".
    std::vector<std::string> ops = call.operands;
    std::string retval;
    if (!ops.empty() && ops[0][0] == '(') {
      retval = trim(ops[0].substr(1, ops[0].size() - 2));
      ops.erase(ops.begin());
    }
    if (ops.empty()) return false;
    const std::string name = ops[0];
    auto callee = std::find_if(module_.begin(), module_.end(),
                               [&](const PtxFunction& f) { return f.name == name && f.defined; });
    if (starts_with(name, "__internal_")) return true;  // the math library's rare slow paths
    if (callee == module_.end() || depth >= kMaxInlineDepth ||
        std::find(stack.begin(), stack.end(), name) != stack.end()) {
      ++calls_left_;
      return false;
    }
    std::vector<std::string> actual;
    if (ops.size() > 1) {
      const std::string list = trim(ops[1]);
      for (auto& a : split(list.substr(1, list.size() - 2), ',')) actual.push_back(trim(a));
    }
    std::map<std::string, std::string> args;
    for (size_t k = 0; k < callee->params.size() && k < actual.size(); ++k)
      for (const auto& [slot, value] : stores)
        if (starts_with(slot, actual[k] + "+"))
          args[callee->params[k] + slot.substr(actual[k].size())] = value;
    const std::string suffix = "_i" + std::to_string(++copies_);
    if (!retval.empty()) returns[retval] = suffix;
    stack.push_back(name);
    append(*callee, suffix, args, depth + 1, stack, out);
    stack.pop_back();
    return true;
  }

  static void rename(PtxInstruction& inst, const std::string& suffix) {
    if (suffix.empty()) return;
    static const std::regex kName(R"((%[A-Za-z_][\w$]*|\$[\w$]+)(\.[xyz])?)");
    auto fix = [&](const std::string& text) {
      std::string result;
      size_t last = 0;
      for (std::sregex_iterator it(text.begin(), text.end(), kName), end; it != end; ++it) {
        result += text.substr(last, it->position() - last);
        const std::string name = it->str();
        result += is_special_register(name) ? name : (*it)[1].str() + suffix + (*it)[2].str();
        last = it->position() + it->length();
      }
      return result + text.substr(last);
    };
    for (auto& op : inst.operands) op = fix(op);
    if (!inst.guard.empty()) inst.guard = fix(inst.guard);
    if (!inst.label.empty()) inst.label = fix(inst.label);
  }

  const std::vector<PtxFunction>& module_;
  int& calls_left_;
  int copies_ = 0;
};

}  // namespace

std::vector<PtxInstruction> inline_calls(const PtxFunction& entry,
                                         const std::vector<PtxFunction>& module, int& calls_left) {
  std::vector<PtxInstruction> out;
  std::vector<std::string> stack = {entry.name};
  Inliner(module, calls_left).append(entry, "", {}, 0, stack, out);
  return out;
}

}  // namespace kopt
