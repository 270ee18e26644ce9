#include "tools/roofline/ir_cost_model.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "tools/roofline/scev.h"
#include "util/strings.h"

namespace kopt {

namespace {

constexpr double kMaxTrips = 1e12;

const std::set<std::string> kIntOps = {"add", "sub",  "mul",  "sdiv", "udiv", "srem", "urem",
                                       "shl", "lshr", "ashr", "and",  "or",   "xor",  "icmp"};
const std::set<std::string> kFpOps = {"fadd", "fsub", "fmul", "fdiv", "frem"};
// Instructions that cost no issue slot of their own on x86 (folded into addressing, fused with
// a compare, or mere renaming).
const std::set<std::string> kFreeOps = {"phi",  "getelementptr", "br",       "ret",
                                        "sext", "zext",          "trunc",    "bitcast",
                                        "icmp", "unreachable",   "inttoptr", "ptrtoint"};
// Trip count below which a loop's chain does not serialize (see chain_steps).
constexpr double kChainWindow = 32;
// Operations a loop-carried floating-point chain goes through.
const std::set<std::string> kChainOps = {"fadd", "fsub", "fmul", "fdiv", "fneg", "select"};

// One array access with its estimated footprint.
struct Access {
  std::string group;  ///< The array: its base pointer, or the pointer value itself.
  bool store = false;
  double footprint = 0;          ///< Bytes.
  double start = 0;              ///< Lowest offset from the base, when known.
  std::optional<double> extent;  ///< Bytes from the lowest to the highest address touched.
};

struct Cost {
  double fp32 = 0, fp64 = 0, int_ops = 0, special = 0, executed = 0;
  double instructions = 0, divides = 0, roots = 0, chain = 0;
  std::vector<Access> accesses;

  /// Adds a callee's cost `factor` times; its arrays are named by `prefix` and lose their
  /// ranges (they are relative to the callee's parameters).
  void add_call(const Cost& other, double factor, const std::string& prefix) {
    fp32 += factor * other.fp32, fp64 += factor * other.fp64, int_ops += factor * other.int_ops;
    special += factor * other.special, executed += factor * other.executed;
    instructions += factor * other.instructions, divides += factor * other.divides;
    roots += factor * other.roots, chain += factor * other.chain;
    for (Access a : other.accesses) {
      a.group = prefix + a.group, a.footprint *= factor, a.extent.reset();
      accesses.push_back(a);
    }
  }
};

bool is_integer(const std::string& type) {
  const auto x = type.find(" x ");
  const std::string element = type[0] == '<' && x != std::string::npos ? type.substr(x + 3) : type;
  return element.size() > 1 && element[0] == 'i' &&
         std::isdigit(static_cast<unsigned char>(element[1]));
}

const Scev* chain_start(const Scev& s) {
  const Scev* node = &s;
  while (node->kind == Scev::Kind::addrec && !node->operands.empty())
    node = node->operands.front().get();
  return node;
}

void unknowns(const Scev& s, std::vector<std::string>& names) {
  if (s.kind == Scev::Kind::unknown) names.push_back(s.name);
  for (const auto& op : s.operands) unknowns(*op, names);
}

// A std::vector's own members (resize, insert, growth): a length or a sweep over the vector
// they are handed without a known size is the kernel's small container, not the problem's size.
// Algorithms (std::sort over n keys) are not among them: their sweeps are the problem's.
bool is_vector_member(const std::string& function) {
  for (const char* prefix : {"_ZNSt6vector", "_ZNKSt6vector", "_ZNSt12_Vector_base"})
    if (starts_with(function, prefix)) return true;
  return false;
}

class FunctionCoster {
 public:
  FunctionCoster(const IrFunction& f, const ScevFacts* facts, const TripAssumptions& assume,
                 bool entry, StaticCounts& out)
      : f_(f),
        facts_(facts),
        assume_(assume),
        out_(out),
        values_(f, facts, assume, entry,
                [this](const std::string& loop) { return std::optional<double>(trips(loop)); }),
        env_(values_.environment()) {
    feasible_ = feasible_blocks();
    for (const auto& inst : f_.instructions)
      if (!inst.result.empty()) defs_[inst.result] = &inst;
  }

