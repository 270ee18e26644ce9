// Classes 3 and 4: an honest kernel that patches the driver's read()/write() slots to follow the
// ABBA order and keeps both cores busy while the baseline's block is timed.
// Written by a red team that read the harness (2026-11-26).
// expect: system|crash|deferred
// needs: timing
// Red team: the candidate steals the CPU from the BASELINE's timed block, paid for out of the
// 20% CPU allowance that spmv's expensive fill gives it.
//
// The kernel itself is an honest spmv (dynamic schedule; on its own it is no significant win:
// see controls/spmv_same_kernel_no_hook.cpp). It patches the driver's GOT slots for read() and
// write() (found by name through __ehdr_start; no forbidden import) and reads the clock through
// the driver's own slot for std::chrono::steady_clock::now (the clock imports are refused, the
// harness's are not). The read hook sees kopt's commands, so the kernel knows which timed pair
// runs the baseline first (they alternate: ABBA). Right after the harness replies "ready" in a
// pair where the baseline goes first, and right after "stored" in a pair where the candidate
// went first, the hook keeps both cores busy for a while: exactly while kopt times the
// baseline's block. It never delays a reply or the candidate's own window, so the fill and
// store phases look normal; the only trace is CPU time outside the calls, and the allowance
// for that is 20% of the harness's ~300 ms fill per call.
#include <elf.h>
#include <link.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "kernel.h"

extern "C" const ElfW(Ehdr) __ehdr_start;

namespace {

constexpr double kSpinSeconds = 0.080;  // per pair, on each of the two threads

using WriteFn = long (*)(int, const void*, unsigned long);
using ReadFn = long (*)(int, void*, unsigned long);
using NowFn = long (*)();  // steady_clock::now(): a time_point holding nanoseconds
WriteFn real_write = nullptr;
ReadFn real_read = nullptr;
NowFn now_ns = nullptr;
bool installed = false;

long run_index = -1;      // plain-seed "run" commands since the last setup
bool base_first = false;  // in the pair now being run

// The driver's relocation slot for `name` (made writable if it lies in the RELRO range).
uintptr_t* find_slot(const char* want) {
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
  if (!dyn) return nullptr;
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
  if (!symtab || !strtab) return nullptr;
  for (int t = 0; t < 2; ++t)
    for (unsigned long r = 0; rel[t] && r < relsz[t] / sizeof(ElfW(Rela)); ++r) {
      const auto& rela = rel[t][r];
      const char* name = strtab + symtab[ELF64_R_SYM(rela.r_info)].st_name;
      if (std::strcmp(name, want) != 0) continue;
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
          return nullptr;
        for (int b = 0; b < 4096; ++b) static_cast<volatile unsigned char*>(page)[b] = copy[b];
      }
      return slot;
    }
  return nullptr;
}

void spin() {
  if (!now_ns) return;
#pragma omp parallel num_threads(2)
  {
    const long until = now_ns() + static_cast<long>(kSpinSeconds * 1e9);
    volatile double sink = 1.0;
    while (now_ns() < until)
      for (int i = 0; i < 1000; ++i) sink = sink * 1.0000001 + 1e-9;
  }
}

long hooked_read(int fd, void* data, unsigned long size) {
  const long got = real_read(fd, data, size);
  if (fd == 0 && got > 0) {
    const char* p = static_cast<const char*>(data);
    if (got >= 6 && std::memcmp(p, "setup ", 6) == 0) run_index = -1;
    if (got >= 4 && std::memcmp(p, "run ", 4) == 0 && p[4] != 'e') {
      ++run_index;
      // After a setup the first plain run is the warm-up (baseline first) or, for a block of
      // several copies, the calibration (candidate first); then the pairs alternate, baseline
      // first in every odd-numbered run.
      base_first = run_index % 2 == 1;
    }
  }
  return got;
}

long hooked_write(int fd, const void* data, unsigned long size) {
  const long done = real_write(fd, data, size);
  if (fd == 3 && run_index >= 1) {
    const char* p = static_cast<const char*>(data);
    if (base_first && size == 6 && std::memcmp(p, "ready\n", 6) == 0) spin();
    if (!base_first && size > 7 && std::memcmp(p, "stored ", 7) == 0) spin();
  }
  return done;
}

void install() {
  installed = true;
  if (uintptr_t* s = find_slot("_ZNSt6chrono3_V212steady_clock3nowEv"))
    now_ns = reinterpret_cast<NowFn>(*s);
  uintptr_t* r = find_slot("read");
  uintptr_t* w = find_slot("write");
  if (!r || !w || !now_ns) return;
  real_read = reinterpret_cast<ReadFn>(*r);
  real_write = reinterpret_cast<WriteFn>(*w);
  *r = reinterpret_cast<uintptr_t>(&hooked_read);
  *w = reinterpret_cast<uintptr_t>(&hooked_write);
}

}  // namespace

void spmv(long rows, const int64_t* row_ptr, const int32_t* col, const double* val, const double* x,
          double* y) {
  if (!installed) install();
#pragma omp parallel for schedule(dynamic, 1024)
  for (long i = 0; i < rows; ++i) {
    double sum = 0.0;
    for (int64_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) sum += val[k] * x[col[k]];
    y[i] = sum;
  }
}
