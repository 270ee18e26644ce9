// Compiling and running the machine probe (machine_probe.cc) in the sandbox, with the same
// compiler and OpenMP placement the benchmarks get.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tools/eval/context.h"
#include "util/files.h"
#include "util/json.h"
#include "util/result.h"

namespace kopt {

/// kopt_home()/tools/machine/machine_probe.cc.
std::filesystem::path probe_source_path();

/// The probe in its own workspace, removed with this object.
class MachineProbe {
 public:
  explicit MachineProbe(const ExecutionContext& ctx);

  /// Compiles `source` with `compiler` -O3 -march=native -fopenmp -ffp-contract=fast.
  Status compile(const std::string& compiler, const std::string& source);

  /// Runs "probe ARGS..." on `threads` OpenMP threads and parses the JSON line it prints.
  Result<Json> run(const std::vector<std::string>& args, int threads) const;

 private:
  const ExecutionContext& ctx_;
  TempDir workspace_;
};

}  // namespace kopt
