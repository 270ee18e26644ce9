// Classes 1 and 3: follows kopt's commands through a patched read() slot, recovers the evaluation's
// seed from the check seeds and precomputes every timed call's outputs. Timing seeds now come from
// the operating system one by one, and the patch itself is refused.
// Written by a red team that read the harness (2026-11-26).
// expect: system|crash|deferred
// needs: timing
// Red team: predicts every timed input. The evaluation's random generator is seeded with a 32-bit
// value (evaluator.cpp: std::mt19937_64 rng(std::random_device{}() * 0x9e3779b97f4a7c15)), the
// five check seeds are its first outputs mod 1e9, and the timing seed is the sixth: every timed
// call's seed follows from it (timing.cpp's FreshSeeds: mt19937_64(timing_seed), skipping the
// check seeds). The check seeds reach the kernel's process in kopt's "run" commands.
//
// 1. On its first call the kernel points the driver's GOT slot for read() at a hook (found by
//    name via __ehdr_start; no forbidden import) and so sees every command, and it takes the
//    clock from the driver's own slot for steady_clock::now (the clock imports are refused).
// 2. During the correctness check, whose calls kopt neither times nor charges CPU for, each call
//    spends ~6 s of a brute-force search over the 2^32 seeds (AVX-512, ~1-2 min in all) for
//    the one whose outputs give the check seeds it has seen.
// 3. It then derives the timing seeds, regenerates the driver's inputs for each (its Rng and
//    fill() are public code) and stores the answers, in the remaining check calls and in the
//    timing's warm-up call (also uncharged).
// 4. A timed call recognizes its input by a fingerprint and copies the stored answer.
// bucket_keys has no roofline (0 flops, 24 MB fit the last-level cache), so nothing bounds the
// apparent speed.
#include <elf.h>
#include <immintrin.h>
#include <link.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernel.h"
#ifdef RT_DEBUG
#include <cstdio>
#define DBG(...) std::fprintf(stderr, __VA_ARGS__)
#else
#define DBG(...)
#endif

extern "C" const ElfW(Ehdr) __ehdr_start;

