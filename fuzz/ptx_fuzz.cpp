// PTX as nvcc -ptx writes it, costed by the static roofline.
#include "fuzz/fuzz_input.h"
#include "tools/roofline/static_ptx.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)kopt::cost_ptx(kopt::fuzz::text_of(data, size), 16);
  return 0;
}
