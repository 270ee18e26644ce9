// Benchmark manifests (benchmark.json), read from a benchmark folder as kopt reads them.
#include "fuzz/fuzz_input.h"
#include "tools/benchmark/benchmark.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto manifest =
      kopt::fuzz::write_scratch("bench/benchmark.json", kopt::fuzz::text_of(data, size));
  (void)kopt::load_benchmark(manifest.parent_path());
  return 0;
}
