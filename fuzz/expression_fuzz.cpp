// The work expressions of benchmark manifests ("2*n^3 + n*log2(n)").
#include "fuzz/fuzz_input.h"
#include "tools/benchmark/expression.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)kopt::evaluate_expression(kopt::fuzz::text_of(data, size), 1000);
  return 0;
}
