// Choosing a new benchmark's time size: the smallest scale n whose call of the original takes
// at least the target time, found by running the built driver (kopt's own timed mode) at
// growing sizes and then bisecting.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "util/result.h"

namespace kopt {

struct Calibration {
  long size = 0;
  double seconds = 0;  ///< The fastest of the timed calls at `size`.
  std::string note;    ///< Set when the target was not reached (a size or memory limit).
};

/// Times the driver `binary` of `bench` from n = 16 up until a call takes `target_seconds`;
/// `allowed(n)` says whether n is within the kernel's limits (memory, constant dimensions).
Result<Calibration> calibrate_time_size(const ExecutionContext& ctx, const Benchmark& bench,
                                        const std::filesystem::path& binary,
                                        const std::function<bool(long)>& allowed,
                                        double target_seconds = 0.020);

/// Times the driver `binary` of `bench` at scale n: the size the user chose.
Result<Calibration> time_at_size(const ExecutionContext& ctx, const Benchmark& bench,
                                 const std::filesystem::path& binary, long n);

}  // namespace kopt
