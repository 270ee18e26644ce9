// Reading Nsight Compute roofline data in the gpuFLOPBench CSV layout (the paper's RTX 3080
// data set, tests/fixtures/rtx3080-profiling.csv): one row per kernel launch with rates
// (traffic, spPerf, dpPerf, intPerf), the paper's intensities (spAI, dpAI, intAI) and the
// duration. Rows become KernelCounters, so the data goes through the same classifier as
// kopt's own counters.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tools/roofline/counters.h"
#include "util/result.h"

namespace kopt {

/// One profiled kernel launch.
struct ProfiledLaunch {
  std::string program;      ///< targetName: "haccmk-cuda".
  KernelCounters counters;  ///< Rates times the duration.
  Intensities given;        ///< The intensities the file states (spAI, dpAI, intAI).
};

/// Splits one CSV record into fields (double-quoted fields may hold commas and "").
std::vector<std::string> split_csv_record(const std::string& line);

/// Reads every row; the Error names the first bad line.
Result<std::vector<ProfiledLaunch>> read_profiling_csv(const std::filesystem::path& path);

}  // namespace kopt
