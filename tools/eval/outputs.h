// Output files written by benchmark drivers ("KOPTOUT1", see benchmarks/common/harness.h) and
// the comparison of a candidate's outputs with the original's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "util/result.h"

namespace kopt {

/// One output array as read from a file.
struct OutputArray {
  std::string name;
  uint8_t dtype = 0;  ///< 1 f32, 2 f64, 3 i32, 4 i64, 5 u8, 6 u32, 7 u64.
  uint64_t count = 0;
  std::vector<unsigned char> bytes;
};

/// All outputs after one kernel call; `label` is the seed (check) or the call index (time).
struct OutputRecord {
  uint64_t label = 0;
  std::vector<OutputArray> arrays;
};

/// The largest output file read_outputs reads (a file is refused past it, never truncated).
inline constexpr size_t kMaxOutputFileBytes = size_t{1} << 30;

/// Reads an output file (a regular file, at most kMaxOutputFileBytes); a short or malformed
/// file is an Error saying where it ends.
Result<std::vector<OutputRecord>> read_outputs(const std::filesystem::path& path);

/// Why two records differ, or nothing.
struct Comparison {
  bool ok = true;
  /// "wrong", "precision", "nan", "unwritten", "shape".
  std::string category;
  std::string reason;
  double max_abs_error = 0;
  double max_rel_error = 0;
  uint64_t mismatches = 0;
};

/// Compares a candidate record with the reference: floating point within
/// |c - r| <= atol + rtol |r| (NaN always fails), integers exactly, every array present with
/// the same element count.
Comparison compare(const OutputRecord& candidate, const OutputRecord& reference, double rtol,
                   double atol);

/// True when two records are bitwise identical.
bool identical(const OutputRecord& a, const OutputRecord& b);

}  // namespace kopt
