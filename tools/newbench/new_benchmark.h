// `kopt new`: a benchmark folder from a function in the user's own file. Reads the function
// with clang, classifies its parameters, writes kernel.h, original.cpp (the file verbatim, or
// without its other functions), the file's own headers, driver.cpp and benchmark.json, builds
// it, finds the time size by timing the original, proposes the work per call from kopt's static
// counts, and checks the original against itself. `kopt import` makes each folder this way.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "tools/eval/evaluator.h"
#include "tools/newbench/kernel_params.h"
#include "tools/newbench/source_file.h"
#include "tools/newbench/work_fit.h"

namespace kopt {

struct NewBenchmarkRequest {
  std::string name;
  SourceFile source;  ///< The file, its include folders and macros (also the manifest's -D flags).
  std::string function;
  /// original.cpp without the file's other function definitions (a main, helpers) and without
  /// the function's `static`: for a file that is a whole program.
  bool extract = false;
  std::optional<Language> language;  ///< Unset: openmp where the function has OpenMP pragmas.
  std::filesystem::path suite;       ///< The folder is made at suite/name.
  ParamOverrides overrides;
  bool replace = false;  ///< Replace an existing folder of that name.
};

struct NewBenchmarkResult {
  std::filesystem::path dir;
  KernelSignature signature;
  Language language = Language::cpp;
  long time_size = 0;
  double time_seconds = 0;
  std::string time_note;
  WorkProposal work;
  Evaluation check;     ///< The original against itself, without timing.
  std::string problem;  ///< Empty when the original checks cleanly; else what is wrong, in words.
};

/// Receives the stage ("reading", "building", ...) as the work moves on.
using NewProgressFn = std::function<void(const std::string& stage)>;

/// Makes the benchmark. An Error is bad input (no such function, a file that does not compile,
/// an unsupported parameter, an existing folder) in one line; a folder that is written but does
/// not check comes back with `problem` set.
Result<NewBenchmarkResult> make_benchmark(LocalEvaluator& evaluator,
                                          const NewBenchmarkRequest& request,
                                          const NewProgressFn& progress);

/// What a failed self-check means, in plain words with the option that fixes it.
std::string explain_failed_original(const Evaluation& check);

}  // namespace kopt