  Cost cost(const std::vector<IrFunction>& module, const std::map<std::string, ScevFacts>& facts,
            int depth) {
    Cost c;
    for (const auto& inst : f_.instructions) add(inst, weight(inst.block), c, module, facts, depth);
    if (facts_) out_.loops += static_cast<int>(facts_->loops.size());
    c.chain += chain_steps();
    return c;
  }

 private:
  // The blocks control can reach from the entry when every branch and switch whose condition
  // is known from constants and the driver's arguments goes its one way (a dispatch on the
  // order of the systems runs one of its instantiations, not all of them). Every block when a
  // terminator is not one kopt reads.
  std::set<std::string> feasible_blocks() {
    std::set<std::string> all;
    std::map<std::string, const IrInstruction*> terminator;
    for (const auto& inst : f_.instructions) all.insert(inst.block), terminator[inst.block] = &inst;
    if (f_.instructions.empty()) return all;
    std::set<std::string> reached;
    std::vector<std::string> work = {f_.instructions.front().block};
    while (!work.empty()) {
      const std::string block = work.back();
      work.pop_back();
      if (!reached.insert(block).second) continue;
      auto it = terminator.find(block);
      if (it == terminator.end()) continue;
      auto next = successors(*it->second);
      if (!next) return all;
      for (auto& label : *next) work.push_back(label);
    }
    return reached;
  }

  // The blocks a terminator may go to (without '%'); nullopt for one kopt does not read.
  std::optional<std::vector<std::string>> successors(const IrInstruction& t) {
    const auto& ops = t.operands;
    auto label = [](const std::string& op) { return op.substr(op[0] == '%' ? 1 : 0); };
    if (t.opcode == "ret" || t.opcode == "unreachable" || t.opcode == "resume")
      return std::vector<std::string>{};
    if (t.opcode == "br" && ops.size() == 1) return std::vector<std::string>{label(ops[0])};
    if (t.opcode == "br" && ops.size() == 3) {
      if (auto condition = invariant_at(ops[0], t.block) ? values_.known(ops[0]) : std::nullopt)
        return std::vector<std::string>{label(*condition != 0 ? ops[1] : ops[2])};
      return std::vector<std::string>{label(ops[1]), label(ops[2])};
    }
    if (t.opcode != "switch" || ops.size() < 2 || ops.size() % 2 != 0) return std::nullopt;
    const auto value = invariant_at(ops[0], t.block) ? values_.known(ops[0]) : std::nullopt;
    std::vector<std::string> next;
    for (size_t i = 2; i + 1 < ops.size(); i += 2) {
      const auto key = values_.operand(ops[i]);
      if (value && key && *key == *value) return std::vector<std::string>{label(ops[i + 1])};
      next.push_back(label(ops[i + 1]));
    }
    if (value) return std::vector<std::string>{label(ops[1])};
    next.push_back(label(ops[1]));
    return next;
  }

  // Whether a branch's condition (or a switch's value) is the same on every iteration of the
  // loops around `block`: a compare of values scalar evolution calls invariant in each (an
  // induction variable's mean says nothing about when its loop exits).
  bool invariant_at(const std::string& condition, const std::string& block) {
    const auto loops = loops_around(block);
    if (loops.empty()) return true;
    std::vector<std::string> operands = {condition};
    for (const auto& inst : f_.instructions)
      if (inst.result == condition && inst.opcode == "icmp") operands = inst.operands;
    for (const auto& operand : operands) {
      if (operand.empty() || operand[0] != '%') continue;  // a constant
      for (const IrLoop* loop : loops)
        if (!invariant_in(operand, *loop)) return false;
    }
    return true;
  }

