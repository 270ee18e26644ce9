// The benchmark harness's output files (KOPTOUT1), read and compared with themselves.
#include "fuzz/fuzz_input.h"
#include "tools/eval/outputs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto path = kopt::fuzz::write_scratch("outputs.bin", kopt::fuzz::text_of(data, size));
  if (auto records = kopt::read_outputs(path))
    for (const auto& record : *records) (void)kopt::compare(record, record, 1e-6, 1e-9);
  return 0;
}
