#include "tools/eval/file_protocol.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>

#include <fmt/format.h>

#include "tools/eval/drawn_sizes.h"

namespace kopt {

namespace {

using std::chrono::milliseconds;

// Compares every record in call order, stopping at the first that differs.
void compare_records(const Benchmark& bench, const DriverRun& cand, const DriverRun& ref,
                     CheckCase& c) {
  std::optional<CallOutputs> previous;
  for (size_t k = 0; k < ref.outputs.size(); ++k) {
    const CallOutputs call{k < cand.outputs.size() ? view_of(cand.outputs[k]) : RecordView{},
                           view_of(ref.outputs[k])};
    if (!compare_call(bench, call, k, previous ? &*previous : nullptr, c)) return;
    previous = call;
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

CheckOutcome check_with_files(const ExecutionContext& ctx, const Benchmark& bench,
                              const std::filesystem::path& original,
                              const std::filesystem::path& candidate,
                              const std::vector<uint64_t>& seeds, uint64_t size_seed) {
  const std::vector<long> sizes = sizes_to_check(bench, size_seed);
  return check_sizes(sizes, seeds, [&](size_t k) {
    return check_size(ctx, bench, original, candidate, seeds, sizes[k]);
  });
}

}  // namespace kopt