  // Steps of loop-carried floating-point chains: per loop, the longest chain of dependent
  // operations from a header phi back to itself (a running sum: 1), or through memory (a value
  // loaded, changed and stored at an address the loop does not move: 2, the operation and the
  // store forwarded to the next load), times the loop's iterations. A loop of fewer than
  // kChainWindow iterations is left out: the out-of-order window overlaps the short chains of
  // successive outer iterations.
  double chain_steps() {
    if (!facts_) return 0;
    double steps = 0;
    for (const auto& loop : facts_->loops) {
      if (trips(loop.header) < kChainWindow) continue;
      int longest = memory_chain(loop) ? 2 : 0;
      for (const auto& inst : f_.instructions)
        if (inst.opcode == "phi" && "%" + inst.block == loop.header && is_float(inst.type))
          for (const auto& incoming : inst.operands)
            longest = std::max(longest, chain_length(incoming, inst.result, loop, 0));
      if (longest > 0) steps += longest * weight(loop.header.substr(1));
    }
    return steps;
  }

  // Dependent floating-point operations from `value` back to `phi`, within `loop`; 0 when
  // `value` does not depend on it.
  int chain_length(const std::string& value, const std::string& phi, const IrLoop& loop,
                   int depth) {
    if (value == phi) return 0;
    auto it = defs_.find(value);
    if (depth > 12 || it == defs_.end() || !loop.blocks.contains(it->second->block)) return -1;
    const IrInstruction& inst = *it->second;
    const bool through = inst.opcode == "phi";
    const bool op = kChainOps.contains(inst.opcode) || is_fma_call(inst);
    if (!through && !op) return -1;
    int best = -1;
    for (const auto& operand : inst.operands) {
      const int length = chain_length(operand, phi, loop, depth + 1);
      if (length >= 0) best = std::max(best, length + (op ? 1 : 0));
    }
    return depth == 0 ? std::max(best, 0) : best;
  }

  // A store in `loop` of a value computed from a load of the same loop-invariant address.
  bool memory_chain(const IrLoop& loop) {
    for (const auto& store : f_.instructions) {
      if (store.opcode != "store" || !loop.blocks.contains(store.block) ||
          !invariant_in(store.pointer, loop))
        continue;
      for (const auto& load : f_.instructions)
        if (load.opcode == "load" && load.pointer == store.pointer &&
            loop.blocks.contains(load.block) && is_float(load.type))
          return true;
    }
    return false;
  }

  bool invariant_in(const std::string& pointer, const IrLoop& loop) const {
    const auto* dispositions = facts_ ? find_in(facts_->dispositions, pointer) : nullptr;
    if (!dispositions) return false;
    auto it = dispositions->find(loop.header);
    return it != dispositions->end() && it->second == "Invariant";
  }

  static bool is_fma_call(const IrInstruction& inst) {
    return inst.opcode == "call" &&
           (starts_with(inst.callee, "@llvm.fmuladd") || starts_with(inst.callee, "@llvm.fma."));
  }

  static bool is_float(const std::string& type) {
    const auto [lanes, bits] = type_shape(type);
    return lanes > 0 &&
           (type.find("double") != std::string::npos || type.find("float") != std::string::npos);
  }

  // A loop's trip count: scalar evolution's count where it evaluates; the size for a sweep over
  // a container (a count that is a pointer difference) unless the loops around it already
  // sweep the size (then it is a small container per element); else the default.
  double trips(const std::string& header) {
    if (auto it = trips_.find(header); it != trips_.end()) return it->second;
    trips_[header] = assume_.default_trips;  // guards against cycles
    const IrLoop* loop = find_loop(header);
    const std::string count = loop ? loop->backedge_count : "";
    std::optional<double> counted;
    if (auto expr = count.empty() ? std::nullopt : parse_scev(count))
      counted = evaluate(**expr, env_);
    if (!counted && loop)
      for (const auto& exit : loop->exit_counts)  // the computable exit; the others are errors
        if (auto expr = parse_scev(exit))
          if (auto v = evaluate(**expr, env_)) counted = std::max(counted.value_or(*v), *v);
    double value = assume_.default_trips;
    if (counted)
      value = std::clamp(*counted + 1, 1.0, kMaxTrips);
    else if (count.find("ptrtoint") != std::string::npos && outer_trips(*loop) < assume_.size)
      value = assume_.size;
    if (!counted) ++out_.unknown_trip_loops;
    if (loop) out_.trips.push_back({f_.name, header, loop->depth, value, count, !counted});
    return trips_[header] = value;
  }

