// The file protocol of CUDA drivers (benchmarks/common/cuda_harness.cuh): one short process
// per check size and per timing round, configured on the command line, reporting through
// files. CPU benchmarks are judged through sessions (driver_session.h); the CUDA harness has not
// moved to them yet, so GPU candidates keep this weaker path (see DESIGN.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "tools/eval/check.h"
#include "tools/eval/timing.h"

namespace kopt {

/// The correctness stage over the file protocol: one process per size and side, at the
/// manifest's sizes and those `size_seed` draws.
CheckOutcome check_with_files(const ExecutionContext& ctx, const Benchmark& bench,
                              const std::filesystem::path& original,
                              const std::filesystem::path& candidate,
                              const std::vector<uint64_t>& seeds, uint64_t size_seed);

/// The timing stage over the file protocol: processes alternate A B, B A; the outputs of a few
/// timed calls per process are compared with `reference`.
TimingOutcome time_with_files(const ExecutionContext& ctx, const Benchmark& bench,
                              const std::filesystem::path& baseline,
                              const std::filesystem::path& candidate, const OutputRecord& reference,
                              uint64_t seed, double budget_seconds, int allowed_threads);

}  // namespace kopt
