#include "tools/roofline/ptx_cost.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>

#include "tools/eval/static_check.h"
#include "tools/roofline/ptx_ops.h"
#include "util/strings.h"

namespace kopt {

namespace {

// One address register's accesses in one direction.
struct AccessGroup {
  double footprint = 0;  ///< Largest distinct bytes of one member, whole grid.
  double executed = 0;   ///< Bytes executed, whole grid.
  std::set<std::string> offsets;
  bool varies_in_loop = false;
};

double extent_product(unsigned dims, const LaunchConfig& launch) {
  double product = 1;
  for (int a = 0; a < 3; ++a) {
    if (dims & (1u << a)) product *= launch.block[a];
    if (dims & (8u << a)) product *= launch.grid[a];
  }
  return product;
}

std::string address_operand(const PtxInstruction& inst) {
  for (const auto& op : inst.operands)
    if (!op.empty() && op[0] == '[') return op;
  return {};
}

std::string offset_of(const std::string& address) {
  const auto plus = address.find('+');
  return plus == std::string::npos ? "0" : address.substr(plus + 1, address.size() - plus - 2);
}

class KernelCoster {
 public:
  KernelCoster(const std::vector<PtxInstruction>& body, const PtxFunction& entry,
               const PtxOptions& options)
      : body_(body),
        flow_(body, entry.params, options.args, options.launch, options.default_trips) {
    threads_ = extent_product(kThreadDims | kBlockDims, flow_.launch());
  }

  void cost(KernelEstimate& out) {
    PtxOpCount per_thread;
    double executed = 0, atomics = 0;
    for (size_t i = 0; i < body_.size(); ++i) {
      const auto around = flow_.loops_around(i);
      double weight = flow_.share(i);
      for (int l : around) weight *= flow_.loops()[l].trips;
      const PtxOpCount c = count_ptx_op(body_[i]);
      per_thread.fp32 += weight * c.fp32, per_thread.fp64 += weight * c.fp64;
      per_thread.int_ops += weight * c.int_ops, per_thread.special += weight * c.special;
      if (!is_global_access(body_[i].opcode)) continue;
      const double bytes = access_bytes(body_[i].opcode);
      executed += weight * bytes;
      if (starts_with(body_[i].opcode, "atom") || starts_with(body_[i].opcode, "red"))
        atomics += weight;
      add_access(body_[i], around, weight * bytes * threads_, bytes);
    }
    out.threads = threads_;
    out.counters.fp32_flops = per_thread.fp32 * threads_;
    out.counters.fp64_flops = per_thread.fp64 * threads_;
    out.counters.int_ops = per_thread.int_ops * threads_;
    out.special_ops = per_thread.special * threads_;
    out.executed_bytes = executed * threads_;
    out.global_atomics = atomics * threads_;
    out.counters.dram_bytes = dram_bytes();
    out.loops = flow_.loops();
  }

  bool reused() const { return reused_; }
  bool indirect() const { return indirect_; }

 private:
  void add_access(const PtxInstruction& inst, const std::vector<int>& around, double executed,
                  double bytes) {
    const std::string address = address_operand(inst);
    const auto regs = operand_registers(address);
    const std::string reg = regs.empty() ? address : regs.front();
    const Dependence dep = regs.empty() ? Dependence{} : flow_.dependence(reg);
    const bool store = starts_with(inst.opcode, "st") || starts_with(inst.opcode, "red");
    AccessGroup& g = groups_[{reg, store}];
    double distinct = bytes * extent_product(dep.dims, flow_.launch());
    for (int l : around)
      if (dep.loops.contains(l) || dep.data) {
        distinct *= flow_.loops()[l].trips;
        g.varies_in_loop = true;
      }
    if (dep.table) {
      distinct = bytes;  // a lookup table of the module: cached
    } else if (dep.data) {
      distinct = executed;
      indirect_ = true;
    }
    distinct = std::min(distinct, executed);
    reused_ = reused_ || distinct < executed;
    g.footprint = std::max(g.footprint, distinct);
    g.executed += executed;
    g.offsets.insert(offset_of(address));
  }

  // Per group: members at other offsets from one register are neighbours (a stencil, sharing
  // the footprint) unless the register moves in a loop (an unrolled loop's distinct elements).
  double dram_bytes() const {
    double total = 0;
    for (const auto& [key, g] : groups_) {
      const double members = g.varies_in_loop ? static_cast<double>(g.offsets.size()) : 1;
      total += std::min(g.footprint * members, g.executed);
    }
    return total;
  }

