// The correctness stage: the candidate's outputs against the original's, on every check size,
// for seeds drawn at evaluation time, in the two long-lived sessions that the timing stage then
// goes on using (so nothing tells a check from a timed call). At each size the calls run one
// after another in one process, so a kernel that keeps results or state across calls is caught.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/eval/driver_run.h"
#include "tools/eval/driver_session.h"
#include "util/json.h"

namespace kopt {

/// The result for one check size.
struct CheckCase {
  long size = 0;
  bool ok = false;
  std::string category;
  std::string reason;
  double max_abs_error = 0;
  double max_rel_error = 0;
  std::vector<OutputError> outputs;  ///< The largest errors of each output over the calls.
  double original_seconds = 0;       ///< The original's kernel calls at this size, by kopt's clock.
  double candidate_seconds = 0;
  /// OpenMP threads the calls had when other than the evaluation's (OMP_NUM_THREADS); 0: those.
  int threads = 0;
};

/// The result of the correctness stage.
struct CheckOutcome {
  bool ok = false;
  /// When !ok: "wrong", "precision", "nan", "unwritten", "shape", "cache", "thread", "crash",
  /// "timeout", "oom", "output", "no-gpu", or "error" when the original itself failed.
  std::string category;
  std::string reason;
  std::vector<uint64_t> seeds;
  std::vector<CheckCase> cases;
  double seconds = 0;
  double rtol = 0;  ///< The tolerance the outputs were held to: |got - want| <= atol + rtol |want|.
  double atol = 0;
};

Json to_json(const CheckOutcome& check);

/// Threads a candidate may leave alive after its calls: what the original leaves, or one per
/// OpenMP thread.
int allowed_threads(const Benchmark& bench, const ExecutionContext& ctx, int original_max);

/// Describes a thread-count violation, or returns empty.
std::string thread_violation(int candidate_max, int allowed);

/// The two sessions an evaluation runs, and the most threads each left alive after its calls.
struct CheckSides {
  DriverSession* original = nullptr;
  DriverSession* candidate = nullptr;
  int original_threads = 0;
  int candidate_threads = 0;
};

/// A failed case at `size`.
CheckCase fail_case(long size, std::string category, std::string reason);

/// The label bit of an edge case's record: label kEdgeLabel | k for the driver's edge case k
/// (benchmarks/common/harness.h uses the same bit); other labels are seeds.
inline constexpr uint64_t kEdgeLabel = uint64_t{1} << 63;

/// The label of driver edge case `k`'s record.
inline uint64_t edge_label(int k) {
  return kEdgeLabel | static_cast<uint64_t>(k);
}

/// "seed 42" or "edge case 3": what produced a record with this label.
std::string record_name(uint64_t label);
/// The same with the manifest's words for an edge case: "edge case 3 (a zero pivot)".
std::string record_name(const Benchmark& bench, uint64_t label);

/// Both sides' outputs of one call, labelled by what produced them.
struct CallOutputs {
  RecordView candidate, reference;
};

/// Compares call k of one size; `previous` (call k - 1, or null) lets it recognize a kernel
/// that returns the previous call's result ("cache"). Fills c's errors, category and reason.
bool compare_call(const Benchmark& bench, const CallOutputs& call, size_t k,
                  const CallOutputs* previous, CheckCase& c);

/// Runs `check_size(k)` for each size k of `sizes` in order; after a wrong output the other
/// sizes below `costly` still run (a cache is the more telling diagnosis), after any other
/// failure the stage stops.
CheckOutcome check_sizes(const std::vector<long>& sizes, const std::vector<uint64_t>& seeds,
                         const std::function<CheckCase(size_t)>& check_size,
                         long costly = std::numeric_limits<long>::max());

/// What the check runs at one size: the first `seeds` of the evaluation's seeds, then (with
/// `edges`) the edge cases k of the original's driver with k % edge_stride == edge_offset
/// (every one by default), `per_block` calls to a block: the calls
/// of a block run one after the other in one process, so that what a kernel keeps from one call
/// (a table built for the first input, a buffer sized for it) meets the next input.
struct SizePlan {
  long size = 0;
  size_t seeds = SIZE_MAX;
  bool edges = true;
  size_t per_block = SIZE_MAX;
  /// One more problem in the last block, called twice on the same buffers with new inputs in
  /// between (the first call's outputs are not compared).
  bool again = false;
  int edge_stride = 1;
  int edge_offset = 0;
};

/// Where the arrays of a setup lie (benchmarks/common/arrays.h's offset, 0 to 23), drawn from a
/// seed and a salt: the check draws one per size from its first seed, the timing one per setup
/// from its seed. Never a fixed offset: past the time size a block holds a problem or two, and
/// each array would lie alike at every size there (red team 25: loads that need 32-byte
/// alignment only past 2^22 met their array 64-byte aligned at every size there); and a timing
/// at offset 0 let a kernel read the call's index back from its pointers and tell timed calls
/// from the check's (red team 26).
int placement_offset(uint64_t seed, long salt);

/// Runs the correctness stage over `plans`, in order (see check_sizes for when it stops).
CheckOutcome check_candidate(const ExecutionContext& ctx, const Benchmark& bench, CheckSides& sides,
                             const std::vector<uint64_t>& seeds,
                             const std::vector<SizePlan>& plans);

/// Checks `plans` after a passed check, with its seeds, appending each case to `outcome` and
/// stopping at the first failure: the edge cases at the time size (where the timing's seeded
/// calls do not reach them), sizes past the largest check size.
void check_more(const ExecutionContext& ctx, const Benchmark& bench, CheckSides& sides,
                const std::vector<SizePlan>& plans, CheckOutcome& outcome);

}  // namespace kopt