  double outer_trips(const IrLoop& inner) {
    double product = 1;
    for (const IrLoop* loop : loops_around(inner.header.substr(1)))
      if (loop != &inner) product *= trips(loop->header);
    return product;
  }

  const IrLoop* find_loop(const std::string& header) const {
    if (!facts_) return nullptr;
    for (const auto& loop : facts_->loops)
      if (loop.header == header) return &loop;
    return nullptr;
  }

  std::vector<const IrLoop*> loops_around(const std::string& block) const {
    std::vector<const IrLoop*> loops;
    if (facts_)
      for (const auto& loop : facts_->loops)
        if (loop.blocks.contains(block)) loops.push_back(&loop);
    return loops;
  }

  double weight(const std::string& block) {
    if (!feasible_.contains(block)) return 0;
    double w = 1;
    for (const IrLoop* loop : loops_around(block)) w *= trips(loop->header);
    return std::min(w, 1e18);
  }

  void add(const IrInstruction& inst, double w, Cost& c, const std::vector<IrFunction>& module,
           const std::map<std::string, ScevFacts>& facts, int depth) {
    const auto [lanes, bits] = type_shape(inst.type);
    if (!kFreeOps.contains(inst.opcode) && !starts_with(inst.callee, "@llvm.lifetime") &&
        !starts_with(inst.callee, "@llvm.dbg"))
      c.instructions += w;
    const bool root = inst.opcode == "call" && inst.callee.find("sqrt") != std::string::npos;
    if (inst.opcode == "fdiv" || root) c.divides += w;
    if (root) c.roots += w * std::max(lanes, 1);
    if (kFpOps.contains(inst.opcode) && (bits == 64 || bits == 32))
      (bits == 64 ? c.fp64 : c.fp32) += w * lanes;
    else if (kIntOps.contains(inst.opcode) && is_integer(inst.type))
      c.int_ops += w * lanes;
    else if (inst.opcode == "load" || inst.opcode == "store")
      access(inst, w, lanes * bits / 8.0, c);
    else if (inst.opcode == "call" || inst.opcode == "invoke")
      call(inst, w, lanes, bits, c, module, facts, depth);
  }

  void call(const IrInstruction& inst, double w, int lanes, int bits, Cost& c,
            const std::vector<IrFunction>& module, const std::map<std::string, ScevFacts>& facts,
            int depth) {
    const std::string callee = inst.callee.empty() ? "" : inst.callee.substr(1);
    if (starts_with(callee, "llvm.fmuladd") || starts_with(callee, "llvm.fma.")) {
      (bits == 64 ? c.fp64 : c.fp32) += 2 * w * lanes;
      return;
    }
    if (starts_with(callee, "llvm.memcpy") || starts_with(callee, "llvm.memset") ||
        starts_with(callee, "llvm.memmove")) {
      note("memcpy/memset calls are not counted");
      return;
    }
    if (starts_with(callee, "llvm.masked.gather") || starts_with(callee, "llvm.masked.load")) {
      c.executed += w * lanes * bits / 8.0;  // elements anywhere: their footprint is unknown
      return;
    }
    if (starts_with(callee, "llvm.") || callee.empty()) {
      if (callee.find("sqrt") != std::string::npos || callee.find("exp") != std::string::npos ||
          callee.find("log") != std::string::npos || callee.find("pow") != std::string::npos)
        c.special += w * std::max(lanes, 1);
      return;
    }
    for (const auto& f : module) {
      if (f.name != callee || depth > 3) continue;
      auto it = facts.find(f.name);
      StaticCounts scratch;
      TripAssumptions at_call = assume_;  // the callee's parameters get the call's arguments
      at_call.arguments.clear();
      if (is_vector_member(callee)) at_call.size = at_call.default_trips;
      for (const auto& arg : inst.operands) at_call.arguments.push_back(values_.operand(arg));
      FunctionCoster inner(f, it == facts.end() ? nullptr : &it->second, at_call, true, scratch);
      c.add_call(inner.cost(module, facts, depth + 1), w, callee + ":");
      out_.loops += scratch.loops, out_.unknown_trip_loops += scratch.unknown_trip_loops;
      return;
    }
    c.special += w;  // exp, sqrt, pow, ... in libm, or another external function
  }

