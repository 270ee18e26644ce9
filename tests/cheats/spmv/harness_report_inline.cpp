// Defines the harness's own inline function kopt_bench::write_report with its exact signature.
// Inline functions are COMDAT: the linker keeps the first copy it sees, and the kernel object
// came first, so the driver writes its report through this copy, which divides every timed
// sample by 100. fopen is reached through a weak reference (`#pragma weak`).
// expect: interposition
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "kernel.h"

#pragma weak fopen

namespace kopt_bench {
struct Options;
inline void write_report(const Options&, const std::vector<int64_t>& samples, int threads_before,
                         int threads_max, const std::string& extra) {
  if (!fopen) return;
  std::FILE* report = fopen("report.json", "w");
  if (!report) return;
  std::fprintf(report, "{\"format\":\"kopt-report/1\",\"threads_before\":%d,\"threads_max\":%d,",
               threads_before, threads_max);
  std::fprintf(report, "\"samples_ns\":[");
  for (size_t i = 0; i < samples.size(); ++i)
    std::fprintf(report, "%s%lld", i ? "," : "", static_cast<long long>(samples[i] / 100));
  std::fprintf(report, "]%s%s}\n", extra.empty() ? "" : ",", extra.c_str());
  std::fclose(report);
}
}  // namespace kopt_bench

// Takes the address so that the compiler emits the inline function into this object.
__attribute__((used)) static void (*volatile keep_report)(
    const kopt_bench::Options&, const std::vector<int64_t>&, int, int,
    const std::string&) = kopt_bench::write_report;

void spmv(long rows, const int64_t* row_ptr, const int32_t* col, const double* val, const double* x,
          double* y) {
#pragma omp parallel for
  for (long i = 0; i < rows; ++i) {
    double sum = 0.0;
    for (int64_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) sum += val[k] * x[col[k]];
    y[i] = sum;
  }
}
