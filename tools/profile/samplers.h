// The two ways kopt profiles a driver on the CPU, both inside the sandbox as the driver's own
// unprivileged user: perf sampling a software clock with DWARF call chains (works in VMs
// without hardware counters; needs perf_event_paranoid <= 2), and callgrind counting
// instructions (deterministic; slow; valgrind 3.19 cannot decode AVX-512, so the caller builds
// the variant without it).
#pragma once

#include <chrono>
#include <string>

#include "tools/profile/cpu_profile.h"
#include "tools/profile/profile_workspace.h"
#include "util/result.h"

namespace kopt {

/// What a sampler needs besides the workspace.
struct SamplerRequest {
  DriverCall call;
  std::string kernel_file;    ///< "kernel.cpp": the name in the debug information.
  std::string kernel_source;  ///< Its text, for the lines' code.
  int frequency = 999;        ///< perf: samples per second per thread.
  std::chrono::seconds timeout{600};
};

/// Whether perf can sample a process in this sandbox; the Error says why not.
Status perf_available(const ProfileWorkspace& workspace);

/// Samples the driver with perf and attributes the samples to kernel lines.
Result<CpuProfile> profile_with_perf(const ProfileWorkspace& workspace,
                                     const SamplerRequest& request);

/// Runs the driver under callgrind (OMP_WAIT_POLICY=passive) and attributes instructions.
Result<CpuProfile> profile_with_callgrind(const ProfileWorkspace& workspace,
                                          const SamplerRequest& request);

/// The perf record command line that wraps `driver` (also used to measure the overhead).
std::vector<std::string> perf_record_args(int frequency, const std::vector<std::string>& driver);

}  // namespace kopt