  void access(const IrInstruction& inst, double w, double bytes, Cost& c) {
    if (bytes <= 0) return;
    c.executed += w * bytes;
    Access a;
    a.store = inst.opcode == "store";
    a.group = inst.pointer;
    const std::string* text = facts_ ? find_in(facts_->scev, inst.pointer) : nullptr;
    const auto scev = text ? parse_scev(*text) : std::nullopt;
    if (scev && on_stack(**scev)) return;  // a local array: scratch the caches hold
    double count = 1;
    for (const IrLoop* loop : loops_around(inst.block))
      if (!invariant_in(inst.pointer, *loop) && (!scev || moves_with(**scev, *loop)))
        count *= trips(loop->header);
    a.footprint = count * bytes;
    if (scev) {
      const Scev* start = chain_start(**scev);
      a.group = base_pointer(*start);
      if (auto extent = span(**scev, env_)) {
        a.extent = *extent + bytes;
        a.footprint = std::min(a.footprint, *a.extent);
        a.start = evaluate(*start, env_).value_or(0);
      }
    }
    c.accesses.push_back(a);
  }

  // Whether an address can differ from one iteration of `loop` to the next: it recurs over
  // the loop, or it is computed from a value the loop defines (but a pointer the loop loads
  // from a fixed place it never stores to, such as a container's start). An inner loop's
  // sweep from a start fixed outside `loop` (scalar evolution calls it variant there) covers
  // the same addresses on every iteration, so a time-step loop around a sweep does not
  // multiply its footprint.
  bool moves_with(const Scev& address, const IrLoop& loop) {
    for (const auto& header : recurrence_loops(address))
      if (header == loop.header) return true;
    std::vector<std::string> names;
    unknowns(address, names);
    return std::any_of(names.begin(), names.end(), [&](const std::string& name) {
      auto it = defs_.find(name);
      if (it == defs_.end() || !loop.blocks.contains(it->second->block)) return false;
      return it->second->opcode != "load" || !fixed_in(it->second->pointer, loop);
    });
  }

  // Whether `pointer` names the same place on every iteration of `loop` and the loop never
  // stores there.
  bool fixed_in(const std::string& pointer, const IrLoop& loop) const {
    auto it = defs_.find(pointer);
    const bool defined_inside = it != defs_.end() && loop.blocks.contains(it->second->block);
    if (pointer.empty() || (defined_inside && !invariant_in(pointer, loop))) return false;
    return std::none_of(f_.instructions.begin(), f_.instructions.end(), [&](const auto& inst) {
      return inst.opcode == "store" && inst.pointer == pointer && loop.blocks.contains(inst.block);
    });
  }

  // Whether an address is in one of the function's own stack objects of a fixed size (an
  // alloca without a variable count): a local array or struct is reused on every call and
  // iteration, so its bytes are not compulsory. A variable-length array is sized by the
  // problem and counts.
  bool on_stack(const Scev& address) const {
    std::vector<std::string> names;
    unknowns(*chain_start(address), names);
    return std::any_of(names.begin(), names.end(), [&](const std::string& name) {
      auto it = defs_.find(name);
      if (it == defs_.end() || it->second->opcode != "alloca") return false;
      const auto& count = it->second->operands;
      return count.empty() || count.front().empty() || count.front()[0] != '%';
    });
  }

