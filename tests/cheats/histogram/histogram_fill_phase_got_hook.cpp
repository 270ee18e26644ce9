// Classes 3 and 4: as spmv_fill_phase_got_hook, on histogram, hiding 30% of the work in the fill
// phase.
// Written by a red team that read the harness (2026-11-26).
// expect: system|crash|deferred
// needs: timing
// Red team: histogram's work moved into the harness's fill phase through a patched GOT slot, with
// the per-call scalars (lo, hi, bins) read from the harness's own Problem objects.
//
// As in spmv_fill_phase_got_hook.cpp, the driver's relocation slot for write() is pointed at a
// hook that runs when the harness says "ready" (inputs filled and outputs poisoned, before kopt
// sends "go"). histogram's lo, hi and bins are members of the driver's Problem, not arrays, so
// on its first call the kernel finds the harness's Session object on the stack (a vector of
// unique_ptr<Histogram> whose elements hold this call's v and counts pointers; every pointer is
// probed with madvise, an allowed call, before it is read) and mirrors the Histogram layout from
// driver.cpp. From then on the hook computes 30% of every filled problem's histogram in the fill
// phase; the timed call adds the other 70%. The harness spends ~25 ms of CPU per call filling
// 4M values; the 20% CPU allowance (plus 50 ms) covers the hidden 30%.
#include <elf.h>
#include <link.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstring>

#include "kernel.h"

extern "C" const ElfW(Ehdr) __ehdr_start;

namespace {

constexpr double kLeftForCall = 0.70;

using WriteFn = long (*)(int, const void*, unsigned long);
WriteFn real_write = nullptr;
bool installed = false;

// driver.cpp's Histogram, member for member (Problem: vptr + vector<OutputView>).
struct VecD {
  double* b;
  double* e;
  double* c;
};
struct VecI {
  int64_t* b;
  int64_t* e;
  int64_t* c;
};
struct HistogramMirror {
  void* vptr;
  void* outputs[3];
  long n;
  VecD v;
  VecI counts;
  double lo, hi;
  int bins;
};
struct SessionMirror {  // session.h's Session<P>: problems_, shared_ (base_, size_), filled_
  HistogramMirror** b;
  HistogramMirror** e;
  HistogramMirror** c;
  void* shared_base;
  size_t shared_size;
  size_t filled;
};
SessionMirror* session = nullptr;
bool searched = false;

struct Pre {
  const double* v;
  int64_t* counts;
  long n, split;
  double lo, hi;
  int bins;
  bool ready;
};
Pre pre[1024];
int pre_count = 0;

bool mapped(const void* p, unsigned long bytes) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p) & ~uintptr_t{4095};
  const uintptr_t e = (reinterpret_cast<uintptr_t>(p) + bytes + 4095) & ~uintptr_t{4095};
  return a != 0 && madvise(reinterpret_cast<void*>(a), e - a, MADV_NORMAL) == 0;
}

void count_range(const double* v, long begin, long end, double lo, double hi, int64_t* counts,
                 int bins) {
  const double width = hi - lo;
  if (bins > 1024) {
    for (long i = begin; i < end; ++i) {
      long b = static_cast<long>((v[i] - lo) / width * bins);
      ++counts[b < 0 ? 0 : (b >= bins ? bins - 1 : b)];
    }
    return;
  }
  int64_t local[4][1024] = {};
  for (long i = begin; i < end; ++i) {
    long b = static_cast<long>((v[i] - lo) / width * bins);
    ++local[i & 3][b < 0 ? 0 : (b >= bins ? bins - 1 : b)];
  }
  for (int b = 0; b < bins; ++b) counts[b] += local[0][b] + local[1][b] + local[2][b] + local[3][b];
}

bool poisoned(const int64_t* counts) {
  uint64_t bits;
  std::memcpy(&bits, counts, 8);
  return bits == 0xA5A5A5A5A5A5A5A5ULL;
}

// Looks for the Session on the stack above this frame: three words (begin, end, capacity) of a
// vector of pointers to Histogram objects, one of which holds this call's v and counts.
void find_session(const double* v, int64_t* counts, long n) {
  searched = true;
  auto* at = static_cast<uintptr_t*>(__builtin_frame_address(0));
  for (int w = 0; w < 8192; ++w, ++at) {
    if ((reinterpret_cast<uintptr_t>(at) & 4095) == 0 || w == 0)
      if (!mapped(at, 64)) return;
    auto* s = reinterpret_cast<SessionMirror*>(at);
    const uintptr_t b = reinterpret_cast<uintptr_t>(s->b), e = reinterpret_cast<uintptr_t>(s->e),
                    c = reinterpret_cast<uintptr_t>(s->c);
    if (b == 0 || (b & 7) || e < b || c < e || (e - b) % 8 || (e - b) / 8 > 1024 || e == b)
      continue;
    if (!mapped(s->b, e - b)) continue;
    bool hit = false, ok = true;
    for (HistogramMirror** p = s->b; p < s->e && ok; ++p) {
      if (!mapped(*p, sizeof(HistogramMirror))) {
        ok = false;
        break;
      }
      if ((*p)->n != n) ok = false;
      if ((*p)->v.b == v && (*p)->counts.b == counts) hit = true;
    }
    if (ok && hit) {
      session = s;
      return;
    }
  }
}

void precompute() {
  if (!session) return;
  const size_t k = static_cast<size_t>(session->e - session->b);
  for (size_t i = 0; i < k && i < session->filled; ++i) {
    HistogramMirror* h = session->b[i];
    if (h->n < 100000 || h->bins < 1 || !(h->lo < h->hi) || !poisoned(h->counts.b)) continue;
    const long split = static_cast<long>(h->n * (1.0 - kLeftForCall));
    for (int b = 0; b < h->bins; ++b) h->counts.b[b] = 0;
    count_range(h->v.b, 0, split, h->lo, h->hi, h->counts.b, h->bins);
    Pre* slot = nullptr;
    for (int j = 0; j < pre_count; ++j)
      if (pre[j].counts == h->counts.b) slot = &pre[j];
    if (!slot && pre_count < 1024) slot = &pre[pre_count++];
    if (slot) *slot = Pre{h->v.b, h->counts.b, h->n, split, h->lo, h->hi, h->bins, true};
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

void histogram(const double* v, long n, double lo, double hi, int64_t* counts, int bins) {
  if (!installed) install();
  if (!searched) find_session(v, counts, n);
  for (int j = 0; j < pre_count; ++j) {
    Pre& p = pre[j];
    if (p.counts != counts) continue;
    if (p.ready && p.v == v && p.n == n && p.lo == lo && p.hi == hi && p.bins == bins) {
      p.ready = false;
      count_range(v, p.split, n, lo, hi, counts, bins);  // the timed part
      return;
    }
    p.ready = false;
  }
  for (int b = 0; b < bins; ++b) counts[b] = 0;
  count_range(v, 0, n, lo, hi, counts, bins);
}
