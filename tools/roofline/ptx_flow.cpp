#include "tools/roofline/ptx_flow.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "util/strings.h"

namespace kopt {

namespace {

constexpr int kMaxEvalDepth = 40;

bool defines_nothing(const std::string& op) {
  for (const char* prefix :
       {"st.", "bra", "ret", "exit", "bar", "membar", "fence", "call", "red.", "prefetch", "trap",
        "brkpt", "@", "barrier", "cp.async", "griddepcontrol"})
    if (starts_with(op, prefix)) return true;
  return op.empty() || op == "st";
}

// Index bit of a special register: tid.x -> bit 0, ctaid.z -> bit 5; lane and warp ids count
// as threadIdx.x; 0 for the others (block and grid extents, clocks).
unsigned index_bit(const std::string& name) {
  const int axis = name.back() == 'y' ? 1 : name.back() == 'z' ? 2 : 0;
  if (starts_with(name, "%tid.")) return 1u << axis;
  if (starts_with(name, "%ctaid.")) return 8u << axis;
  if (name == "%laneid" || name == "%warpid") return 1u;
  return 0;
}

bool is_symbol(const std::string& operand) {
  return !operand.empty() &&
         (std::isalpha(static_cast<unsigned char>(operand[0])) || operand[0] == '_');
}

void merge(Dependence& into, const Dependence& from) {
  into.dims |= from.dims;
  into.data = into.data || from.data;
  into.table = into.table || from.table;
  into.loops.insert(from.loops.begin(), from.loops.end());
}

std::string family(const std::string& opcode) {
  return opcode.substr(0, opcode.find('.'));
}

}  // namespace

std::optional<double> ptx_immediate(const std::string& text) {
  if (text.empty() || text[0] == '%' || text[0] == '[' || starts_with(text, "0f") ||
      starts_with(text, "0d"))
    return std::nullopt;
  char* end = nullptr;
  const bool hex = starts_with(text, "0x") || starts_with(text, "-0x");
  const double v = hex ? static_cast<double>(std::strtoll(text.c_str(), &end, 16))
                       : std::strtod(text.c_str(), &end);
  if (*end == 'U' || *end == 'u') ++end;
  if (end == text.c_str() || *end != '\0') return std::nullopt;
  return v;
}

bool is_ptx_branch(const PtxInstruction& inst) {
  return starts_with(inst.opcode, "bra") && !inst.operands.empty();
}

bool ends_ptx_flow(const PtxInstruction& inst) {
  return starts_with(inst.opcode, "ret") || starts_with(inst.opcode, "exit");
}

std::vector<std::string> defined_registers(const PtxInstruction& inst) {
  if (defines_nothing(inst.opcode) || inst.operands.empty()) return {};
  return operand_registers(inst.operands[0]);
}

LaunchConfig complete_launch(LaunchConfig launch, unsigned dims) {
  const bool two_d_threads = dims & 0x6, two_d_blocks = dims & 0x30;
  const std::array<double, 3> block =
      two_d_threads ? std::array<double, 3>{16, 16, 1} : std::array<double, 3>{256, 1, 1};
  const std::array<double, 3> grid =
      two_d_blocks ? std::array<double, 3>{32, 32, 1} : std::array<double, 3>{1024, 1, 1};
  for (int a = 0; a < 3; ++a) {
    if (launch.block[a] <= 0) launch.block[a] = block[a];
    if (launch.grid[a] <= 0) launch.grid[a] = grid[a];
  }
  return launch;
}

PtxFlow::PtxFlow(const std::vector<PtxInstruction>& body, const std::vector<std::string>& params,
                 const std::vector<std::optional<double>>& args, const LaunchConfig& launch,
                 double default_trips)
    : body_(body), params_(params), args_(args) {
  for (size_t i = 0; i < body_.size(); ++i) {
    for (const auto& reg : defined_registers(body_[i])) defs_[reg].push_back(i);
    for (const auto& op : body_[i].operands)
      for (const auto& reg : operand_registers(op)) dims_used_ |= index_bit(reg);
  }
  launch_ = complete_launch(launch, dims_used_);
  find_loops();
  propagate();
  for (auto& loop : loops_) count_trips(loop, default_trips);
  find_shares();
}

// Whether statement `to` can run after statement `from`: the branches of the body followed
// from `from` (a backward branch closes a loop only when its target leads back to it; nvcc
// places some blocks after the kernel's `ret` and branches back from them).
bool PtxFlow::reaches(size_t from, size_t to, const std::map<std::string, size_t>& labels) const {
  std::vector<bool> seen(body_.size(), false);
  std::vector<size_t> todo = {from};
  while (!todo.empty()) {
    const size_t i = todo.back();
    todo.pop_back();
    if (i >= body_.size() || seen[i]) continue;
    if (i == to) return true;
    seen[i] = true;
    const PtxInstruction& inst = body_[i];
    const bool branch = is_ptx_branch(inst);
    if (branch)
      if (auto target = labels.find(inst.operands.back()); target != labels.end())
        todo.push_back(target->second);
    if (!((branch || ends_ptx_flow(inst)) && inst.guard.empty())) todo.push_back(i + 1);
  }
  return false;
}

void PtxFlow::find_loops() {
  std::map<std::string, size_t> labels;
  for (size_t i = 0; i < body_.size(); ++i)
    if (!body_[i].label.empty()) labels.emplace(body_[i].label, i);
  for (size_t i = 0; i < body_.size(); ++i) {
    if (!starts_with(body_[i].opcode, "bra") || body_[i].operands.empty()) continue;
    auto it = labels.find(body_[i].operands.back());
    if (it == labels.end() || it->second > i || !reaches(it->second, i, labels)) continue;
    auto same = std::find_if(loops_.begin(), loops_.end(),
                             [&](const PtxLoop& l) { return l.begin == it->second; });
    if (same != loops_.end())
      same->end = i;
    else
      loops_.push_back({it->second, i, 0, false, ""});
  }
}

std::vector<int> PtxFlow::loops_around(size_t index) const {
  std::vector<int> around;
  for (size_t l = 0; l < loops_.size(); ++l)
    if (loops_[l].begin <= index && index <= loops_[l].end) around.push_back(static_cast<int>(l));
  return around;
}

void PtxFlow::propagate() {
  for (int pass = 0, changed = 1; changed && pass < 50; ++pass) {
    changed = 0;
    for (size_t i = 0; i < body_.size(); ++i) {
      const auto defined = defined_registers(body_[i]);
      if (defined.empty()) continue;
      const std::string& op = body_[i].opcode;
      Dependence d;
      for (size_t k = 1; k < body_[i].operands.size(); ++k) {
        d.table = d.table || is_symbol(body_[i].operands[k]);
        for (const auto& reg : operand_registers(body_[i].operands[k])) {
          d.dims |= index_bit(reg);
          if (auto it = deps_.find(reg); it != deps_.end()) merge(d, it->second);
        }
      }
      const bool load =
          (starts_with(op, "ld.") && !starts_with(op, "ld.param")) || starts_with(op, "atom.");
      d.data = d.data || load;
      for (int l : loops_around(i)) {
        const bool carried = defs_[defined.front()].size() > 1;
        const bool rewritten_memory = load && op.find(".global") == std::string::npos;
        if (carried || rewritten_memory) d.loops.insert(l);
      }
      for (const auto& reg : defined) {
        Dependence& into = deps_[reg];
        const Dependence before = into;
        merge(into, d);
        changed |= !(before == into);
      }
    }
  }
}

Dependence PtxFlow::dependence(const std::string& reg) const {
  Dependence d;
  d.dims = index_bit(reg);
  if (auto it = deps_.find(reg); it != deps_.end()) merge(d, it->second);
  return d;
}

std::optional<double> PtxFlow::special(const std::string& name) const {
  const int axis = name.back() == 'y' ? 1 : name.back() == 'z' ? 2 : 0;
  if (starts_with(name, "%ntid.")) return launch_.block[axis];
  if (starts_with(name, "%nctaid.")) return launch_.grid[axis];
  // The mean thread, or the first or the last one (Corner) where a question needs both ends.
  const auto index = [&](double extent) {
    return corner_ == Corner::first ? 0.0 : corner_ == Corner::last ? extent - 1 : (extent - 1) / 2;
  };
  if (starts_with(name, "%tid.")) return index(launch_.block[axis]);
  if (starts_with(name, "%ctaid.")) return index(launch_.grid[axis]);
  return std::nullopt;
}

std::optional<double> PtxFlow::value(const std::string& operand, int depth) const {
  if (auto v = ptx_immediate(operand)) return v;
  if (depth > kMaxEvalDepth || operand.empty() || operand[0] != '%') return std::nullopt;
  if (is_special_register(operand)) return special(operand);
  auto it = defs_.find(operand);
  if (it == defs_.end()) return std::nullopt;
  // A register a loop updates has its value before the loop from its definitions outside
  // every loop (a remainder count, a start) where they agree (nvcc sets a loop's start from
  // %tid.y again before each part of a loop it split).
  std::optional<double> agreed;
  for (size_t d : it->second) {
    if (it->second.size() > 1 && !loops_around(d).empty()) continue;
    const auto v = evaluate(body_[d], depth + 1);
    if (!v || (agreed && *agreed != *v)) return std::nullopt;
    agreed = v;
  }
  return agreed;
}

std::optional<double> PtxFlow::evaluate(const PtxInstruction& def, int depth) const {
  const std::string f = family(def.opcode);
  const auto& ops = def.operands;
  auto arg = [&](size_t k) { return k < ops.size() ? value(ops[k], depth) : std::nullopt; };
  if (f == "ld" && starts_with(def.opcode, "ld.param") && ops.size() == 2) {
    const std::string name = trim(ops[1].substr(1, ops[1].find_first_of("+]") - 1));
    auto p = std::find(params_.begin(), params_.end(), name);
    if (p == params_.end()) return std::nullopt;
    const auto k = static_cast<size_t>(p - params_.begin());
    if (k < args_.size() && args_[k]) return args_[k];
    missing_param_ = static_cast<int>(k);
    return std::nullopt;
  }
  if (f == "mov" || f == "cvt" || f == "cvta") return arg(1);
  const auto a = arg(1), b = arg(2);
  if (f == "neg" && a) return -*a;
  if ((f == "and" || f == "rem") && !a && b && *b >= 1 && *b <= 65536) {
    estimated_ = true;  // a remainder: its mean
    return f == "and" ? *b / 2 : (*b - 1) / 2;
  }
  if (!a || !b) return std::nullopt;
  if (f == "add") return *a + *b;
  if (f == "sub") return *a - *b;
  if (f == "mul" || f == "mul24") return *a * *b;
  if (f == "mad" || f == "mad24") {
    const auto c = arg(3);
    return c ? std::optional<double>(*a * *b + *c) : std::nullopt;
  }
  if (f == "shl") return std::ldexp(*a, static_cast<int>(*b));
  if (f == "shr") return std::floor(std::ldexp(*a, -static_cast<int>(*b)));
  if (f == "div" && *b != 0) return std::trunc(*a / *b);
  if (f == "rem" && *b != 0) return std::fmod(*a, *b);
  if (f == "min") return std::min(*a, *b);
  if (f == "max") return std::max(*a, *b);
  if (f == "and") return static_cast<double>(std::llround(*a) & std::llround(*b));
  return std::nullopt;
}

}  // namespace kopt
