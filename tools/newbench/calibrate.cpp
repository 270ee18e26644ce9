#include "tools/newbench/calibrate.h"

#include <algorithm>

#include "tools/eval/driver_run.h"

namespace kopt {

namespace {

constexpr long kFirstSize = 16;
constexpr int kBisections = 5;

// The fastest of a few timed calls of the original at scale n.
Result<double> call_seconds(const ExecutionContext& ctx, const Benchmark& bench,
                            const std::filesystem::path& binary, long n) {
  DriverRequest request;
  request.mode = "time";
  request.size = n;
  request.seeds = {1};
  request.warmup = 1;
  request.reps = 3;
  request.timeout = std::chrono::seconds(120);
  request.memory_bytes = default_memory_limit();
  DriverRun run = run_driver(ctx, bench, binary, request);
  if (!run.failure.empty()) return fail("at size " + std::to_string(n) + ": " + run.failure);
  if (run.samples.empty()) return fail("at size " + std::to_string(n) + ": no timed calls");
  return *std::min_element(run.samples.begin(), run.samples.end());
}

}  // namespace

Result<Calibration> time_at_size(const ExecutionContext& ctx, const Benchmark& bench,
                                 const std::filesystem::path& binary, long n) {
  auto seconds = call_seconds(ctx, bench, binary, n);
  if (!seconds) return seconds.error();
  return Calibration{n, *seconds, "the size --value gives"};
}

Result<Calibration> calibrate_time_size(const ExecutionContext& ctx, const Benchmark& bench,
                                        const std::filesystem::path& binary,
                                        const std::function<bool(long)>& allowed,
                                        double target_seconds) {
  if (!allowed(kFirstSize))
    return fail("the kernel's limits leave no size of " + std::to_string(kFirstSize) +
                " or more to time");
  long below = 0, above = kFirstSize;
  double seconds = 0;
  while (true) {
    auto t = call_seconds(ctx, bench, binary, above);
    if (!t) return t.error();
    seconds = *t;
    if (seconds >= target_seconds) break;
    const long next = above * (seconds < target_seconds / 64 ? 4 : 2);
    if (!allowed(next)) {
      long last = above;
      for (long step = (next - above) / 2; step > 0; step /= 2)
        if (allowed(last + step)) last += step;
      if (last == above) return Calibration{above, seconds, "the kernel's limits stop here"};
      auto at_last = call_seconds(ctx, bench, binary, last);
      if (!at_last) return at_last.error();
      if (*at_last < target_seconds)
        return Calibration{last, *at_last, "the largest size within the kernel's limits"};
      below = above;
      above = last, seconds = *at_last;
      break;
    }
    below = above;
    above = next;
  }
  for (int i = 0; i < kBisections && above - below > 1; ++i) {
    const long middle = below + (above - below) / 2;
    auto t = call_seconds(ctx, bench, binary, middle);
    if (!t) return t.error();
    if (*t >= target_seconds)
      above = middle, seconds = *t;
    else
      below = middle;
  }
  return Calibration{above, seconds, ""};
}

}  // namespace kopt
