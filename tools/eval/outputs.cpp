#include "tools/eval/outputs.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

#include "util/files.h"

namespace kopt {

size_t dtype_bytes(uint8_t dtype) {
  switch (dtype) {
    case 1:
    case 3:
    case 6:
      return 4;
    case 2:
    case 4:
    case 7:
      return 8;
    case 5:
      return 1;
    default:
      return 0;
  }
}

namespace {

constexpr uint32_t kPoisonF32 = 0x7fc0dead;  // Must match harness.h.
constexpr uint64_t kPoisonF64 = 0x7ff8deaddeaddeadULL;
constexpr unsigned char kPoisonByte = 0xA5;

class Reader {
 public:
  explicit Reader(const std::string& data) : data_(data) {}
  bool done() const { return pos_ == data_.size(); }
  template <class T>
  bool get(T& value) {
    if (data_.size() - pos_ < sizeof(T)) return false;
    std::memcpy(&value, data_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool bytes(size_t n, std::vector<unsigned char>& out) {
    if (data_.size() - pos_ < n) return false;
    out.assign(data_.begin() + static_cast<long>(pos_),
               data_.begin() + static_cast<long>(pos_ + n));
    pos_ += n;
    return true;
  }
  size_t pos() const { return pos_; }

 private:
  const std::string& data_;
  size_t pos_ = 0;
};

bool read_array(Reader& in, OutputArray& array) {
  uint32_t name_size = 0;
  std::vector<unsigned char> name;
  if (!in.get(name_size) || name_size > 4096 || !in.bytes(name_size, name)) return false;
  array.name.assign(name.begin(), name.end());
  if (!in.get(array.dtype) || !in.get(array.count)) return false;
  const size_t size = dtype_bytes(array.dtype);
  if (size == 0 || array.count > (uint64_t{1} << 40) / size) return false;
  return in.bytes(array.count * size, array.bytes);
}

// The element at `p` as a T (the bytes need not be aligned).
template <class T>
T load(const unsigned char* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

double value_at(const ArrayView& a, uint64_t i) {
  const unsigned char* p = a.data + i * dtype_bytes(a.dtype);
  switch (a.dtype) {
    case 1:
      return load<float>(p);
    case 2:
      return load<double>(p);
    case 3:
      return load<int32_t>(p);
    case 4:
      return static_cast<double>(load<int64_t>(p));
    case 5:
      return p[0];
    case 6:
      return load<uint32_t>(p);
    default:
      return static_cast<double>(load<uint64_t>(p));
  }
}

bool is_poison(const ArrayView& a, uint64_t i) {
  const size_t size = dtype_bytes(a.dtype);
  const unsigned char* p = a.data + i * size;
  if (a.dtype == 1) return load<uint32_t>(p) == kPoisonF32;
  if (a.dtype == 2) return load<uint64_t>(p) == kPoisonF64;
  for (size_t b = 0; b < size; ++b)
    if (p[b] != kPoisonByte) return false;
  return true;
}

bool is_float(uint8_t dtype) {
  return dtype == 1 || dtype == 2;
}

// Whether `got` is `want` within the tolerance. An infinity matches only itself (an overflow the
// original has too: inf - inf is NaN, and inf is within an infinite tolerance of anything); a
// NaN matches nothing, not even the original's NaN.
bool within(double got, double want, double rtol, double atol) {
  // No tolerance: the same value with the same sign (a copy must keep -0.0, red team 18).
  if (rtol == 0 && atol == 0) return got == want && std::signbit(got) == std::signbit(want);
  if (std::isinf(want) || std::isinf(got)) return got == want;
  return std::fabs(got - want) <= atol + rtol * std::fabs(want);  // NaN compares false.
}

std::string show(double v) {
  return fmt::format("{:.9g}", v);
}

// The common case, every element within the tolerance, in one tight loop: the timed calls'
// outputs (tens of megabytes a call) are compared here. False sends the caller to the slow
// path, which finds what is wrong and says so.
template <class T>
bool all_within(const ArrayView& c, const ArrayView& r, double rtol, double atol,
                OutputError& result) {
  double max_abs = 0, max_rel = 0, used = 0;
  bool ok = true;
  for (uint64_t i = 0; i < r.count; ++i) {
    const double got = load<T>(c.data + i * sizeof(T)), want = load<T>(r.data + i * sizeof(T));
    const double err = std::fabs(got - want), magnitude = std::fabs(want);
    const double allowed = atol + rtol * magnitude;
    ok &= within(got, want, rtol, atol);
    max_abs = std::max(max_abs, err);
    max_rel = std::max(max_rel, magnitude != 0 ? err / magnitude : 0.0);
    used = std::max(used, allowed > 0 ? err / allowed : 0.0);  // At most 1 here.
  }
  if (!ok) return false;
  result.max_abs_error = max_abs;
  result.max_rel_error = max_rel;
  result.tolerance_used = used;
  return true;
}

bool fast_match(const ArrayView& c, const ArrayView& r, double rtol, double atol,
                OutputError& result) {
  if (r.dtype == 1) return all_within<float>(c, r, rtol, atol, result);
  if (r.dtype == 2) return all_within<double>(c, r, rtol, atol, result);
  return std::memcmp(c.data, r.data, r.count * dtype_bytes(r.dtype)) == 0;
}

// The absolute tolerance for one output: the manifest's atol, unless every value of the
// reference lies below it, where atol would admit any answer (a product of subnormals, zeros
// from a flush-to-zero kernel included; accelerations at a softening of 1e12): then atol times
// the largest finite magnitude (red team 15). Outputs with any value at or above atol keep it.
template <class T>
double largest_finite_below(const ArrayView& r, double bound) {
  double largest = 0;
  for (uint64_t i = 0; i < r.count && largest < bound; ++i) {
    const double v = std::fabs(static_cast<double>(load<T>(r.data + i * sizeof(T))));
    if (std::isfinite(v)) largest = std::max(largest, v);  // Poison is a NaN: left out.
  }
  return largest;
}

double scaled_atol(const ArrayView& r, double atol) {
  double largest = atol;
  if (r.dtype == 1) largest = largest_finite_below<float>(r, atol);
  if (r.dtype == 2) largest = largest_finite_below<double>(r, atol);
  return largest < atol ? atol * largest : atol;
}

void compare_array(const ArrayView& c, const ArrayView& r, double rtol, double atol_given,
                   Comparison& result, OutputError& error) {
  const double atol = scaled_atol(r, atol_given);
  if (r.count == 0 || fast_match(c, r, rtol, atol, error)) return;
  uint64_t first_bad = 0, unwritten = 0, nans = 0, infinities = 0;
  bool any_bad = false;
  for (uint64_t i = 0; i < r.count; ++i) {
    const double got = value_at(c, i), want = value_at(r, i);
    bool bad;
    if (is_poison(c, i) && !is_poison(r, i)) {
      ++unwritten;
      bad = true;
    } else if (is_float(r.dtype)) {
      const double err = std::fabs(got - want);
      bad = !within(got, want, rtol, atol);
      if (std::isnan(got)) ++nans;
      if (bad && (std::isinf(got) || std::isinf(want))) ++infinities;
      if (std::isfinite(err)) {
        error.max_abs_error = std::max(error.max_abs_error, err);
        if (want != 0) error.max_rel_error = std::max(error.max_rel_error, err / std::fabs(want));
        const double allowed = atol + rtol * std::fabs(want);
        // Capped: an error of 1e300 against a tolerance of 1e-300 is no number JSON can hold.
        if (allowed > 0)
          error.tolerance_used = std::max(error.tolerance_used, std::min(err / allowed, 1e300));
      }
    } else {
      bad = std::memcmp(c.data + i * dtype_bytes(c.dtype), r.data + i * dtype_bytes(r.dtype),
                        dtype_bytes(r.dtype)) != 0;
    }
    if (bad && !any_bad) first_bad = i;
    any_bad = any_bad || bad;
    result.mismatches += bad;
  }
  if (!any_bad || !result.ok) return;
  result.ok = false;
  std::string where = fmt::format(
      "output '{}' differs at {} of {} elements (first at index {}: got {}, expected {})", r.name,
      result.mismatches, r.count, first_bad,
      is_poison(c, first_bad) ? "never written" : show(value_at(c, first_bad)),
      show(value_at(r, first_bad)));
  if (is_poison(r, first_bad) || (is_float(r.dtype) && std::isnan(value_at(r, first_bad))))
    where += fmt::format(
        " (the original's own output is {} there: a driver whose kernel reads '{}' before "
        "writing it registers it with inout(), not output(); see docs/benchmarks.md)",
        is_poison(r, first_bad) ? "never written" : "NaN", r.name);
  if (unwritten) {
    result.category = "unwritten";
    result.reason =
        fmt::format("{} elements of output '{}' were never written (the kernel skipped work); {}",
                    unwritten, r.name, where);
  } else if (nans) {
    result.category = "nan";
    result.reason = fmt::format("{} elements of output '{}' are NaN; {}", nans, r.name, where);
  } else if (is_float(r.dtype) && rtol == 0 && atol == 0) {
    result.category = "wrong";
    result.reason = where + " (no tolerance: every value exactly, the sign of zero too)";
  } else if (is_float(r.dtype) && error.max_rel_error < 1e-2 && infinities == 0) {
    result.category = "precision";
    result.reason =
        fmt::format("{}; max relative error {:.3g} exceeds rtol {:.3g}: lowered precision?", where,
                    error.max_rel_error, rtol);
  } else {
    result.category = "wrong";
    result.reason = where;
  }
}

}  // namespace

Result<std::vector<OutputRecord>> read_outputs(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return fail("no output file (" + path.filename().string() + ") was written");
  auto content = read_file(path, kMaxOutputFileBytes);
  if (!content) return content.error();
  const std::string& data = *content;
  if (data.size() < 8 || std::memcmp(data.data(), "KOPTOUT1", 8) != 0)
    return fail("the output file is empty or not a kopt output file");
  Reader in(data);
  std::vector<unsigned char> magic;
  in.bytes(8, magic);
  std::vector<OutputRecord> records;
  while (!in.done()) {
    OutputRecord record;
    uint32_t arrays = 0;
    if (!in.get(record.label) || !in.get(arrays) || arrays > 1024)
      return fail(fmt::format("the output file is truncated at byte {}", in.pos()));
    record.arrays.resize(arrays);
    for (auto& array : record.arrays)
      if (!read_array(in, array))
        return fail(fmt::format("the output file is truncated at byte {}", in.pos()));
    records.push_back(std::move(record));
  }
  return records;
}

RecordView view_of(const OutputRecord& record) {
  RecordView view;
  view.label = record.label;
  for (const auto& a : record.arrays)
    view.arrays.push_back({a.name, a.dtype, a.count, a.bytes.data()});
  return view;
}

Comparison compare(const OutputRecord& candidate, const OutputRecord& reference, double rtol,
                   double atol) {
  return compare(view_of(candidate), view_of(reference), rtol, atol);
}

Comparison compare(const RecordView& candidate, const RecordView& reference, double rtol,
                   double atol) {
  Comparison result;
  auto shape = [](std::string reason) {
    Comparison c;
    c.ok = false;
    c.category = "shape";
    c.reason = std::move(reason);
    return c;
  };
  if (candidate.arrays.size() != reference.arrays.size())
    return shape(fmt::format("{} output arrays written, expected {}", candidate.arrays.size(),
                             reference.arrays.size()));
  for (size_t k = 0; k < reference.arrays.size(); ++k) {
    const auto& c = candidate.arrays[k];
    const auto& r = reference.arrays[k];
    if (c.name != r.name || c.dtype != r.dtype || c.count != r.count)
      return shape(
          fmt::format("output '{}' has {} elements, expected {}", r.name, c.count, r.count));
    OutputError error{std::string(r.name)};
    compare_array(c, r, rtol, atol, result, error);
    result.max_abs_error = std::max(result.max_abs_error, error.max_abs_error);
    result.max_rel_error = std::max(result.max_rel_error, error.max_rel_error);
    result.outputs.push_back(std::move(error));
  }
  return result;
}

bool identical(const RecordView& a, const RecordView& b) {
  if (a.arrays.size() != b.arrays.size()) return false;
  for (size_t k = 0; k < a.arrays.size(); ++k) {
    const ArrayView &x = a.arrays[k], &y = b.arrays[k];
    if (x.dtype != y.dtype || x.count != y.count || std::memcmp(x.data, y.data, byte_size(x)) != 0)
      return false;
  }
  return true;
}

bool identical(const OutputRecord& a, const OutputRecord& b) {
  return identical(view_of(a), view_of(b));
}

}  // namespace kopt
