// A sandboxed workspace holding a copy of a built driver, in which profilers run it (perf and
// valgrind run inside the sandbox, as the same unprivileged user as the driver).
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "sandbox/process.h"
#include "tools/eval/context.h"
#include "util/files.h"
#include "util/result.h"

namespace kopt {

/// The driver invocation a profiler wraps.
struct DriverCall {
  std::string mode = "run";  ///< "run" (no outputs) or "time" (per-call samples).
  long size = 0;
  std::string dims;  ///< The named sizes at `size` ("ni=3,nj=4"), for --dims; empty: none.
  uint64_t seed = 1;
  int warmup = 0;
  int reps = 1;
};

class ProfileWorkspace {
 public:
  /// Creates the workspace under ctx.work_root with the driver copied in as "bench".
  ProfileWorkspace(const ExecutionContext& ctx, const std::filesystem::path& binary);

  /// Whether the driver was copied; the Error says why not.
  Status ready() const { return ready_; }
  const std::filesystem::path& path() const { return dir_.path(); }
  /// Absolute path of the driver inside (the object name profilers report).
  std::string binary() const { return (dir_.path() / "bench").string(); }

  /// Runs `argv` confined to the workspace with the candidate environment plus `env`.
  ProcessResult run(const std::vector<std::string>& argv,
                    const std::map<std::string, std::string>& env, std::chrono::seconds timeout,
                    const std::string& input = "") const;

  /// "./bench --mode ... --report report.json" for `call`.
  static std::vector<std::string> driver_args(const DriverCall& call);

  /// Seconds per call from report.json (time mode): the median; 0 when absent.
  double median_call_seconds() const;

 private:
  const ExecutionContext& ctx_;
  TempDir dir_;
  Status ready_;
};

}  // namespace kopt
