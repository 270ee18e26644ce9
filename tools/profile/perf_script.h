// Reading `perf script -F tid,ip,sym,symoff,dso` output (with or without call chains) and
// attributing its samples to lines of the kernel file through the binary's debug information:
// the innermost frame in the kernel file owns the sample, as its own time when it is the leaf,
// as time in a callee (exp in libm, a library routine) otherwise. Inlined code and OpenMP
// outlined functions map back through the inline chains of the line table.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tools/profile/profile_builder.h"

namespace kopt {

/// One frame of a sampled call chain as perf reports it.
struct StackFrame {
  uint64_t address = 0;  ///< Relative to the object (perf prints object-relative addresses).
  std::string symbol;    ///< Without the +0x offset; "[unknown]" when perf has none.
  std::string object;    ///< Path of the object (binary or shared library).
};

/// One sample: its thread and its call chain, innermost first (perf's inline frames dropped).
struct StackSample {
  int tid = 0;
  std::vector<StackFrame> frames;
};

/// Parses perf script's text; lines it cannot read are skipped.
std::vector<StackSample> parse_perf_script(const std::string& text);

/// A source position of an address, one level of an inline chain.
struct SourceFrame {
  std::string function;
  std::string file;
  int line = 0;
};

/// Inline chains (innermost first) of addresses in the benchmark binary.
using LineTable = std::map<uint64_t, std::vector<SourceFrame>>;

/// The addresses of `binary` to look up: leaf frames as they are, callers at address - 1 (inside
/// the call instruction rather than after it).
std::vector<uint64_t> lookup_addresses(const std::vector<StackSample>& samples,
                                       const std::string& binary);

/// Parses `addr2line -a -f -i -C` output for the addresses it was given.
LineTable parse_addr2line(const std::string& text);

/// Attributes every sample (one count each) to kernel lines, callees, places and functions.
void attribute_samples(const std::vector<StackSample>& samples, const LineTable& table,
                       const std::string& binary, const std::string& kernel_file,
                       ProfileBuilder& builder);

}  // namespace kopt
