// Building a benchmark with a candidate kernel file: compile in a fresh sandboxed workspace
// with the manifest's flags, keep diagnostics and remarks, check the kernel object's symbols,
// link with the fixed driver. Builds are cached by a hash of the sources, flags and compiler.
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/eval/static_check.h"
#include "tools/eval/toolchain.h"
#include "util/json.h"

namespace kopt {

/// The result of one build.
struct BuildOutcome {
  bool ok = false;
  bool cached = false;
  std::string key;                ///< Cache key: sources, flags, toolchain.
  std::string failure;            ///< One line when !ok: the first compiler error or finding.
  std::string log;                ///< Compiler output for the kernel file and the link.
  std::string remarks;            ///< Vectorization remarks (g++) or ptxas report (nvcc).
  std::vector<Finding> findings;  ///< Static policy violations; any one rejects the build.
  std::string toolchain;          ///< The compiler's fingerprint.
  std::filesystem::path binary;   ///< The linked driver, inside the cache.
  double seconds = 0;

  /// True when the build failed because of a static policy finding (a cheat), not a compiler
  /// error.
  bool rejected() const { return !findings.empty(); }
};

Json to_json(const BuildOutcome& build);

/// Builds candidates; safe to call from several threads.
class Builder {
 public:
  explicit Builder(const ExecutionContext& ctx) : ctx_(ctx) {}

  /// Builds the benchmark with `kernel_source` as its kernel file.
  BuildOutcome build(const Benchmark& bench, const std::string& kernel_source);

 private:
  Result<Toolchain> toolchain(Language language);
  Result<std::filesystem::path> driver_object(const Benchmark& bench, const Toolchain& tc,
                                              const std::filesystem::path& workspace);

  const ExecutionContext& ctx_;
  std::mutex mutex_;
  std::map<Language, Result<Toolchain>> toolchains_;
};

/// The fixed files of a benchmark build besides the kernel: harness headers, kernel.h, the
/// manifest's headers, driver.
std::vector<std::filesystem::path> fixed_build_files(const Benchmark& bench);

/// Name of the kernel file inside a build workspace: "kernel.cpp" or "kernel.cu".
std::string workspace_kernel_name(const Benchmark& bench);

/// The kernel's preprocessed text that a build keeps: "kernel.ii", or "kernel.i" for a C kernel.
std::string preprocessed_kernel_name(const Benchmark& bench);

/// Puts the fixed build files and `kernel_source` (as workspace_kernel_name) into `workspace`.
Status stage_build_workspace(const Benchmark& bench, const std::filesystem::path& workspace,
                             const std::string& kernel_source);

/// The first line of a build log that reads like a compiler error (else its first line): the
/// one-line failure of a build.
std::string first_error(const std::string& log);

/// The most output of a build tool kept (the tail beyond it is dropped).
inline constexpr size_t kBuildLogCap = 64 * 1024;

/// Runs a build tool (a compiler, opt, nvcc) in `workspace` under the context's sandbox with the
/// build environment, `timeout_s` of wall-clock time and twice that of CPU time.
ProcessResult run_build_tool(const ExecutionContext& ctx, const std::filesystem::path& workspace,
                             std::vector<std::string> argv, int timeout_s,
                             size_t output_cap = kBuildLogCap);

}  // namespace kopt
