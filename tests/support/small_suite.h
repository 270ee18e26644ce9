// kopt's own CPU benchmarks at smaller sizes, for the tests whose subject is the loop, its
// records, its campaigns or its faults rather than a measurement. Each evaluation of such a test
// checks and times a benchmark (the run's reference first of all), and at the suite's sizes these
// evaluations were most of the whole test run's time, every timed phase holding the machine's
// CPUs alone (util/timing_lease.h). The code, the checks and the timing are the suite's own; only
// the time size and size.max are smaller (kernel.h and the manifest's domain still state the
// suite's size.max, which the smaller check does not reach). Never use it for a test of the
// check's reach or of the measurement itself: those run at the suite's sizes
// (tests/e2e/cheats_test.cpp, CliTest.EvaluationDocumentKeepsEverySample, the roofline gate's
// generous machine, whose memory roof applies only to a working set past the last-level cache).
// A cheat whose trick is the same at any size (taking the judging session's protocol over, a
// cache keyed on contents that fresh inputs never repeat) says `// sizes: small` and runs here:
// its whole check at spmv's sizes was three minutes of CI for a trick the sizes never reach.
#pragma once

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kopt_cli.h"
#include "util/files.h"
#include "util/json.h"

namespace kopt::test {

/// The smaller time size and size.max of a benchmark of kopt's suite.
struct SmallSizes {
  const char* name;
  long time_size, max_size;
};

/// Above each benchmark's largest check size, where the suite's human version still wins by
/// several times (licm: 4-5x at 512 on a 2-core Xeon, the original 3.5 ms a call).
inline constexpr SmallSizes kSmallSizes[] = {{"licm", 512, 700},
                                             {"scan", 262144, 400000},
                                             {"count_smaller", 8000, 12000},
                                             {"spmv", 65536, 100000},
                                             {"softmax", 400, 600}};

/// Copies kopt's CPU benchmark `name` to `to` with the smaller sizes of kSmallSizes.
inline void copy_small_benchmark(const std::string& name, const std::filesystem::path& to) {
  const auto* sizes = std::find_if(std::begin(kSmallSizes), std::end(kSmallSizes),
                                   [&](const SmallSizes& s) { return name == s.name; });
  if (sizes == std::end(kSmallSizes))
    throw std::invalid_argument("no smaller sizes for benchmark " + name);
  std::filesystem::copy(source_root() / "benchmarks" / "cpu" / name, to,
                        std::filesystem::copy_options::recursive);
  Json manifest = read_json_file(to / "benchmark.json").value();
  manifest["size"]["time"] = sizes->time_size;
  manifest["size"]["max"] = sizes->max_size;
  if (!write_file(to / "benchmark.json", dump_json(manifest, 2) + "\n"))
    throw std::runtime_error("cannot write " + (to / "benchmark.json").string());
}

/// A suite folder holding the benchmarks `names` at their smaller sizes, removed with it.
inline std::unique_ptr<TempDir> small_suite(const std::vector<std::string>& names) {
  auto suite = std::make_unique<TempDir>("kopt-small-suite-");
  for (const std::string& name : names) copy_small_benchmark(name, suite->path() / name);
  return suite;
}

}  // namespace kopt::test
