#include "tools/eval/check.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>

#include <fmt/format.h>

namespace kopt {

namespace {

constexpr uint64_t kCacheEvidenceElements = 16;

uint64_t element_count(const RecordView& record) {
  uint64_t count = 0;
  for (const auto& array : record.arrays) count += array.count;
  return count;
}

// Whether some array of `record` holds two different elements. An output of one value
// throughout (all zeros: bodies at one point feel no force, equal values have no smaller one)
// is what a wrong kernel's next output may be by default, not evidence of a cache: with the
// check's inputs in a drawn order, nbody's and count_smaller's wrong kernels were named caches.
bool varied(const RecordView& record) {
  for (const auto& array : record.arrays) {
    const size_t bytes = array.count == 0 ? 0 : byte_size(array) / array.count;
    for (uint64_t i = 1; i < array.count; ++i)
      if (std::memcmp(array.data, array.data + i * bytes, bytes) != 0) return true;
  }
  return false;
}

// Keeps, per output name, the largest errors seen so far.
void merge_errors(const std::vector<OutputError>& call, std::vector<OutputError>& kept) {
  for (const OutputError& e : call) {
    auto it = std::find_if(kept.begin(), kept.end(),
                           [&](const OutputError& k) { return k.name == e.name; });
    if (it == kept.end()) {
      kept.push_back(e);
      continue;
    }
    it->max_abs_error = std::max(it->max_abs_error, e.max_abs_error);
    it->max_rel_error = std::max(it->max_rel_error, e.max_rel_error);
    it->tolerance_used = std::max(it->tolerance_used, e.tolerance_used);
  }
}

// A copy of one call's outputs, kept past the next call for the cache diagnosis; its buffers
// are reused from call to call (a copy of tens of megabytes would otherwise fault in every page).
class KeptOutputs {
 public:
  void keep(const CallOutputs& call) {
    copy(call.candidate, candidate_);
    copy(call.reference, reference_);
  }
  CallOutputs view() const { return {view_of(candidate_), view_of(reference_)}; }

