// Trip counts of PTX loops (PtxFlow, ptx_flow.h): the loop's exit test compares an induction
// register (one add of a constant per iteration, possibly through one more add) with a bound
// that does not change in the loop; start, step and bound are evaluated with the constants,
// the launch configuration and the arguments given.
#include <algorithm>
#include <cmath>
#include <span>

#include <fmt/format.h>

#include "tools/roofline/ptx_flow.h"
#include "util/strings.h"

namespace kopt {

namespace {

constexpr double kMaxTrips = 1e9;

std::string predicate(const std::string& guard) {
  return guard.empty() || guard[0] != '!' ? guard : guard.substr(1);
}

// Iterations from start to bound: by steps, or by factors (s *= 2, s >>= 1 down to 0).
double iteration_count(const PtxInduction& iv, double bound) {
  if (!iv.geometric) return std::ceil((bound - *iv.start) / iv.step) + iv.extra;
  if (*iv.start <= 0 || iv.step <= 0 || iv.step == 1) return 1;
  const double last = bound > 0 ? bound : 1;  // a halving loop runs while s > 0: down to 1
  const double trips = std::ceil(std::log(last / *iv.start) / std::log(iv.step));
  return (bound > 0 ? trips : trips + 1) + iv.extra;
}

}  // namespace

std::optional<PtxInduction> PtxFlow::induction(const std::string& reg, const PtxLoop& loop,
                                               int depth) const {
  auto it = defs_.find(reg);
  if (it == defs_.end() || depth > 2) return std::nullopt;
  std::vector<size_t> inside, before;
  for (size_t d : it->second) (d >= loop.begin && d <= loop.end ? inside : before).push_back(d);
  if (inside.size() != 1) return std::nullopt;
  const PtxInstruction* step_def = &body_[inside.front()];
  bool rotated = false;
  if (starts_with(step_def->opcode, "mov.") && step_def->operands.size() == 2) {
    // A rotated register: reg = next; next = reg + step (compared before the increment). The
    // start is next's value before the loop where it has one, else reg's.
    auto next = defs_.find(step_def->operands[1]);
    if (next == defs_.end()) return std::nullopt;
    std::vector<size_t> next_inside, next_before;
    for (size_t d : next->second)
      (d >= loop.begin && d <= loop.end ? next_inside : next_before).push_back(d);
    if (next_inside.size() != 1) return std::nullopt;
    step_def = &body_[next_inside.front()];
    if (step_def->operands.size() != 3 || step_def->operands[1] != reg) return std::nullopt;
    if (!next_before.empty()) before = next_before;
    rotated = true;
  }
  const std::string& op = step_def->opcode;
  const bool add = starts_with(op, "add."), sub = starts_with(op, "sub.");
  const bool geometric = starts_with(op, "shl.") || starts_with(op, "shr.") ||
                         starts_with(op, "mul.lo.") || starts_with(op, "div.");
  if ((!add && !sub && !geometric) || step_def->operands.size() != 3) return std::nullopt;
  const std::string& from = step_def->operands[1];
  if (add && from != reg && step_def == &body_[inside.front()] &&
      (updated_in(from, loop) || updated_in(step_def->operands[2], loop)) &&
      !(updated_in(from, loop) && updated_in(step_def->operands[2], loop)))
    if (auto offset = offset_induction(inside.front(), loop, depth)) return offset;
  auto step = value(step_def->operands[2]);
  if (!step) return std::nullopt;
  if (sub) *step = -*step;
  if (starts_with(op, "shl.") || starts_with(op, "shr."))
    *step = std::ldexp(1.0, static_cast<int>(starts_with(op, "shl.") ? *step : -*step));
  if (starts_with(op, "div.") && *step != 0) *step = 1 / *step;
  if (from == reg) {  // reg = reg + step; its start is its last definition before the loop
    std::optional<size_t> start_def;
    for (size_t d : before)
      if (d < loop.begin) start_def = d;
    if (!start_def) return std::nullopt;
    // A rotated register holds the value before the increment: the body runs once more.
    return PtxInduction{evaluate(body_[*start_def], 0), *step, geometric, rotated ? 1.0 : 0.0};
  }
  auto inner = induction(from, loop, depth + 1);  // reg = iv + c, compared after the increment
  if (!inner || inner->geometric != geometric) return std::nullopt;
  if (inner->start) *inner->start = geometric ? *inner->start * *step : *inner->start + *step;
  inner->extra = 1;  // the test reads the next value: the body runs once more than it passes
  return inner;
}

bool PtxFlow::updated_in(const std::string& reg, const PtxLoop& loop) const {
  auto it = defs_.find(reg);
  if (it == defs_.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(),
                     [&](size_t d) { return d >= loop.begin && d <= loop.end; });
}

// reg = iv + off, off loop-invariant and iv an induction register (nvcc's unrolled loops count
// (n & 3) - n + i up to 0): iv's start moved by off, compared after iv's increment when that
// comes first in the body.
std::optional<PtxInduction> PtxFlow::offset_induction(size_t def, const PtxLoop& loop,
                                                      int depth) const {
  const PtxInstruction& sum = body_[def];
  for (int side = 1; side <= 2; ++side) {
    if (updated_in(sum.operands[3 - side], loop)) continue;
    const auto offset = value(sum.operands[3 - side]);
    if (!offset) continue;
    auto iv = induction(sum.operands[side], loop, depth + 1);
    if (!iv || iv->geometric || !iv->start) continue;
    *iv->start += *offset;
    auto defs = defs_.find(sum.operands[side]);
    for (size_t d : defs->second)
      if (d >= loop.begin && d <= loop.end && d > def) iv->extra = 1;
    return iv;
  }
  return std::nullopt;
}

// Whether `reg` changes in the loop only as a value reread from addresses the loop does not
// change and never writes, by a load that must go to memory each time (volatile, acquire,
// relaxed: a flag another thread sets), possibly through a few operations. A plain load the
// compiler repeats because the loop may write there is a counter, not a wait.
bool PtxFlow::polled(const std::string& reg, const PtxLoop& loop, int depth) const {
  auto it = defs_.find(reg);
  if (it == defs_.end() || depth > 3) return false;
  bool reread = false;
  for (size_t d : it->second) {
    if (d < loop.begin || d > loop.end) continue;
    const PtxInstruction& def = body_[d];
    const bool load = starts_with(def.opcode, "ld.") && !starts_with(def.opcode, "ld.param");
    if (load && !rereads_memory(def, loop)) return false;
    reread = reread || load;
    for (size_t k = 1; k < def.operands.size(); ++k)
      for (const auto& r : operand_registers(def.operands[k])) {
        if (!updated_in(r, loop)) continue;
        if (load || !polled(r, loop, depth + 1)) return false;
        reread = true;
      }
  }
  return reread;
}

// A load that reads memory anew each time from an address no store, atomic or reduction of the
// loop writes.
bool PtxFlow::rereads_memory(const PtxInstruction& load, const PtxLoop& loop) const {
  const std::string& op = load.opcode;
  const bool fresh = op.find(".volatile") != std::string::npos ||
                     op.find(".acquire") != std::string::npos ||
                     op.find(".relaxed") != std::string::npos;
  if (!fresh || op.find(".local") != std::string::npos || load.operands.size() < 2) return false;
  for (size_t i = loop.begin; i <= loop.end; ++i) {
    const std::string& w = body_[i].opcode;
    const bool writes = starts_with(w, "st.") || starts_with(w, "atom.") || starts_with(w, "red.");
    if (writes && std::find(body_[i].operands.begin(), body_[i].operands.end(), load.operands[1]) !=
                      body_[i].operands.end())
      return false;
  }
  return true;
}

void PtxFlow::count_trips(PtxLoop& loop, double default_trips) {
  loop.trips = default_trips;
  size_t branch = loop.end;
  if (body_[branch].guard.empty()) {  // a top-tested loop: its first exit
    for (size_t i = loop.begin; i <= loop.end; ++i) {
      const auto& inst = body_[i];
      if (!starts_with(inst.opcode, "bra") || inst.guard.empty() || inst.operands.empty()) continue;
      auto target = std::find_if(body_.begin(), body_.end(), [&](const PtxInstruction& s) {
        return s.label == inst.operands.back();
      });
      const auto at = static_cast<size_t>(target - body_.begin());
      if (target != body_.end() && (at < loop.begin || at > loop.end)) {
        branch = i;
        break;
      }
    }
  }
  const std::string pred = predicate(body_[branch].guard);
  const PtxInstruction* test = nullptr;
  for (size_t i = branch; i > loop.begin && !pred.empty(); --i) {
    const PtxInstruction& setp = body_[i - 1];
    if (!starts_with(setp.opcode, "setp.") || setp.operands.empty()) continue;
    const auto written = operand_registers(setp.operands[0]);  // none in a malformed operand
    if (!written.empty() && written.front() == pred) {
      test = &setp;
      break;
    }
  }
  if (!test || test->operands.size() < 3) {
    loop.bound = "no exit test found";
    return;
  }
  missing_param_ = -1;
  estimated_ = false;
  double unrolled = 1;  // the step of an induction register whose bound is unknown
  for (int side = 1; side <= 2; ++side) {
    auto iv = induction(test->operands[side], loop, 0);
    auto bound = iv ? value(test->operands[3 - side]) : std::nullopt;
    if (iv && !iv->geometric && (!bound || !iv->start) && std::abs(iv->step) <= 16)
      unrolled = std::max(unrolled, std::abs(iv->step));
    if (!iv || !bound || !iv->start || iv->step == 0) continue;
    const double trips = iteration_count(*iv, *bound);
    // A count that starts at its bound for the first and the last thread alike runs no
    // iteration (nvcc's remainder loops guard it); one past its bound is clamped to one (the
    // mean thread's start can lie past it while other threads' do not).
    const auto ends = at_both_ends([&]() -> std::optional<std::pair<double, double>> {
      auto at_end = induction(test->operands[side], loop, 0);
      auto end_bound = value(test->operands[3 - side]);
      if (!at_end || !at_end->start || !end_bound) return std::nullopt;
      return std::pair{*at_end->start, *end_bound};
    });
    const bool none = ends && ends->first == ends->second && !iv->geometric && iv->extra == 0;
    loop.trips = none ? 0 : std::clamp(std::isfinite(trips) ? trips : 1.0, 1.0, kMaxTrips);
    loop.known = !estimated_;
    loop.bound = fmt::format("{:g} to {:g} step {:g}{}", *iv->start, *bound, iv->step,
                             estimated_ ? " (a remainder: its mean)" : "");
    return;
  }
  const auto polls = [&](const std::string& op) { return polled(op, loop, 0); };
  const auto fixed = [&](const std::string& op) { return !updated_in(op, loop); };
  const auto operands = std::span(test->operands).subspan(1);
  if (unrolled == 1 && std::any_of(operands.begin(), operands.end(), polls) &&
      std::all_of(operands.begin(), operands.end(),
                  [&](const std::string& op) { return fixed(op) || polls(op); })) {
    loop.trips = 1;
    loop.bound = "a wait on memory (it rereads one address): assumed to find its value at once";
    return;
  }
  loop.trips = std::max(1.0, default_trips / unrolled);
  loop.bound = missing_param_ >= 0 ? "bound depends on parameter " +
                                         std::to_string(missing_param_) + " (not given; --args)"
                                   : "bound not computable statically";
}

}  // namespace kopt
