// `kopt roofline FILE`: the static roofline of every kernel in any CUDA or C++ file, compiled
// where it lies (source_compile.h). One result per kernel entry (each template instantiation
// its own), each with its counts, intensities, class and the assumptions made; a kernel that
// moves no global memory gets a statement instead of an infinite intensity, and a file (or a
// --kernel name) without a kernel says so instead of giving a class.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tools/eval/context.h"
#include "tools/roofline/counters.h"
#include "tools/roofline/llvm_ir.h"
#include "tools/roofline/ptx_flow.h"
#include "tools/roofline/source_compile.h"
#include "util/json.h"
#include "util/result.h"

namespace kopt {

/// What to analyse and what is known about the run.
struct FileRooflineRequest {
  SourceFile source;
  std::string kernel;   ///< Only kernels of this name (plain, with template arguments, mangled).
  LaunchConfig launch;  ///< CUDA: unknown extents are assumed.
  std::vector<std::optional<double>> args;  ///< Scalar arguments by position, where given.
};

/// A loop of a kernel and its trip count.
struct LoopReport {
  std::string where;  ///< The function and loop header (C++), empty for PTX.
  double trips = 0;
  bool known = false;  ///< False: assumed.
  std::string bound;   ///< How the count was found, or why not.
};

/// One kernel placed on the roofline.
struct KernelRoofline {
  std::string name;    ///< Demangled.
  std::string symbol;  ///< As the compiler emitted it.
  KernelCounters counters;
  double executed_bytes = 0;   ///< Bytes of every load and store executed (cache traffic).
  bool global_traffic = true;  ///< False: no global memory access; no intensity, no class.
  int external_calls = 0;      ///< Calls to functions compiled elsewhere (not counted).
  RooflinePoint point;
  std::vector<LoopReport> loops;
  std::vector<std::string> assumptions;
};

/// The analysis of one file.
struct FileRoofline {
  std::string file, toolchain, hardware;
  Peaks peaks;
  std::vector<KernelRoofline> kernels;
  std::vector<std::string> other_kernels;  ///< Kernels of the file that --kernel did not name.
};

/// Whether an IR function of a C++ file is a kernel to report: a function of the file's own
/// (not main, not the runtime's or the standard library's) with at least one loop.
bool is_cpu_kernel(const IrFunction& f, const std::map<std::string, ScevFacts>& facts);

/// Compiles and costs `request.source` for a machine with `peaks`.
Result<FileRoofline> roofline_of_file(const ExecutionContext& ctx,
                                      const FileRooflineRequest& request, const Peaks& peaks,
                                      const std::string& hardware);

/// "no kernel found in FILE" / "no kernel named K in FILE (it has: a, b)"; empty when found.
std::string missing_kernel_message(const FileRoofline& report, const FileRooflineRequest& request);

/// Why a kernel gets no class ("no global memory traffic...", "its work is in functions
/// compiled elsewhere..."), or empty when it gets one.
std::string no_class_statement(const KernelRoofline& kernel);

/// The text for people: a block per kernel.
std::string summarize(const FileRoofline& report);

/// The kopt-roofline-file/1 document.
Json to_json(const FileRoofline& report);

}  // namespace kopt
