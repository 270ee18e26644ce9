// `kopt import polybench`: every kernel of the user's PolyBench/C tree made into a benchmark
// folder of one suite by kopt new's own path (make_benchmark), each checked against itself and
// timed at its dataset's sizes. One kernel's failure never stops the others.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "tools/eval/evaluator.h"
#include "tools/import/polybench_tree.h"
#include "util/json.h"

namespace kopt {

struct PolybenchImport {
  std::filesystem::path root;   ///< The PolyBench tree.
  std::filesystem::path suite;  ///< One folder per kernel is made here.
  std::string dataset = "MEDIUM";
  bool replace = false;  ///< Replace existing folders.
};

/// What became of one kernel.
struct ImportedKernel {
  std::string name;
  bool imported = false;  ///< Its folder is written, builds and was timed.
  bool clean = false;     ///< Its original passes its own check.
  std::string reason;     ///< Why not, in one line; empty when clean.
  long time_size = 0;     ///< The scale n the dataset gives.
  std::string sizes;      ///< The dataset's values ("ni=200 nj=220 nk=240").
  double time_ms = 0;     ///< One call of the original at the time size (fastest of 3).
  double seconds = 0;     ///< How long importing it took.
};

/// Receives the kernel and the stage as the work moves on.
using ImportProgressFn = std::function<void(const std::string& kernel, const std::string& stage)>;

/// Imports `kernels` one after the other.
std::vector<ImportedKernel> import_polybench(LocalEvaluator& evaluator,
                                             const PolybenchImport& request,
                                             const std::vector<PolybenchKernel>& kernels,
                                             const ImportProgressFn& progress);

/// The rows as JSON ("kopt-import/1").
Json to_json(const std::vector<ImportedKernel>& rows, const PolybenchImport& request);

}  // namespace kopt
