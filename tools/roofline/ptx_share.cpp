// The share of a launch's threads that runs each statement (PtxFlow, ptx_flow.h). A branch on a
// predicate that compares a thread index with a constant (threadIdx.x == 0, lane == 0, warp
// == 0, threadIdx.x < 32) sends only a known share of the threads one way; a comparison of two
// values computable where it stands sends all of them one way; every other branch is assumed
// to send all of them both ways. A block's share is the sum of what its edges bring in, at
// most its immediate dominator's (ways that split and join again add up to what they began
// with; two guards in a row count as the more restrictive one, not their product).
#include <algorithm>
#include <cmath>
#include <map>

#include "tools/roofline/ptx_flow.h"
#include "util/strings.h"

namespace kopt {

namespace {

constexpr int kMaxPasses = 64;
constexpr int kMaxSettledDepth = 24;

// A whole-number literal operand (a constant a thread index is compared with or shifted by).
std::optional<double> whole(const std::string& text) {
  const auto v = ptx_immediate(text);
  return v && *v == std::floor(*v) ? v : std::nullopt;
}

bool is_power_of_two(double v) {
  return v >= 1 && std::exp2(std::round(std::log2(v))) == v;
}

}  // namespace

// The values a register can hold as a function of one thread index, each equally often:
// threadIdx.x itself (block.x values), a lane (x & 31, x % 32: 32), a warp (x >> 5, x / 32).
std::optional<double> PtxFlow::index_range(const std::string& reg, int depth) const {
  if (depth > 6) return std::nullopt;
  if (starts_with(reg, "%tid."))
    return launch_.block[reg.back() == 'y' ? 1 : reg.back() == 'z' ? 2 : 0];
  if (reg == "%laneid") return 32;
  auto it = defs_.find(reg);
  if (it == defs_.end() || it->second.size() != 1) return std::nullopt;
  const PtxInstruction& def = body_[it->second.front()];
  const std::string& op = def.opcode;
  if ((starts_with(op, "mov.") || starts_with(op, "cvt.")) && def.operands.size() == 2)
    return index_range(def.operands[1], depth + 1);
  if (def.operands.size() != 3) return std::nullopt;
  const auto range = index_range(def.operands[1], depth + 1);
  const auto k = whole(def.operands[2]);
  if (!range || !k || *k < 0) return std::nullopt;
  if (starts_with(op, "shr.") && *k < 31) return std::max(1.0, std::ceil(*range / std::exp2(*k)));
  if (starts_with(op, "div.") && *k >= 1) return std::max(1.0, std::ceil(*range / *k));
  if (starts_with(op, "and.") && is_power_of_two(*k + 1)) return std::min(*range, *k + 1);
  if (starts_with(op, "rem.") && *k >= 1) return std::min(*range, *k);
  return std::nullopt;
}

// Whether a register's value at statement `at` is the one value() computes: no definition it
// depends on lies in a loop around `at` or in a loop that ended before `at` (value() takes a
// register's value from before its loops).
bool PtxFlow::settled(const std::string& reg, size_t at, int depth) const {
  if (is_special_register(reg)) return true;
  auto it = defs_.find(reg);
  if (it == defs_.end() || depth > kMaxSettledDepth) return false;
  const auto key = std::make_pair(reg, at);
  if (auto known = settled_.find(key); known != settled_.end()) return known->second;
  settled_[key] = false;  // a cycle through `at` is not settled
  const bool result = settled_here(it->second, at, depth);
  settled_[key] = result;
  return result;
}

bool PtxFlow::settled_here(const std::vector<size_t>& defs, size_t at, int depth) const {
  for (size_t d : defs) {
    const auto around = loops_around(d);
    const bool inside = std::any_of(around.begin(), around.end(), [&](int l) {
      return loops_[l].begin <= at && at <= loops_[l].end;
    });
    if (inside || (!around.empty() && d < at)) return false;
    if (d > at) continue;
    for (size_t k = 1; k < body_[d].operands.size(); ++k)
      for (const auto& r : operand_registers(body_[d].operands[k]))
        if (!settled(r, d, depth + 1)) return false;
  }
  return true;
}

// A comparison of two values computable where it stands (no loop changes them) that comes out
// the same for the launch's first and last thread: all threads one way ({1, 0} or {0, 1});
// nvcc guards its unrolled loops so. One that differs between them is unknown.
PtxFlow::Odds PtxFlow::evaluated(const PtxInstruction& setp, const std::string& cmp) const {
  const size_t at = static_cast<size_t>(&setp - body_.data());
  for (size_t k = 1; k < 3; ++k)
    for (const auto& r : operand_registers(setp.operands[k]))
      if (!settled(r, at, 0)) return {1, 1};
  const auto holds = at_both_ends([&]() -> std::optional<bool> {
    estimated_ = false;
    const auto a = value(setp.operands[1]), b = value(setp.operands[2]);
    if (!a || !b || estimated_) return std::nullopt;  // not on a remainder's mean
    if (cmp == "eq") return *a == *b;
    if (cmp == "ne") return *a != *b;
    if (cmp == "lt" || cmp == "lo") return *a < *b;
    if (cmp == "le" || cmp == "ls") return *a <= *b;
    if (cmp == "gt" || cmp == "hi") return *a > *b;
    if (cmp == "ge" || cmp == "hs") return *a >= *b;
    return std::nullopt;
  });
  if (!holds) return {1, 1};
  return *holds ? Odds{1, 0} : Odds{0, 1};
}

// The shares of threads for which a predicate is true and false; {1, 1} where unknown.
PtxFlow::Odds PtxFlow::odds(const std::string& pred, int depth) const {
  const Odds unknown{1, 1};
  auto it = defs_.find(pred);
  if (depth > 6 || it == defs_.end() || it->second.size() != 1) return unknown;
  const PtxInstruction& def = body_[it->second.front()];
  const std::string& op = def.opcode;
  if (starts_with(op, "not.pred") && def.operands.size() == 2) {
    const Odds o = odds(def.operands[1], depth + 1);
    return {o.if_false, o.if_true};
  }
  if ((starts_with(op, "or.pred") || starts_with(op, "and.pred")) && def.operands.size() == 3) {
    const Odds a = odds(def.operands[1], depth + 1), b = odds(def.operands[2], depth + 1);
    if (starts_with(op, "or."))
      return {std::min(1.0, a.if_true + b.if_true), std::min(a.if_false, b.if_false)};
    return {std::min(a.if_true, b.if_true), std::min(1.0, a.if_false + b.if_false)};
  }
  if (!starts_with(op, "setp.") || def.operands.size() != 3) return unknown;
  const std::string written = split(op, '.').size() > 1 ? split(op, '.')[1] : "";
  std::string cmp = written;
  auto range = index_range(def.operands[1]);
  auto k = whole(def.operands[2]);
  if (!range || !k) {  // the constant first: k < x is x > k
    range = index_range(def.operands[2]);
    k = whole(def.operands[1]);
    const std::map<std::string, std::string> mirror = {
        {"lt", "gt"}, {"le", "ge"}, {"gt", "lt"}, {"ge", "le"}, {"lo", "hi"},
        {"ls", "hs"}, {"hi", "lo"}, {"hs", "ls"}, {"eq", "eq"}, {"ne", "ne"}};
    cmp = mirror.contains(cmp) ? mirror.at(cmp) : "";
  }
  if (!range || !k || *range < 1) return evaluated(def, written);
  const double r = *range;
  const auto below = [&](double bound) { return std::clamp(bound / r, 0.0, 1.0); };  // x < bound
  double p = -1;
  if (cmp == "eq") p = *k >= 0 && *k < r ? 1 / r : 0;
  if (cmp == "ne") p = *k >= 0 && *k < r ? 1 - 1 / r : 1;
  if (cmp == "lt" || cmp == "lo") p = below(*k);
  if (cmp == "le" || cmp == "ls") p = below(*k + 1);
  if (cmp == "gt" || cmp == "hi") p = 1 - below(*k + 1);
  if (cmp == "ge" || cmp == "hs") p = 1 - below(*k);
  if (p < 0) return unknown;
  return {p, 1 - p};
}

namespace {

// The body's basic blocks: statement ranges ending at a branch, a return or before a label.
struct Block {
  size_t begin = 0, end = 0;                  ///< Statements [begin, end).
  std::vector<std::pair<size_t, bool>> next;  ///< Successor block, and whether by the branch.
  std::vector<size_t> prev;
  size_t rpo = SIZE_MAX;  ///< Position in reverse postorder; SIZE_MAX: unreachable.
  size_t idom = SIZE_MAX;
};

std::vector<Block> split_blocks(const std::vector<PtxInstruction>& body) {
  std::vector<Block> blocks;
  std::map<std::string, size_t> label_block;
  for (size_t i = 0; i < body.size(); ++i) {
    if (blocks.empty() || (!body[i].label.empty() && blocks.back().end > blocks.back().begin) ||
        blocks.back().end < i)
      blocks.push_back({i, i, {}, {}});
    blocks.back().end = i + 1;
    if (!body[i].label.empty()) label_block[body[i].label] = blocks.size() - 1;
    if (is_ptx_branch(body[i]) || ends_ptx_flow(body[i])) blocks.push_back({i + 1, i + 1, {}, {}});
  }
  while (!blocks.empty() && blocks.back().end == blocks.back().begin) blocks.pop_back();
  for (size_t b = 0; b < blocks.size(); ++b) {
    const PtxInstruction& last = body[blocks[b].end - 1];
    if (is_ptx_branch(last))
      if (auto t = label_block.find(last.operands.back()); t != label_block.end())
        blocks[b].next.push_back({t->second, true});
    const bool falls = !(is_ptx_branch(last) || ends_ptx_flow(last)) || !last.guard.empty();
    if (falls && b + 1 < blocks.size()) blocks[b].next.push_back({b + 1, false});
    for (const auto& [to, taken] : blocks[b].next) blocks[to].prev.push_back(b);
  }
  return blocks;
}

// Reverse postorder from the entry (iteratively: a body can hold thousands of blocks).
std::vector<size_t> reverse_postorder(std::vector<Block>& blocks) {
  std::vector<size_t> post;
  std::vector<char> seen(blocks.size(), 0);
  std::vector<std::pair<size_t, size_t>> stack = {{0, 0}};
  seen[0] = 1;
  while (!stack.empty()) {
    auto& [b, k] = stack.back();
    if (k < blocks[b].next.size()) {
      const size_t to = blocks[b].next[k++].first;
      if (!seen[to]) {
        seen[to] = 1;
        stack.push_back({to, 0});
      }
      continue;
    }
    post.push_back(b);
    stack.pop_back();
  }
  std::reverse(post.begin(), post.end());
  for (size_t k = 0; k < post.size(); ++k) blocks[post[k]].rpo = k;
  return post;
}

// Immediate dominators (Cooper, Harvey and Kennedy's iteration over the reverse postorder).
void find_dominators(std::vector<Block>& blocks, const std::vector<size_t>& order) {
  blocks[0].idom = 0;
  auto meet = [&](size_t a, size_t b) {
    while (a != b) {
      while (blocks[a].rpo > blocks[b].rpo) a = blocks[a].idom;
      while (blocks[b].rpo > blocks[a].rpo) b = blocks[b].idom;
    }
    return a;
  };
  for (int pass = 0, changed = 1; changed && pass < kMaxPasses; ++pass) {
    changed = 0;
    for (size_t k = 1; k < order.size(); ++k) {
      Block& block = blocks[order[k]];
      size_t idom = SIZE_MAX;
      for (size_t p : block.prev)
        if (blocks[p].idom != SIZE_MAX) idom = idom == SIZE_MAX ? p : meet(p, idom);
      if (idom != block.idom) {
        block.idom = idom;
        changed = 1;
      }
    }
  }
}

bool dominates(const std::vector<Block>& blocks, size_t a, size_t b) {
  for (size_t walk = b;; walk = blocks[walk].idom) {
    if (walk == a) return true;
    if (walk == 0 || blocks[walk].idom == SIZE_MAX) return false;
  }
}

}  // namespace

// A block's share is what its edges bring in (a branch on a thread index splits its block's
// share by the predicate's odds; any other edge carries the whole), at most its immediate
// dominator's share (paths that split and join again never add up to more than they began
// with); a loop's back edges bring nothing: its trips count its repetitions.
void PtxFlow::find_shares() {
  shares_.assign(body_.size(), 0.0);
  if (body_.empty()) return;
  std::vector<Block> blocks = split_blocks(body_);
  const std::vector<size_t> order = reverse_postorder(blocks);
  find_dominators(blocks, order);
  std::vector<double> block_share(blocks.size(), 0.0);
  auto edge_share = [&](size_t from, bool taken) {
    const PtxInstruction& last = body_[blocks[from].end - 1];
    if (last.guard.empty() || !(is_ptx_branch(last) || ends_ptx_flow(last)))
      return block_share[from];
    const bool negated = last.guard[0] == '!';
    const Odds o = odds(negated ? last.guard.substr(1) : last.guard);
    return std::min(block_share[from], taken != negated ? o.if_true : o.if_false);
  };
  for (size_t b : order) {
    double in = b == 0 ? 1.0 : 0.0;
    for (size_t p : blocks[b].prev) {
      if (blocks[p].rpo == SIZE_MAX || (blocks[b].rpo <= blocks[p].rpo && dominates(blocks, b, p)))
        continue;  // unreachable, or a back edge
      for (const auto& [to, taken] : blocks[p].next)
        if (to == b) in += edge_share(p, taken);
    }
    const size_t idom = blocks[b].idom;
    block_share[b] = b == 0 ? 1.0 : std::min({in, 1.0, idom == SIZE_MAX ? 1.0 : block_share[idom]});
    for (size_t i = blocks[b].begin; i < blocks[b].end; ++i) shares_[i] = block_share[b];
  }
  for (size_t i = 0; i < body_.size(); ++i) {  // a predicated statement runs where it holds
    const std::string& g = body_[i].guard;
    if (g.empty() || is_ptx_branch(body_[i])) continue;
    const Odds o = odds(g[0] == '!' ? g.substr(1) : g);
    shares_[i] = std::min(shares_[i], g[0] == '!' ? o.if_false : o.if_true);
  }
}

double PtxFlow::share(size_t index) const {
  return index < shares_.size() ? shares_[index] : 1.0;
}

}  // namespace kopt
