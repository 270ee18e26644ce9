// A benchmark of the suite, read from its manifest (benchmark.json, "kopt-benchmark/1").
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tools/benchmark/expression.h"
#include "tools/benchmark/program.h"
#include "util/json.h"
#include "util/paths.h"
#include "util/result.h"

namespace kopt {

enum class Language { cpp, openmp, cuda };

/// "cpp", "openmp" or "cuda".
std::string to_string(Language language);

/// The language the kernel file is written in: C++ (the default), or C (manifest "dialect":
/// "c"; compiled with `-x c`, for kernels with C99 array parameters such as `double A[n][n]`).
enum class Dialect { cxx, c };

/// What a benchmark judges: one function called by a fixed driver (the default), or a whole
/// program built and run by its own commands (manifest "kind": "program"; a weaker verdict).
enum class BenchmarkKind { function, program };

/// One of the manifest's named sizes ("size.names"): a name and its value as an expression of
/// the scale n ("ni": "n", "nj": "n + 3"), evaluated and rounded down to a whole number.
struct NamedSize {
  std::string name;
  std::string expression;
};

/// A benchmark folder as described by its manifest.
struct Benchmark {
  std::filesystem::path dir;
  std::string name;
  BenchmarkKind kind = BenchmarkKind::function;
  /// The program's commands and editable files; only for kind program, whose function fields
  /// (functions, sizes, seeds, tolerance, flags, work, domain) stay empty.
  ProgramSpec program;
  Language language = Language::cpp;
  Dialect dialect = Dialect::cxx;
  std::string summary;
  std::string technique;               ///< The optimization the human version demonstrates.
  std::vector<std::string> functions;  ///< Global functions the kernel file defines.
  std::string size_meaning;
  /// The named sizes; empty when the problem has the one size n. check_sizes and time_size
  /// are values of the scale n in either case.
  std::vector<NamedSize> named_sizes;
  std::vector<long> check_sizes;
  /// Whether each evaluation also checks sizes drawn from its seed below the largest check
  /// size (manifest "size.draw", default true; false where n must have a structure, such as a
  /// power of two, that a drawn size would not have).
  bool draw_sizes = true;
  /// The largest n kernel.h allows (manifest "size.max"; 0: no bound): sizes drawn past the
  /// largest check size stay at or below it.
  long max_size = 0;
  long time_size = 0;
  int seeds = 5;
  double rtol = 0;
  double atol = 0;
  std::vector<std::string> flags;
  /// Fixed headers of the folder that the kernel file includes (manifest "headers": plain file
  /// names, such as a kernel's own "gemm.h"); they are built beside kernel.h.
  std::vector<std::string> headers;
  std::string flops;  ///< Work per call as an expression of n.
  std::string bytes;  ///< Compulsory memory traffic per call as an expression of n.
  /// Distinct bytes a call touches, as an expression of n (defaults to `bytes`): the roofline
  /// gate holds a call to DRAM bandwidth only when this exceeds the last-level cache.
  std::string footprint;
  /// The inputs kernel.h promises to handle, in a sentence or two: the contract the check
  /// holds a candidate to (manifest "domain.inputs").
  std::string domain;
  /// The driver's edge cases, in the order of its fill_edge(k) ("domain.edges").
  std::vector<std::string> edge_cases;
  std::string hash;  ///< Digest of the manifest and every fixed file.
  /// A human-optimized version (human.cpp or human.cu) is there to compare with; it is optional.
  bool has_human = false;

  bool is_program() const { return kind == BenchmarkKind::program; }
  /// "original.cpp" or "original.cu": the only file a candidate replaces.
  std::string kernel_file() const;
  std::string human_file() const;
  std::string driver_file() const;
  std::filesystem::path kernel_path() const { return dir / kernel_file(); }
  std::filesystem::path human_path() const { return dir / human_file(); }
  std::filesystem::path driver_path() const { return dir / driver_file(); }
  std::filesystem::path header_path() const { return dir / "kernel.h"; }
  /// ".cpp" or ".cu".
  std::string source_extension() const;
  /// n and the named sizes at scale n; an error names a size that is not a whole number >= 0.
  Result<Variables> variables(long n) const;
  /// A work expression (flops, bytes, footprint) at scale n.
  Result<double> work_at(const std::string& expression, long n) const;
};

/// The original as a candidate's source: the kernel file, or for a program its editable files
/// as one bundle (program.h).
Result<std::string> original_source(const Benchmark& bench);

/// The named sizes at scale n as "name=value" words, in manifest order: what the driver gets.
Result<std::vector<std::string>> named_size_words(const std::vector<NamedSize>& sizes, long n);

/// The files of the benchmark's folder that its hash covers, relative to the folder, in the
/// order they are hashed: the manifest and every fixed file (kernel.h, the original, the driver,
/// the kernel's own headers, the human version when there is one); for a program, every file of
/// the folder. A copy of these files elsewhere, in a folder of the same name, loads with the same
/// hash.
std::vector<std::filesystem::path> hashed_files(const Benchmark& bench);

/// Reads and validates a benchmark folder; every problem is reported in one line.
Result<Benchmark> load_benchmark(const std::filesystem::path& dir);

/// Finds a benchmark by name (searched under `suite`) or by folder path.
Result<Benchmark> find_benchmark(const std::string& name_or_path,
                                 const std::filesystem::path& suite);

/// Every benchmark folder under `suite` (those that fail to load come back as Errors).
std::vector<Result<Benchmark>> list_benchmarks(const std::filesystem::path& suite);

/// The default suite: kopt_home()/benchmarks.
std::filesystem::path default_suite();

}  // namespace kopt
