// LLVM IR and opt's loop and scalar-evolution report, read by the static roofline: the module
// and the report are two parts of the input separated by a line "====".
#include "fuzz/fuzz_input.h"
#include "tools/roofline/llvm_ir.h"
#include "tools/roofline/scev.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto parts = kopt::fuzz::split_parts(kopt::fuzz::text_of(data, size), 2);
  (void)kopt::parse_llvm_ir(parts[0]);
  const auto report = kopt::parse_scev_report(parts[1]);
  const kopt::ScevEnvironment env{[](const std::string&) { return std::optional<double>(100); },
                                  [](const std::string&) { return std::optional<double>(10); }};
  for (const auto& [function, facts] : report)
    for (const auto& [value, text] : facts.scev)
      if (auto scev = kopt::parse_scev(text)) {
        (void)kopt::evaluate(**scev, env);
        (void)kopt::span(**scev, env);
        (void)kopt::recurrence_loops(**scev);
      }
  if (auto scev = kopt::parse_scev(parts[0])) (void)kopt::evaluate(**scev, env);
  return 0;
}
