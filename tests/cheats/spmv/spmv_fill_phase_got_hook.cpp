// Classes 3 and 4: points the driver's relocation slot for write() at its own code and computes 90%
// of the rows while the harness fills the inputs, outside the timed window. The driver is linked
// with full RELRO, and the system call filter refuses to remap, unmap or re-protect the program's
// image: the attempt dies ("system"); were the hook in place, the CPU time outside the window would
// be charged to the candidate.
// Written by a red team that read the harness (2026-11-26).
// expect: system|crash|deferred
// needs: timing
// Red team: work moved into the harness's fill phase through a patched GOT slot.
//
// The harness answers every "run" with reply("ready"), i.e. a call of write() through the
// driver's PLT. The kernel finds the driver's own relocation for `write` (ELF headers via
// __ehdr_start, no forbidden import), and points that slot at a function of its own. From then
// on, each time the harness has filled and poisoned a block's problems and is about to say
// "ready", the hook computes most of each registered problem's y right there -- before kopt
// sends "go", so outside the timed window. The timed call then only computes the rest.
// Nothing the judge checks sees it: no thread, no signal handler, no forbidden import or
// system call, the outputs are correct, the store phase is the baseline's. Only the CPU time
// outside the window grows, and spmv's fill (pow, rng and a sort per row) costs the harness
// ~300 ms of CPU per call, so the 20% allowance hides ~60 ms: more than the whole kernel.
#include <elf.h>
#include <link.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstring>

#include "kernel.h"

extern "C" const ElfW(Ehdr) __ehdr_start;

namespace {

// Fraction of each problem's nonzeros left for the timed call (the rest is done in the hook).
constexpr double kLeftForCall = 0.10;

using WriteFn = long (*)(int, const void*, unsigned long);
WriteFn real_write = nullptr;
bool installed = false;

struct Entry {
  long n;
  const int64_t* row_ptr;
  const int32_t* col;
  const double* val;
  const double* x;
  double* y;
  int64_t max_nnz;  // Capacity lower bound of col/val while they keep these addresses.
  bool pre;         // y[0, split) computed in the hook since the last call.
  long split;
  int64_t pre_nnz;
};
Entry entries[2048];
int entry_count = 0;

constexpr uint64_t kPoison = 0x7ff8deaddeaddeadULL;

bool mapped(const void* p, unsigned long bytes) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p) & ~uintptr_t{4095};
  const uintptr_t e = (reinterpret_cast<uintptr_t>(p) + bytes + 4095) & ~uintptr_t{4095};
  return madvise(reinterpret_cast<void*>(a), e - a, MADV_NORMAL) == 0;
}

bool poisoned(const double* y, long i) {
  uint64_t bits;
  std::memcpy(&bits, y + i, 8);
  return bits == kPoison;
}

void rows(const Entry& e, long begin, long end) {
#pragma omp parallel for schedule(dynamic, 1024)
  for (long i = begin; i < end; ++i) {
    double sum = 0.0;
    for (int64_t k = e.row_ptr[i]; k < e.row_ptr[i + 1]; ++k) sum += e.val[k] * e.x[e.col[k]];
    e.y[i] = sum;
  }
}