 private:
  static void copy(const RecordView& from, OutputRecord& to) {
    to.label = from.label;
    to.arrays.resize(from.arrays.size());
    for (size_t k = 0; k < from.arrays.size(); ++k) {
      const ArrayView& a = from.arrays[k];
      to.arrays[k].name.assign(a.name);
      to.arrays[k].dtype = a.dtype;
      to.arrays[k].count = a.count;
      to.arrays[k].bytes.assign(a.data, a.data + byte_size(a));
    }
  }
  OutputRecord candidate_, reference_;
};

// Failures of the outputs themselves; after one of these, the other sizes below the time size
// are still checked so that the most telling diagnosis (a cache) can be found.
bool is_comparison_failure(const std::string& category) {
  return category == "wrong" || category == "precision" || category == "nan" ||
         category == "unwritten" || category == "shape";
}

// One input of the check: a seed, or one of the driver's edge cases filled from a seed.
struct CheckInput {
  uint64_t label = 0;  ///< The seed, or kEdgeLabel | k for edge case k.
  uint64_t seed = 0;
  int edge = -1;
  /// A second call on the same buffers, filled from this seed (the label): see DriverInput.
  std::optional<uint64_t> again;
};

// Every seed, then every edge case of the driver (seeded as the file protocol seeds them).
std::vector<CheckInput> check_inputs(const std::vector<uint64_t>& seeds, int edge_cases) {
  std::vector<CheckInput> inputs;
  for (uint64_t seed : seeds) inputs.push_back({seed, seed, -1, std::nullopt});
  for (int k = 0; k < edge_cases; ++k)
    inputs.push_back(
        {edge_label(k), seeds.front() + static_cast<uint64_t>(k) + 1, k, std::nullopt});
  return inputs;
}

// One block of calls of each side on the same inputs, one process per side, so that whatever
// a kernel keeps from one call to the next meets inputs it has not seen; fills run side by side.
// The candidate's calls may take 20 times the original's (at least 10 s). The two sides' calls
// run one after the other, as in a timed pair: a kernel that felt the original beside it (a
// red team's kernel timed pauses in its own threads) would know a check from a timed block.
bool call_both(DriverSession& original, DriverSession& candidate,
               const std::vector<CheckInput>& inputs, BlockTiming& ref, BlockTiming& cand) {
  std::vector<DriverInput> fills;
  for (const CheckInput& input : inputs) fills.push_back({input.seed, input.edge, input.again});
  const auto sent = std::chrono::steady_clock::now();
  if (!original.send_inputs(fills) || !candidate.send_inputs(fills)) return false;
  if (!DriverSession::await_ready({&original, &candidate}, sent, 600, {&ref, &cand})) return false;
  if (!original.go(600, ref)) return false;
  return candidate.go(std::max(10.0, 20 * (ref.kernel_seconds + 0.05)), cand);
}

// The inputs a plan asks for: its share of the seeds, then the driver's edge cases.
std::vector<CheckInput> plan_inputs(const SizePlan& plan, const std::vector<uint64_t>& seeds,
                                    int edge_cases) {
  std::vector<CheckInput> inputs = check_inputs(seeds, plan.edges ? edge_cases : 0);
  const int stride = std::max(1, plan.edge_stride);
  std::erase_if(inputs, [&](const CheckInput& input) {
    return input.edge >= 0 && input.edge % stride != plan.edge_offset % stride;
  });
  const size_t dropped = seeds.size() - std::min(plan.seeds, seeds.size());
  inputs.erase(inputs.begin() + static_cast<long>(seeds.size() - dropped),
               inputs.begin() + static_cast<long>(seeds.size()));
  // In an order drawn for this size: a kernel counts its calls in its process, and with the
  // seeds always first no edge case was ever a process's first call (red team 26: a licm wrong
  // on hard inputs only in the first call of a process passed).
  std::mt19937_64 order((seeds.empty() ? 0 : seeds.front()) ^
                        (static_cast<uint64_t>(plan.size) * 0xd1342543de82ef95ULL));
  std::shuffle(inputs.begin(), inputs.end(), order);
  if (plan.again && !seeds.empty()) {
    // Two seeds of their own, apart from the evaluation's: the first call's outputs are not
    // compared (the second call overwrites them), only the second's.
    const uint64_t first = seeds.front() ^ 0x5851f42d4c957f2dULL, then = first + 1;
    inputs.push_back({then, first, -1, then});
  }
  return inputs;
}

// The case at `size` after a side failed: the original's failure is an error of the setup (or
// no GPU), the candidate's its own category.
CheckCase failed_call(CheckSides& sides, long size) {
  DriverSession &original = *sides.original, &candidate = *sides.candidate;
  if (original.failed())
    return fail_case(
        size, original.failure().category == "no-gpu" ? "no-gpu" : "error",
        fmt::format("the original itself fails at size {}: {}", size, original.failure().reason));
  return fail_case(size, candidate.failure().category,
                   fmt::format("size {}: {}", size, candidate.failure().reason));
}

CheckCase check_size(const Benchmark& bench, CheckSides& sides, const std::vector<uint64_t>& seeds,
                     const SizePlan& plan) {
  DriverSession &original = *sides.original, &candidate = *sides.candidate;
  const long size = plan.size;
  // The edge-case count is the original's (the candidate's process could claim anything), from
  // its last layout: the sessions are set up once per size, with a problem per call of a block.
  std::vector<CheckInput> inputs;
  size_t per_block = 0;
  int edges = original.edge_cases();  // -1 before the first layout: asked at this size, then.
  for (int pass = 0; pass < 2; ++pass) {
    inputs = plan_inputs(plan, seeds, std::max(0, edges));
    per_block = std::max<size_t>(1, std::min(plan.per_block, inputs.size()));
    if (!DriverSession::setup_all({&original, &candidate}, size, static_cast<int>(per_block),
                                  placement_offset(seeds.empty() ? 0 : seeds.front(), size)))
      return failed_call(sides, size);
    if (original.edge_cases() == edges) break;
    edges = original.edge_cases();
  }
  CheckCase c;
  c.size = size;
  KeptOutputs previous;  // The last call of the block before, for the cache diagnosis.
  for (size_t first = 0; first < inputs.size(); first += per_block) {
    const std::vector<CheckInput> block(
        inputs.begin() + static_cast<long>(first),
        inputs.begin() + static_cast<long>(std::min(inputs.size(), first + per_block)));
    BlockTiming ref, cand;
    if (!call_both(original, candidate, block, ref, cand)) return failed_call(sides, size);
    c.original_seconds += ref.kernel_seconds;
    c.candidate_seconds += cand.kernel_seconds;
    sides.original_threads = std::max(sides.original_threads, ref.threads);
    sides.candidate_threads = std::max(sides.candidate_threads, cand.threads);
    for (size_t j = 0; j < block.size(); ++j) {
      const int index = static_cast<int>(j);
      const CallOutputs call{candidate.view(index, block[j].label),
                             original.view(index, block[j].label)};
      const CallOutputs before = j > 0 ? CallOutputs{candidate.view(index - 1, block[j - 1].label),
                                                     original.view(index - 1, block[j - 1].label)}
                                       : previous.view();
      const size_t k = first + j;
      if (!compare_call(bench, call, k, k > 0 && !block[j].again ? &before : nullptr, c)) {
        if (block[j].again)
          c.reason +=
              ": the kernel's second call on the same buffers, refilled with new inputs, "
              "is wrong (state kept from its first call on them?)";
        return c;
      }
      if (j + 1 == block.size() && k + 1 < inputs.size()) previous.keep(call);
    }
  }
  c.ok = true;
  return c;
}

}  // namespace

namespace {

// A passed case fails after all when the candidate left more threads alive than allowed.
CheckCase with_thread_check(const ExecutionContext& ctx, const Benchmark& bench,
                            const CheckSides& sides, CheckCase c) {
  const std::string threads = thread_violation(sides.candidate_threads,
                                               allowed_threads(bench, ctx, sides.original_threads));
  if (!c.ok || threads.empty()) return c;
  return fail_case(c.size, "thread", fmt::format("size {}: {}", c.size, threads));
}

}  // namespace

CheckCase fail_case(long size, std::string category, std::string reason) {
  CheckCase c;
  c.size = size;
  c.category = std::move(category);
  c.reason = std::move(reason);
  return c;
}

// "seed N", or "edge case K" with the manifest's words for it, so that a repair knows which
// input it got wrong.
std::string record_name(const Benchmark& bench, uint64_t label) {
  if (!(label & kEdgeLabel)) return fmt::format("seed {}", label);
  const uint64_t k = label & ~kEdgeLabel;
  if (k < bench.edge_cases.size()) return fmt::format("edge case {} ({})", k, bench.edge_cases[k]);
  return fmt::format("edge case {}", k);
}

bool compare_call(const Benchmark& bench, const CallOutputs& call, size_t k,
                  const CallOutputs* previous, CheckCase& c) {
  const RecordView &candidate = call.candidate, &reference = call.reference;
  Comparison cmp = compare(candidate, reference, bench.rtol, bench.atol);
  c.max_abs_error = std::max(c.max_abs_error, cmp.max_abs_error);
  c.max_rel_error = std::max(c.max_rel_error, cmp.max_rel_error);
  merge_errors(cmp.outputs, c.outputs);
  if (cmp.ok) return true;
  // A cached result is the previous call's (correct) output; on tiny outputs that can be a
  // coincidence, so the diagnosis needs enough elements to be sure.
  if (previous && element_count(reference) >= kCacheEvidenceElements &&
      identical(candidate, previous->candidate) && !identical(reference, previous->reference) &&
      varied(previous->candidate)) {
    c.category = "cache";
    c.reason = fmt::format(
        "size {}: the output for {} is exactly the output for the previous {}: the kernel "
        "returns a cached result from an earlier call",
        c.size, record_name(bench, reference.label), record_name(bench, previous->reference.label));
  } else {
    c.category = cmp.category;
    c.reason = fmt::format("size {}, {}{}: {}", c.size, record_name(bench, reference.label),
                           k > 0 ? fmt::format(" (call {} at this size)", k + 1) : "", cmp.reason);
  }
  return false;
}

CheckOutcome check_sizes(const std::vector<long>& sizes, const std::vector<uint64_t>& seeds,
                         const std::function<CheckCase(size_t)>& check_size, long costly) {
  const auto start = std::chrono::steady_clock::now();
  CheckOutcome outcome;
  outcome.seeds = seeds;
  outcome.ok = true;
  for (size_t k = 0; k < sizes.size(); ++k) {
    if (!outcome.ok && sizes[k] >= costly) continue;
    CheckCase c = check_size(k);
    outcome.cases.push_back(c);
    if (c.ok) continue;
    if (outcome.ok || (c.category == "cache" && outcome.category != "cache")) {
      outcome.category = c.category;
      outcome.reason = c.reason;
    }
    outcome.ok = false;
    if (!is_comparison_failure(c.category)) break;
  }
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return outcome;
}

int allowed_threads(const Benchmark& bench, const ExecutionContext& ctx, int original_max) {
  int omp = 1;
  if (auto it = ctx.run_env.find("OMP_NUM_THREADS"); it != ctx.run_env.end())
    omp = std::max(1, std::atoi(it->second.c_str()));
  return std::max(original_max, bench.language == Language::openmp ? omp : 1);
}

std::string thread_violation(int candidate_max, int allowed) {
  if (candidate_max <= allowed) return {};
  return fmt::format(
      "{} threads were alive after the kernel returned where at most {} are expected: a thread "
      "outlives the call (work outside the measured window)",
      candidate_max, allowed);
}

CheckOutcome check_candidate(const ExecutionContext& ctx, const Benchmark& bench, CheckSides& sides,
                             const std::vector<uint64_t>& seeds,
                             const std::vector<SizePlan>& plans) {
  std::vector<long> sizes;
  for (const SizePlan& plan : plans) sizes.push_back(plan.size);
  // After a wrong output no size from the time size on runs for a diagnosis alone (an untimed
  // check's time size; a timed one reaches it only after a passed check): there a wrong kernel's
  // check costs several times all the smaller sizes together, and the verdict is already made.
  return check_sizes(
      sizes, seeds,
      [&](size_t k) {
        return with_thread_check(ctx, bench, sides, check_size(bench, sides, seeds, plans[k]));
      },
      bench.time_size);
}

void check_more(const ExecutionContext& ctx, const Benchmark& bench, CheckSides& sides,
                const std::vector<SizePlan>& plans, CheckOutcome& outcome) {
  const auto start = std::chrono::steady_clock::now();
  for (const SizePlan& plan : plans) {
    const CheckCase c =
        with_thread_check(ctx, bench, sides, check_size(bench, sides, outcome.seeds, plan));
    outcome.cases.push_back(c);
    if (c.ok) continue;
    outcome.ok = false;
    outcome.category = c.category;
    outcome.reason = c.reason;
    break;
  }
  outcome.seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Json to_json(const std::vector<OutputError>& errors) {
  Json list = Json::array();
  for (const auto& e : errors)
    list.push_back({{"name", e.name},
                    {"max_abs_error", e.max_abs_error},
                    {"max_rel_error", e.max_rel_error},
                    {"tolerance_used", e.tolerance_used}});
  return list;
}

Json to_json(const CheckOutcome& check) {
  Json cases = Json::array();
  for (const auto& c : check.cases) {
    cases.push_back({{"size", c.size},
                     {"outputs", to_json(c.outputs)},
                     {"ok", c.ok},
                     {"category", c.category},
                     {"reason", c.reason},
                     {"max_abs_error", c.max_abs_error},
                     {"max_rel_error", c.max_rel_error},
                     {"original_seconds", c.original_seconds},
                     {"candidate_seconds", c.candidate_seconds}});
    if (c.threads > 0) cases.back()["threads"] = c.threads;
  }
  return {{"ok", check.ok},
          {"category", check.category},
          {"reason", check.reason},
          {"seeds", check.seeds},
          {"cases", cases},
          {"seconds", check.seconds},
          {"tolerance", {{"rtol", check.rtol}, {"atol", check.atol}}}};
}

int placement_offset(uint64_t seed, long salt) {
  uint64_t x = seed ^ (static_cast<uint64_t>(salt) * 0x9e3779b97f4a7c15ULL);
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 29;
  return static_cast<int>(x % 24);
}

}  // namespace kopt
