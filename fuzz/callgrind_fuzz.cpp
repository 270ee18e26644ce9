// callgrind.out files.
#include "fuzz/fuzz_input.h"
#include "tools/profile/callgrind.h"
#include "tools/profile/profile_builder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kopt::ProfileBuilder builder;
  kopt::attribute_callgrind(kopt::fuzz::text_of(data, size), "/tmp/b/bench", "kernel.cpp", builder);
  kopt::CpuProfile profile;
  builder.finish("int a;\nint b;\n", profile);
  return 0;
}
