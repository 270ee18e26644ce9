// Output files written by benchmark drivers ("KOPTOUT1", see benchmarks/common/harness.h) and
// the comparison of a candidate's outputs with the original's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
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

/// Bytes per element of a dtype, 0 for a dtype that does not exist.
size_t dtype_bytes(uint8_t dtype);

/// One output array where it lies (a record, or a driver's shared memory), not copied.
struct ArrayView {
  std::string_view name;
  uint8_t dtype = 0;
  uint64_t count = 0;
  const unsigned char* data = nullptr;
};

/// All outputs of one call, seen where they lie.
struct RecordView {
  uint64_t label = 0;
  std::vector<ArrayView> arrays;
};

/// A view of a record, valid while the record lives.
RecordView view_of(const OutputRecord& record);

/// The bytes an array's elements take.
inline size_t byte_size(const ArrayView& array) {
  return array.count * dtype_bytes(array.dtype);
}

/// The largest output file read_outputs reads (a file is refused past it, never truncated): the
/// file-size limit of a CUDA driver (tools/eval/driver_run.cpp), since a GPU's timed outputs can
/// pass 1 GiB (an H100 run of transpose_cuda wrote more).
inline constexpr size_t kMaxOutputFileBytes = size_t{16} << 30;

/// Reads an output file (a regular file, at most kMaxOutputFileBytes); a short or malformed
/// file is an Error saying where it ends.
Result<std::vector<OutputRecord>> read_outputs(const std::filesystem::path& path);

/// The largest errors of one output array against the reference.
struct OutputError {
  std::string name;
  double max_abs_error = 0;
  double max_rel_error = 0;
  /// The largest error as a share of its element's tolerance, |got - want| / (atol + rtol |want|):
  /// at most 1 when the array passes; -1 when not known (integers, records made before it).
  double tolerance_used = -1;
};

/// Why two records differ, or nothing.
struct Comparison {
  bool ok = true;
  /// "wrong", "precision", "nan", "unwritten", "shape".
  std::string category;
  std::string reason;
  double max_abs_error = 0;
  double max_rel_error = 0;
  uint64_t mismatches = 0;
  std::vector<OutputError> outputs;  ///< Per array, in the reference's order.
};

/// Compares a candidate record with the reference: floating point within
/// |c - r| <= atol + rtol |r| (NaN always fails; with no tolerance at all, the same value with
/// the same sign), integers exactly, every array present with the same element count.
Comparison compare(const RecordView& candidate, const RecordView& reference, double rtol,
                   double atol);
Comparison compare(const OutputRecord& candidate, const OutputRecord& reference, double rtol,
                   double atol);

/// True when two records are bitwise identical.
bool identical(const RecordView& a, const RecordView& b);
bool identical(const OutputRecord& a, const OutputRecord& b);

}  // namespace kopt