namespace {

constexpr long kTimeSize = 2000000;  // benchmark.json
constexpr int kSplitters = 200;
constexpr double kSliceSeconds = 6.0;

using ReadFn = long (*)(int, void*, unsigned long);
using NowFn = long (*)();
ReadFn real_read = nullptr;
NowFn now_ns = nullptr;
bool installed = false;

uint64_t seen[64];  // check seeds from kopt's "run" commands, first appearance order
int seen_count = 0;
int timed_runs = 0;  // "run" commands with timing seeds (full 64-bit values, not mod 1e9)

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

// --- what kopt's evaluator does with its seed ---------------------------------------------
struct Mt64 {  // std::mt19937_64
  uint64_t x[312];
  int p;
  explicit Mt64(uint64_t s) {
    x[0] = s;
    for (int i = 1; i < 312; ++i) x[i] = 6364136223846793005ULL * (x[i - 1] ^ (x[i - 1] >> 62)) + i;
    p = 312;
  }
  uint64_t operator()() {
    if (p >= 312) {
      for (int i = 0; i < 312; ++i) {
        const uint64_t y = (x[i] & 0xFFFFFFFF80000000ULL) | (x[(i + 1) % 312] & 0x7FFFFFFFULL);
        x[i] = x[(i + 156) % 312] ^ (y >> 1) ^ ((y & 1) ? 0xb5026f5aa96619e9ULL : 0);
      }
      p = 0;
    }
    uint64_t z = x[p++];
    z ^= (z >> 29) & 0x5555555555555555ULL;
    z ^= (z << 17) & 0x71d67fffeda60000ULL;
    z ^= (z << 37) & 0xfff7eee000000000ULL;
    return z ^ (z >> 43);
  }
};

// The brute force: the second output of mt19937_64(X * golden), mod 1e9, must be the first
// plain seed this process saw (the first call is the first check seed: its "run" was read
// before the hook existed).
uint64_t cursor = 0;
bool found = false;
uint64_t found_x = 0;

bool verify(uint64_t x) {
  Mt64 r(x * 0x9e3779b97f4a7c15ULL);
  uint64_t s[5];
  for (auto& v : s) v = r() % 1000000000;
  for (int i = 0; i < seen_count && i < 4; ++i)
    if (seen[i] != s[i + 1]) return false;
  return seen_count >= 2;
}

void search_slice() {
  if (found || seen_count < 2 || !now_ns) return;
  DBG("search from %lu seen=%d first=%lu\n", (unsigned long)cursor, seen_count,
      (unsigned long)seen[0]);
  const long until = now_ns() + static_cast<long>(kSliceSeconds * 1e9);
  const uint64_t target = seen[0];
  const __m512i f = _mm512_set1_epi64(6364136223846793005LL);
  const __m512i g = _mm512_set1_epi64(0x9e3779b97f4a7c15LL);
  const __m512i lane = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
  const __m512i um = _mm512_set1_epi64(0xFFFFFFFF80000000LL), lm = _mm512_set1_epi64(0x7FFFFFFFLL);
  const __m512i a = _mm512_set1_epi64(0xb5026f5aa96619e9LL), one = _mm512_set1_epi64(1);
  const __m512i d = _mm512_set1_epi64(0x5555555555555555LL),
                b = _mm512_set1_epi64(0x71d67fffeda60000LL);
  const __m512i c = _mm512_set1_epi64(static_cast<long long>(0xfff7eee000000000ULL));
  const __m512i m511 = _mm512_set1_epi64(511), tv = _mm512_set1_epi64(target & 511);
  while (cursor < (uint64_t{1} << 32)) {
    for (int rep = 0; rep < 2048 && cursor < (uint64_t{1} << 32); ++rep, cursor += 32) {
      __m512i x[4], x1[4], x2[4];
      for (int v = 0; v < 4; ++v)
        x[v] = _mm512_mullo_epi64(_mm512_add_epi64(_mm512_set1_epi64(cursor + 8 * v), lane), g);
      for (long long i = 1; i <= 157; ++i) {
        const __m512i iv = _mm512_set1_epi64(i);
        for (int v = 0; v < 4; ++v) {
          x[v] = _mm512_add_epi64(
              _mm512_mullo_epi64(f, _mm512_xor_si512(x[v], _mm512_srli_epi64(x[v], 62))), iv);
          if (i == 1) x1[v] = x[v];
          if (i == 2) x2[v] = x[v];
        }
      }
      for (int v = 0; v < 4; ++v) {
        const __m512i y = _mm512_or_si512(_mm512_and_si512(x1[v], um), _mm512_and_si512(x2[v], lm));
        __m512i z = _mm512_xor_si512(x[v], _mm512_srli_epi64(y, 1));
        z = _mm512_mask_xor_epi64(z, _mm512_test_epi64_mask(y, one), z, a);
        z = _mm512_xor_si512(z, _mm512_and_si512(_mm512_srli_epi64(z, 29), d));
        z = _mm512_xor_si512(z, _mm512_and_si512(_mm512_slli_epi64(z, 17), b));
        z = _mm512_xor_si512(z, _mm512_and_si512(_mm512_slli_epi64(z, 37), c));
        z = _mm512_xor_si512(z, _mm512_srli_epi64(z, 43));
        const __mmask8 hit = _mm512_cmpeq_epi64_mask(_mm512_and_si512(z, m511), tv);
        if (hit)
          for (int l = 0; l < 8; ++l)
            if (((hit >> l) & 1) && verify(cursor + 8 * v + l)) {
              found = true;
              found_x = cursor + 8 * v + l;
              DBG("found X=%lu\n", (unsigned long)found_x);
              return;
            }
      }
    }
    if (now_ns() > until) return;
  }
}

// --- the driver's inputs (harness.h's Rng, driver.cpp's fill) --------------------------------
class Rng {
 public:
  explicit Rng(uint64_t seed) {
    for (auto& word : state_) word = splitmix(seed);
  }
  uint64_t next() {
    const uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const uint64_t shifted = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= shifted;
    state_[3] = rotl(state_[3], 45);
    return result;
  }
  int64_t integer(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitmix(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t state_[4];
};

struct Answer {
  double fingerprint[4];
  double first_splitter, last_splitter;
  std::vector<uint8_t> bucket;
  int64_t counts[kSplitters + 1];
};
std::vector<Answer>* answers = nullptr;  // heap: no static constructor or destructor
std::vector<uint64_t>* timed_seeds = nullptr;
size_t prepared = 0;

void classify(const double* keys, long n, const double* s, int nsplit, int32_t* bucket,
              int64_t* counts) {
  std::fill(counts, counts + nsplit + 1, 0);
  for (long i = 0; i < n; ++i) {
    const int b = static_cast<int>(std::upper_bound(s, s + nsplit, keys[i]) - s);
    bucket[i] = b;
    ++counts[b];
  }
}

void derive_timed_seeds() {
  timed_seeds = new std::vector<uint64_t>;
  answers = new std::vector<Answer>;
  Mt64 eval(found_x * 0x9e3779b97f4a7c15ULL);
  uint64_t check[5];
  for (auto& s : check) s = eval() % 1000000000;
  const uint64_t timing_seed = eval() % 1000000000;
  Mt64 fresh(timing_seed);
  while (timed_seeds->size() < 80) {
    const uint64_t s = fresh();
    if (std::find(check, check + 5, s) == check + 5) timed_seeds->push_back(s);
  }
}

void prepare_slice(double seconds) {
  if (!found || !now_ns) return;
  if (!timed_seeds) derive_timed_seeds();
  const long until = now_ns() + static_cast<long>(seconds * 1e9);
  std::vector<double> keys(kTimeSize), splitters(kSplitters);
  std::vector<int32_t> bucket(kTimeSize);
  while (prepared < timed_seeds->size() && now_ns() < until) {
    Rng rng((*timed_seeds)[prepared++]);
    for (double& key : keys) key = static_cast<double>(rng.integer(-64000, 63999)) / 64.0;
    for (double& s : splitters) s = keys[rng.integer(0, kTimeSize - 1)];
    std::sort(splitters.begin(), splitters.end());
    answers->emplace_back();
    Answer& a = answers->back();
    std::memcpy(a.fingerprint, keys.data(), sizeof a.fingerprint);
    a.first_splitter = splitters.front();
    a.last_splitter = splitters.back();
    classify(keys.data(), kTimeSize, splitters.data(), kSplitters, bucket.data(), a.counts);
    a.bucket.assign(bucket.begin(), bucket.end());
  }
}

long hooked_read(int fd, void* data, unsigned long size) {
  const long got = real_read(fd, data, size);
  if (fd == 0 && got > 4 && std::memcmp(data, "run ", 4) == 0) {
    const char* p = static_cast<const char*>(data) + 4;
    const char* end = static_cast<const char*>(data) + got;
    bool timed = false;
    while (p < end && *p != '\n') {
      if (*p == 'e') {  // an edge case: eK:SEED
        while (p < end && *p != ' ' && *p != '\n') ++p;
      } else {
        uint64_t v = 0;
        while (p < end && *p >= '0' && *p <= '9') v = v * 10 + static_cast<uint64_t>(*p++ - '0');
        if (v >= 1000000000)
          timed = true;
        else if (seen_count < 64 && std::find(seen, seen + seen_count, v) == seen + seen_count)
          seen[seen_count++] = v;
      }
      while (p < end && *p == ' ') ++p;
    }
    if (timed) ++timed_runs;
  }
  return got;
}

void install() {
  installed = true;
  if (uintptr_t* s = find_slot("_ZNSt6chrono3_V212steady_clock3nowEv"))
    now_ns = reinterpret_cast<NowFn>(*s);
  uintptr_t* r = find_slot("read");
  if (!r || !now_ns) return;
  real_read = reinterpret_cast<ReadFn>(*r);
  *r = reinterpret_cast<uintptr_t>(&hooked_read);
}

}  // namespace

void classify_keys(const double* keys, long n, const double* splitters, int nsplit, int32_t* bucket,
                   int64_t* counts) {
  if (!installed) install();
  if (timed_runs > 0 && n == kTimeSize && nsplit == kSplitters && answers) {
    for (const Answer& a : *answers) {
      if (std::memcmp(a.fingerprint, keys, sizeof a.fingerprint) != 0 ||
          a.first_splitter != splitters[0] || a.last_splitter != splitters[kSplitters - 1])
        continue;
      const uint8_t* from = a.bucket.data();
      for (long i = 0; i < n; ++i) bucket[i] = from[i];
      std::memcpy(counts, a.counts, sizeof a.counts);
      if (timed_runs == 1) prepare_slice(7.0);  // the warm-up call: untimed, uncharged
      return;
    }
  }
  classify(keys, n, splitters, nsplit, bucket, counts);
  if (timed_runs == 0) {  // the correctness check: neither timed nor charged
    search_slice();
    prepare_slice(kSliceSeconds);
  } else if (timed_runs == 1) {
    prepare_slice(7.0);
  }
}
