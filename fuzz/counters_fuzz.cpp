// Counter files: Nsight Compute CSV rows and the CUPTI library's counters.jsonl, two parts
// separated by a line "====".
#include "fuzz/fuzz_input.h"
#include "tools/profile/gpu_counters.h"
#include "tools/roofline/profiling_csv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto parts = kopt::fuzz::split_parts(kopt::fuzz::text_of(data, size), 2);
  const auto csv = kopt::fuzz::write_scratch("counters.csv", parts[0]);
  if (auto launches = kopt::read_profiling_csv(csv))
    for (const auto& launch : *launches) (void)kopt::intensities(launch.counters);
  const auto jsonl = kopt::fuzz::write_scratch("gpu/counters.jsonl", parts[1]);
  if (auto counters = kopt::read_gpu_counters(jsonl.parent_path()))
    for (const auto& kernel : kopt::per_kernel(*counters)) (void)kopt::to_kernel_counters(kernel);
  return 0;
}
