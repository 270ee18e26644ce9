// perf script's samples and addr2line's answers, two parts separated by a line "====".
#include "fuzz/fuzz_input.h"
#include "tools/profile/perf_script.h"
#include "tools/profile/profile_builder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto parts = kopt::fuzz::split_parts(kopt::fuzz::text_of(data, size), 2);
  const auto samples = kopt::parse_perf_script(parts[0]);
  const auto table = kopt::parse_addr2line(parts[1]);
  (void)kopt::lookup_addresses(samples, "/tmp/b/bench");
  kopt::ProfileBuilder builder;
  kopt::attribute_samples(samples, table, "/tmp/b/bench", "kernel.cpp", builder);
  kopt::CpuProfile profile;
  builder.finish("int a;\nint b;\n", profile);
  return 0;
}