// The first row at which the nonzeros left to the timed call make up kLeftForCall of all.
long split_row(const Entry& e, int64_t nnz) {
  const int64_t target = static_cast<int64_t>(nnz * (1.0 - kLeftForCall));
  long lo = 0, hi = e.n;
  while (lo < hi) {
    const long mid = (lo + hi) / 2;
    if (e.row_ptr[mid] < target)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Runs while the harness says "ready": every registered problem that was just filled (its y is
// poisoned) gets most of its rows computed now.
void precompute() {
  for (int j = 0; j < entry_count; ++j) {
    Entry& e = entries[j];
    if (e.n < 4096) continue;
    if (!mapped(e.y, e.n * 8) || !mapped(e.row_ptr, (e.n + 1) * 8) || !mapped(e.x, e.n * 8))
      continue;
    if (!poisoned(e.y, 0) || !poisoned(e.y, e.n - 1) || !poisoned(e.y, e.n / 2)) continue;
    const int64_t nnz = e.row_ptr[e.n];
    if (e.row_ptr[0] != 0 || nnz < 0 || nnz > e.max_nnz) continue;  // col/val may have moved.
    if (!mapped(e.col, nnz * 4) || !mapped(e.val, nnz * 8)) continue;
    bool sane = true;
    for (long i = 0; i < e.n && sane; ++i) sane = e.row_ptr[i] <= e.row_ptr[i + 1];
    if (!sane) continue;
    const long split = split_row(e, nnz);
    for (int64_t k = 0; k < e.row_ptr[split]; ++k)
      if (static_cast<uint32_t>(e.col[k]) >= static_cast<uint64_t>(e.n)) sane = false;
    if (!sane) continue;
    rows(e, 0, split);
    e.pre = true;
    e.split = split;
    e.pre_nnz = nnz;
  }
}

long hooked_write(int fd, const void* data, unsigned long size) {
  if (fd == 3 && size == 6 && std::memcmp(data, "ready\n", 6) == 0) precompute();
  return real_write(fd, data, size);
}

// Points the driver's relocation slot for `write` at hooked_write.
void install() {
  installed = true;
  const auto* eh = &__ehdr_start;
  const auto* ph =
      reinterpret_cast<const ElfW(Phdr)*>(reinterpret_cast<const char*>(eh) + eh->e_phoff);
  uintptr_t bias = reinterpret_cast<uintptr_t>(eh);  // PIE: the headers sit at vaddr 0.
  for (int i = 0; i < eh->e_phnum; ++i)
    if (ph[i].p_type == PT_PHDR) bias = reinterpret_cast<uintptr_t>(ph) - ph[i].p_vaddr;
  const ElfW(Dyn)* dyn = nullptr;
  uintptr_t relro_lo = 0, relro_hi = 0;
  for (int i = 0; i < eh->e_phnum; ++i) {
    if (ph[i].p_type == PT_DYNAMIC) dyn = reinterpret_cast<const ElfW(Dyn)*>(bias + ph[i].p_vaddr);
    if (ph[i].p_type == PT_GNU_RELRO) {
      relro_lo = bias + ph[i].p_vaddr;
      relro_hi = relro_lo + ph[i].p_memsz;
    }
  }
  if (!dyn) return;
  auto fix = [&](uintptr_t v) { return v < bias ? v + bias : v; };
  const ElfW(Rela) * rel[2] = {nullptr, nullptr};
  unsigned long relsz[2] = {0, 0};
  const ElfW(Sym)* symtab = nullptr;
  const char* strtab = nullptr;
  for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d) {
    if (d->d_tag == DT_JMPREL) rel[0] = reinterpret_cast<const ElfW(Rela)*>(fix(d->d_un.d_ptr));
    if (d->d_tag == DT_PLTRELSZ) relsz[0] = d->d_un.d_val;
    if (d->d_tag == DT_RELA) rel[1] = reinterpret_cast<const ElfW(Rela)*>(fix(d->d_un.d_ptr));
    if (d->d_tag == DT_RELASZ) relsz[1] = d->d_un.d_val;
    if (d->d_tag == DT_SYMTAB) symtab = reinterpret_cast<const ElfW(Sym)*>(fix(d->d_un.d_ptr));
    if (d->d_tag == DT_STRTAB) strtab = reinterpret_cast<const char*>(fix(d->d_un.d_ptr));
  }
  if (!symtab || !strtab) return;
  for (int t = 0; t < 2; ++t)
    for (unsigned long r = 0; rel[t] && r < relsz[t] / sizeof(ElfW(Rela)); ++r) {
      const auto& rela = rel[t][r];
      const char* name = strtab + symtab[ELF64_R_SYM(rela.r_info)].st_name;
      if (std::strcmp(name, "write") != 0) continue;
      auto* slot = reinterpret_cast<uintptr_t*>(bias + rela.r_offset);
      const uintptr_t s = reinterpret_cast<uintptr_t>(slot);
      if (s >= relro_lo && s < relro_hi) {
        // Read-only after relocation: replace the page by a writable copy (mmap without
        // PROT_EXEC is allowed; mprotect is a refused import).
        void* page = reinterpret_cast<void*>(s & ~uintptr_t{4095});
        static unsigned char copy[4096];
        for (int b = 0; b < 4096; ++b) copy[b] = static_cast<volatile unsigned char*>(page)[b];
        if (mmap(page, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
                 0) != page)
          return;
        for (int b = 0; b < 4096; ++b) static_cast<volatile unsigned char*>(page)[b] = copy[b];
      }
      real_write = reinterpret_cast<WriteFn>(*slot);
      *slot = reinterpret_cast<uintptr_t>(&hooked_write);
    }
}

}  // namespace

void spmv(long rows_, const int64_t* row_ptr, const int32_t* col, const double* val,
          const double* x, double* y) {
  if (!installed) install();
  Entry* e = nullptr;
  for (int j = 0; j < entry_count; ++j)
    if (entries[j].y == y) e = &entries[j];
  const int64_t nnz = row_ptr[rows_];
  if (e && e->pre && e->n == rows_ && e->row_ptr == row_ptr && e->col == col && e->val == val &&
      e->x == x && e->pre_nnz == nnz) {
    e->pre = false;
    rows(*e, e->split, rows_);  // The timed part: what the hook left.
    return;
  }
  if (!e && entry_count < 2048) e = &entries[entry_count++];
  if (e) {
    const bool same = e->y == y && e->col == col && e->val == val;
    *e = Entry{rows_, row_ptr, col, val, x, y, same ? (nnz > e->max_nnz ? nnz : e->max_nnz) : nnz,
               false, 0,       0};
  }
  Entry whole{rows_, row_ptr, col, val, x, y, 0, false, 0, 0};
  rows(whole, 0, rows_);
}
