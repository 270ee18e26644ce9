// Accumulates counts into a CpuProfile, whichever profiler produced them, and ranks them.
#pragma once

#include <map>
#include <string>

#include "tools/profile/cpu_profile.h"

namespace kopt {

class ProfileBuilder {
 public:
  /// Counts spent in a line's own instructions.
  void add_self(int line, uint64_t count);
  /// Counts spent in `callee` (a library function) called from a line.
  void add_callee(int line, const std::string& callee, uint64_t count);
  /// Counts by place (where::*); the total is the sum over places.
  void add_place(const std::string& place, uint64_t count);
  /// Self counts of a function.
  void add_function(const std::string& name, const std::string& object, uint64_t count);

  /// Fills `profile`'s counts, ranked, with each line's text from `kernel_source`.
  void finish(const std::string& kernel_source, CpuProfile& profile) const;

 private:
  std::map<int, LineCount> lines_;
  std::map<std::string, uint64_t> places_;
  std::map<std::pair<std::string, std::string>, uint64_t> functions_;
};

/// The file name of a path ("/tmp/build-1/kernel.cpp" -> "kernel.cpp").
std::string file_name_of(const std::string& path);

/// The place of code in `object` outside the kernel: where::kOpenMp for libgomp, ...
std::string place_of_object(const std::string& object, bool is_benchmark_binary);

}  // namespace kopt
