#include "tools/eval/check.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

namespace kopt {

namespace {

using std::chrono::milliseconds;

constexpr uint64_t kCacheEvidenceElements = 16;

uint64_t element_count(const OutputRecord& record) {
  uint64_t count = 0;
  for (const auto& array : record.arrays) count += array.count;
  return count;
}

// Failures of the outputs themselves; after one of these, larger sizes are still checked so
// that the most telling diagnosis (a cache) can be found.
bool is_comparison_failure(const std::string& category) {
  return category == "wrong" || category == "precision" || category == "nan" ||
         category == "unwritten" || category == "shape";
}

CheckCase fail_case(long size, std::string category, std::string reason) {
  CheckCase c;
  c.size = size;
  c.category = std::move(category);
  c.reason = std::move(reason);
  return c;
}

// "seed 42" or "edge case 3": what produced a check record (harness.h's kEdgeLabel bit).
std::string record_name(uint64_t label) {
  constexpr uint64_t kEdgeLabel = uint64_t{1} << 63;
  if (label & kEdgeLabel) return fmt::format("edge case {}", label & ~kEdgeLabel);
  return fmt::format("seed {}", label);
}

// Finds the first record that differs; recognizes a kernel that returns an earlier result.
void compare_records(const Benchmark& bench, const DriverRun& cand, const DriverRun& ref,
                     CheckCase& c) {
  for (size_t k = 0; k < ref.outputs.size(); ++k) {
    Comparison cmp = compare(cand.outputs[k], ref.outputs[k], bench.rtol, bench.atol);
    c.max_abs_error = std::max(c.max_abs_error, cmp.max_abs_error);
    c.max_rel_error = std::max(c.max_rel_error, cmp.max_rel_error);
    if (cmp.ok) continue;
    // A cached result is the previous call's (correct) output; on tiny outputs that can be a
    // coincidence, so the diagnosis needs enough elements to be sure.
    if (k > 0 && element_count(ref.outputs[k]) >= kCacheEvidenceElements &&
        identical(cand.outputs[k], cand.outputs[k - 1]) &&
        !identical(ref.outputs[k], ref.outputs[k - 1])) {
      c.category = "cache";
      c.reason = fmt::format(
          "size {}: the output for {} is exactly the output for the previous {}: the "
          "kernel returns a cached result from an earlier call",
          c.size, record_name(ref.outputs[k].label), record_name(ref.outputs[k - 1].label));
    } else {
      c.category = cmp.category;
      c.reason =
          fmt::format("size {}, {}{}: {}", c.size, record_name(ref.outputs[k].label),
                      k > 0 ? fmt::format(" (call {} in one process)", k + 1) : "", cmp.reason);
    }
    return;
  }
  c.ok = true;
}

CheckCase check_size(const ExecutionContext& ctx, const Benchmark& bench,
                     const std::filesystem::path& original, const std::filesystem::path& candidate,
                     const std::vector<uint64_t>& seeds, long size) {
  DriverRequest request;
  request.mode = "check";
  request.size = size;
  request.seeds = seeds;
  request.timeout = std::chrono::seconds(120);
  request.memory_bytes = bench.language == Language::cuda ? 0 : default_memory_limit();
  DriverRun ref = run_driver(ctx, bench, original, request);
  if (ref.category == "no-gpu") return fail_case(size, "no-gpu", ref.failure);
  if (!ref.failure.empty())
    return fail_case(
        size, "error",
        "the original itself fails at size " + std::to_string(size) + ": " + ref.failure);
  const double ref_seconds = ref.process.wall_seconds;
  request.timeout = milliseconds(std::max<long>(10000, static_cast<long>(ref_seconds * 20000)));
  DriverRun cand = run_driver(ctx, bench, candidate, request);
  if (!cand.failure.empty())
    return fail_case(size, cand.category, fmt::format("size {}: {}", size, cand.failure));
  CheckCase c;
  c.size = size;
  c.original_seconds = ref_seconds;
  c.candidate_seconds = cand.process.wall_seconds;
  if (cand.outputs.size() != ref.outputs.size()) {
    c.category = "shape";
    c.reason = fmt::format("size {}: {} output records written, expected {}", size,
                           cand.outputs.size(), ref.outputs.size());
    return c;
  }
  compare_records(bench, cand, ref, c);
  if (!c.ok) return c;
  const std::string threads =
      thread_violation(cand.threads_max, allowed_threads(bench, ctx, ref.threads_max));
  if (!threads.empty()) {
    c.ok = false;
    c.category = "thread";
    c.reason = fmt::format("size {}: {}", size, threads);
  }
  return c;
}

}  // namespace

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
      "outlives the call",
      candidate_max, allowed);
}

CheckOutcome check_candidate(const ExecutionContext& ctx, const Benchmark& bench,
                             const std::filesystem::path& original,
                             const std::filesystem::path& candidate,
                             const std::vector<uint64_t>& seeds) {
  const auto start = std::chrono::steady_clock::now();
  CheckOutcome outcome;
  outcome.seeds = seeds;
  outcome.ok = true;
  for (long size : bench.check_sizes) {
    CheckCase c = check_size(ctx, bench, original, candidate, seeds, size);
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

Json to_json(const CheckOutcome& check) {
  Json cases = Json::array();
  for (const auto& c : check.cases)
    cases.push_back({{"size", c.size},
                     {"ok", c.ok},
                     {"category", c.category},
                     {"reason", c.reason},
                     {"max_abs_error", c.max_abs_error},
                     {"max_rel_error", c.max_rel_error},
                     {"original_seconds", c.original_seconds},
                     {"candidate_seconds", c.candidate_seconds}});
  return {{"ok", check.ok},         {"category", check.category},
          {"reason", check.reason}, {"seeds", check.seeds},
          {"cases", cases},         {"seconds", check.seconds}};
}

}  // namespace kopt