  const std::vector<PtxInstruction>& body_;
  PtxFlow flow_;
  double threads_ = 1;
  std::map<std::pair<std::string, bool>, AccessGroup> groups_;
  bool reused_ = false, indirect_ = false;
};

void describe(KernelEstimate& e, const KernelCoster& coster, const PtxOptions& options) {
  const auto& l = options.launch;
  e.launch_assumed = !l.given();
  int assumed = 0;
  for (const auto& loop : e.loops) assumed += !loop.known;
  e.assumptions.push_back(fmt::format(
      "{} of {} loops with a known trip count{}", e.loops.size() - assumed, e.loops.size(),
      assumed ? fmt::format("; {} assumed ({:g} iterations where nothing bounds them)", assumed,
                            options.default_trips)
              : ""));
  e.assumptions.push_back(
      e.launch_assumed
          ? fmt::format("launch assumed: {:g} threads (--launch GRID,BLOCK)", e.threads)
          : fmt::format("launch given: {:g} threads", e.threads));
  if (coster.reused())
    e.assumptions.push_back(
        "reuse assumed: data read by many threads or loop iterations is fetched from DRAM once "
        "(shared-memory tiles, L2-resident data, all-pairs loops)");
  if (coster.indirect())
    e.assumptions.push_back("indirect (loaded) addresses assumed to get no reuse");
  if (e.calls_not_inlined)
    e.assumptions.push_back(
        fmt::format("{} calls to functions outside the file not counted", e.calls_not_inlined));
}

// A name as profilers and demanglers both print it: no spaces, no casts on template values
// ("(MorphOpType)1" -> "1"), no integer suffixes ("19u" -> "19"), booleans as 0 and 1.
std::string compact(const std::string& text) {
  static const std::regex kCast(R"(\([A-Za-z_][\w:]*\)(?=-?\d))");
  static const std::regex kSuffix(R"((\d)(?:ul|ull|ll|u|l)\b)", std::regex::icase);
  static const std::regex kTrue(R"(\btrue\b)"), kFalse(R"(\bfalse\b)");
  std::string out;
  for (char ch : text)
    if (ch != ' ') out += ch;
  out = std::regex_replace(out, kCast, "");
  out = std::regex_replace(out, kSuffix, "$1");
  out = std::regex_replace(out, kTrue, "1");
  return std::regex_replace(out, kFalse, "0");
}

// Where a demangled name's parameter list starts: the first '(' outside template arguments.
size_t parameter_list(const std::string& demangled) {
  int depth = 0;
  for (size_t i = 0; i < demangled.size(); ++i) {
    depth += demangled[i] == '<' ? 1 : demangled[i] == '>' ? -1 : 0;
    if (demangled[i] == '(' && depth == 0) return i;
  }
  return demangled.size();
}

}  // namespace

bool kernel_matches(const std::string& wanted, const std::string& demangled,
                    const std::string& symbol) {
  if (wanted.empty() || wanted == symbol) return true;
  std::string name = demangled.substr(0, parameter_list(demangled));
  if (starts_with(name, "void ")) name = name.substr(5);
  const std::string plain = name.substr(0, name.find('<'));
  const std::string w = compact(wanted), n = compact(name), p = compact(plain);
  auto tail_is = [](const std::string& full, const std::string& part) {
    return full == part ||
           (full.size() > part.size() + 1 &&
            full.compare(full.size() - part.size() - 2, std::string::npos, "::" + part) == 0);
  };
  return tail_is(p, w) || tail_is(n, w) || (w.find('<') != std::string::npos && starts_with(n, w));
}

std::vector<KernelEstimate> cost_ptx_kernels(const std::string& ptx, const PtxOptions& options) {
  const std::vector<PtxFunction> module = parse_ptx_module(ptx);
  std::vector<KernelEstimate> out;
  for (const auto& f : module) {
    if (!f.entry || !f.defined) continue;
    KernelEstimate e;
    e.symbol = f.name;
    e.name = demangle(f.name);
    if (!kernel_matches(options.kernel, e.name, e.symbol)) continue;
    const auto body = inline_calls(f, module, e.calls_not_inlined);
    KernelCoster coster(body, f, options);
    coster.cost(e);
    e.counters.kernel = e.name;
    describe(e, coster, options);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace kopt
