#include "tools/eval/check.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

namespace kopt {

namespace {

constexpr uint64_t kCacheEvidenceElements = 16;

uint64_t element_count(const RecordView& record) {
  uint64_t count = 0;
  for (const auto& array : record.arrays) count += array.count;
  return count;
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

// Failures of the outputs themselves; after one of these, larger sizes are still checked so
// that the most telling diagnosis (a cache) can be found.
bool is_comparison_failure(const std::string& category) {
  return category == "wrong" || category == "precision" || category == "nan" ||
         category == "unwritten" || category == "shape";
}

// One input of the check: a seed, or one of the driver's edge cases filled from a seed.
struct CheckInput {
  uint64_t label = 0;  ///< The seed, or kEdgeLabel | k for edge case k.
  uint64_t seed = 0;
  int edge = -1;
};

// Every seed, then every edge case of the driver (seeded as the file protocol seeds them).
std::vector<CheckInput> check_inputs(const std::vector<uint64_t>& seeds, int edge_cases) {
  std::vector<CheckInput> inputs;
  for (uint64_t seed : seeds) inputs.push_back({seed, seed, -1});
  for (int k = 0; k < edge_cases; ++k)
    inputs.push_back(
        {kEdgeLabel | static_cast<uint64_t>(k), seeds.front() + static_cast<uint64_t>(k) + 1, k});
  return inputs;
}

// One call of each side on the same input; fills run side by side.
bool call_both(DriverSession& original, DriverSession& candidate, const CheckInput& input,
               double candidate_timeout, BlockTiming& ref, BlockTiming& cand) {
  const auto sent = std::chrono::steady_clock::now();
  if (!original.send_fill({input.seed}, input.edge) ||
      !candidate.send_fill({input.seed}, input.edge))
    return false;
  if (!DriverSession::await_ready({&original, &candidate}, sent, 600, {&ref, &cand})) return false;
  return original.go(600, ref) && candidate.go(candidate_timeout, cand);
}

CheckCase check_size(const Benchmark& bench, CheckSides& sides, const std::vector<uint64_t>& seeds,
                     long size, bool edges_only = false) {
  DriverSession &original = *sides.original, &candidate = *sides.candidate;
  DriverSession::setup_all({&original, &candidate}, size, 1);
  if (original.failed())
    return fail_case(
        size, original.failure().category == "no-gpu" ? "no-gpu" : "error",
        fmt::format("the original itself fails at size {}: {}", size, original.failure().reason));
  if (candidate.failed())
    return fail_case(size, candidate.failure().category,
                     fmt::format("size {}: {}", size, candidate.failure().reason));
  CheckCase c;
  c.size = size;
  KeptOutputs previous;
  // The edge-case count is the original's: the candidate's process could claim anything.
  std::vector<CheckInput> inputs = check_inputs(seeds, original.edge_cases());
  if (edges_only) std::erase_if(inputs, [](const CheckInput& in) { return in.edge < 0; });
  for (size_t k = 0; k < inputs.size(); ++k) {
    const CheckInput& input = inputs[k];
    BlockTiming ref, cand;
    const double timeout = std::max(10.0, 20 * (c.original_seconds + 0.05));
    if (!call_both(original, candidate, input, timeout, ref, cand)) {
      if (original.failed())
        return fail_case(size, "error",
                         fmt::format("the original itself fails at size {}: {}", size,
                                     original.failure().reason));
      return fail_case(size, candidate.failure().category,
                       fmt::format("size {}: {}", size, candidate.failure().reason));
    }
    c.original_seconds += ref.kernel_seconds;
    c.candidate_seconds += cand.kernel_seconds;
    sides.original_threads = std::max(sides.original_threads, ref.threads);
    sides.candidate_threads = std::max(sides.candidate_threads, cand.threads);
    const CallOutputs call{candidate.view(0, input.label), original.view(0, input.label)};
    const CallOutputs before = previous.view();
    if (!compare_call(bench, call, k, k > 0 ? &before : nullptr, c)) return c;
    if (k + 1 < inputs.size()) previous.keep(call);
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
      identical(candidate, previous->candidate) && !identical(reference, previous->reference)) {
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
                         const std::function<CheckCase(long)>& check_size) {
  const auto start = std::chrono::steady_clock::now();
  CheckOutcome outcome;
  outcome.seeds = seeds;
  outcome.ok = true;
  for (long size : sizes) {
    CheckCase c = check_size(size);
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
                             const std::vector<uint64_t>& seeds, const std::vector<long>& sizes) {
  return check_sizes(sizes, seeds, [&](long size) {
    return with_thread_check(ctx, bench, sides, check_size(bench, sides, seeds, size));
  });
}

void check_edges_at_time_size(const ExecutionContext& ctx, const Benchmark& bench,
                              CheckSides& sides, CheckOutcome& outcome) {
  const auto start = std::chrono::steady_clock::now();
  const long size = bench.time_size;
  const CheckCase c =
      with_thread_check(ctx, bench, sides, check_size(bench, sides, outcome.seeds, size, true));
  outcome.seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outcome.cases.push_back(c);
  if (c.ok) return;
  outcome.ok = false;
  outcome.category = c.category;
  outcome.reason = c.reason;
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
  for (const auto& c : check.cases)
    cases.push_back({{"size", c.size},
                     {"outputs", to_json(c.outputs)},
                     {"ok", c.ok},
                     {"category", c.category},
                     {"reason", c.reason},
                     {"max_abs_error", c.max_abs_error},
                     {"max_rel_error", c.max_rel_error},
                     {"original_seconds", c.original_seconds},
                     {"candidate_seconds", c.candidate_seconds}});
  return {{"ok", check.ok},
          {"category", check.category},
          {"reason", check.reason},
          {"seeds", check.seeds},
          {"cases", cases},
          {"seconds", check.seconds},
          {"tolerance", {{"rtol", check.rtol}, {"atol", check.atol}}}};
}

}  // namespace kopt