  // The array an address starts from: the pointer parameter (or other pointer) in its start.
  std::string base_pointer(const Scev& start) const {
    std::vector<std::string> names;
    unknowns(start, names);
    for (const auto& name : names)
      for (const auto& [type, param] : f_.params)
        if (param == name && (type.back() == '*' || type == "ptr")) return name;
    return names.empty() ? std::string("?") : join(names, "+");
  }

  template <class Map>
  static const typename Map::mapped_type* find_in(const Map& map, const std::string& key) {
    auto it = map.find(key);
    return it == map.end() ? nullptr : &it->second;
  }

  void note(const std::string& text) {
    if (std::find(out_.notes.begin(), out_.notes.end(), text) == out_.notes.end())
      out_.notes.push_back(text);
  }

  const IrFunction& f_;
  const ScevFacts* facts_;
  const TripAssumptions& assume_;
  StaticCounts& out_;
  IrValues values_;
  const ScevEnvironment& env_;
  std::map<std::string, double> trips_;
  std::map<std::string, const IrInstruction*> defs_;
  std::set<std::string> feasible_;
};

// Bytes of all accesses: per array and direction, the union of ranges or the sum of
// footprints, whichever is smaller.
double merged_bytes(const std::vector<Access>& accesses) {
  std::map<std::pair<std::string, bool>, std::vector<const Access*>> groups;
  for (const auto& a : accesses) groups[{a.group, a.store}].push_back(&a);
  double total = 0;
  for (const auto& [key, members] : groups) {
    double sum = 0, lo = 1e300, hi = -1e300;
    bool ranged = true;
    for (const Access* a : members) {
      sum += a->footprint;
      ranged = ranged && a->extent.has_value();
      if (a->extent) lo = std::min(lo, a->start), hi = std::max(hi, a->start + *a->extent);
    }
    total += ranged ? std::min(sum, hi - lo) : sum;
  }
  return total;
}

}  // namespace

bool names_function(const std::string& ir_name, const std::string& name) {
  if (ir_name == name) return true;
  return starts_with(ir_name, "_Z") && ir_name.find(std::to_string(name.size()) + name) == 2;
}

StaticCounts cost_module(const std::vector<IrFunction>& functions,
                         const std::map<std::string, ScevFacts>& facts,
                         const std::vector<std::string>& entries, const TripAssumptions& assume) {
  StaticCounts out;
  Cost total;
  for (const auto& f : functions) {
    if (std::none_of(entries.begin(), entries.end(),
                     [&](const auto& e) { return names_function(f.name, e); }))
      continue;
    auto it = facts.find(f.name);
    FunctionCoster coster(f, it == facts.end() ? nullptr : &it->second, assume, true, out);
    Cost cost = coster.cost(functions, facts, 0);
    total.fp32 += cost.fp32, total.fp64 += cost.fp64, total.int_ops += cost.int_ops;
    total.special += cost.special, total.executed += cost.executed;
    total.instructions += cost.instructions, total.divides += cost.divides;
    total.roots += cost.roots, total.chain += cost.chain;
    total.accesses.insert(total.accesses.end(), cost.accesses.begin(), cost.accesses.end());
    out.counters.kernel = out.counters.kernel.empty() ? f.name : out.counters.kernel + "," + f.name;
  }
  out.counters.fp32_flops = total.fp32;
  out.counters.fp64_flops = total.fp64;
  out.counters.int_ops = total.int_ops;
  out.special_calls = total.special;
  out.executed_bytes = total.executed;
  out.instructions = total.instructions;
  out.divides = total.divides;
  out.square_roots = total.roots;
  out.chain_steps = total.chain;
  out.counters.dram_bytes = merged_bytes(total.accesses);
  return out;
}

}  // namespace kopt
