// What a prediction of `kopt predict` is of, shared by the CPU and the GPU time models; defined
// in predict.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "util/json.h"

namespace kopt {

/// What a prediction (of a CPU or a GPU kernel) is of: a benchmark's variant at a size, or a
/// kernel of a file.
struct PredictionSubject {
  std::string benchmark;
  std::string variant;
  std::string file;  ///< A kernel of a file: the file (variant is then the kernel's name).
  std::vector<std::optional<double>> arguments;  ///< A file's kernel: the arguments given.
  long size = 0;
};

/// Adds what `s` is of to a kopt-prediction/1 document: benchmark, variant and size, or file,
/// kernel and arguments (null where not given).
void add_subject(Json& doc, const PredictionSubject& s);

/// "licm original at size 2048", or "kernels.cpp kernel scale".
std::string subject_name(const PredictionSubject& s);

}  // namespace kopt
