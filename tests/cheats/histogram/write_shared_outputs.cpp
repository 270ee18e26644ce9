// Class 5 (numbers produced inside the candidate's process): kopt reads outputs from a shared
// memory the driver receives as fd 4. This kernel maps it itself, skips its work at the time
// size, writes counts that add up to n into every slot, and answers for the harness on the reply
// channel so that kopt reads them at once. The answers lack the block's nonce.
// kopt-driver/4: there is no fd 4 to map now (kopt reads the outputs out of the stopped child),
// so the trick is gone and the kernel is the original.
// expect: protocol|no-gain
// needs: timing
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstring>

#include "kernel.h"

void histogram(const double* v, long n, double lo, double hi, int64_t* counts, int bins) {
  if (n == 4194304) {
    struct stat info {};
    if (fstat(4, &info) == 0 && info.st_size > 0) {
      void* p = mmap(nullptr, info.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, 4, 0);
      if (p != MAP_FAILED) {
        auto* slots = static_cast<int64_t*>(p);
        for (long k = 0; k < info.st_size / 8; ++k) slots[k] = n / bins;
        munmap(p, info.st_size);
      }
      char forged[] = "done\nstored 1\n";
      iovec line{forged, sizeof forged - 1};
      (void)!writev(3, &line, 1);  // The import scan refuses write, not writev.
      return;
    }
  }
  for (int b = 0; b < bins; ++b) counts[b] = 0;
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    double t = (v[i] - lo) / (hi - lo) * bins;
    if (t < 0) t = 0;
    const long b = t >= bins ? bins - 1 : static_cast<long>(t);
#pragma omp atomic
    counts[b]++;
  }
}
