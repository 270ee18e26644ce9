// Red team 2 (a subagent that read the harness): the kernel never returns. On its first call it
// finds the "go" command's nonce in
// the harness's memory (serve()'s words vector, reached from the stack), finishes that block itself
// (writes "done NONCE", stores y into the shared memory of fd 4, writes "stored NONCE 1"), and
// from then on serves kopt's protocol from inside the call: setup / run / go / exit. No GOT slot,
// no return address, no remap: nothing but reads of its own process's memory and the descriptors
// the harness holds. Its input generator is faster than the harness's (bit-identical inputs), and
// the CPU time saved in every fill is spent on 90% of the call's work before "ready": the
// per-pair CPU charge compares the candidate's CPU outside its window with the baseline's
// harness work, so the surplus is negative and nothing is charged.
// Against kopt-driver/3 this was accepted at 3.4x; see histogram/never_returns.cpp.
// expect: crash|protocol|timeout|no-gain
// needs: timing
// sizes: small
#include <sys/mman.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernel.h"



namespace {

// Fraction of the nonzeros left for the timed call at the time size (the rest before "ready").
constexpr double kLeftForCall = 0.10;
constexpr long kHideFrom = 65536;  // hide work only at sizes this large (the time size)

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
  double uniform(double lo, double hi) { return lo + (hi - lo) * ((next() >> 11) * 0x1.0p-53); }
  int64_t integer(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  template <class T>
  void fill(std::vector<T>& values, double lo, double hi) {
    for (auto& v : values) {
      if constexpr (std::is_floating_point_v<T>)
        v = static_cast<T>(uniform(lo, hi));
      else
        v = static_cast<T>(integer(static_cast<int64_t>(lo), static_cast<int64_t>(hi)));
    }
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

// Sorting a row's columns: branch-free networks for short rows, LSD radix for long ones.
inline void sort_small(int32_t* a, int64_t len) {
  for (int64_t i = 1; i < len; ++i) {
    int32_t v = a[i];
    int64_t j = i;
    while (j > 0 && a[j - 1] > v) {
      a[j] = a[j - 1];
      --j;
    }
    a[j] = v;
  }
}

int32_t* radix_tmp = nullptr;
int64_t radix_cap = 0;
void sort_row(int32_t* a, int64_t len) {
  if (len <= 24) return sort_small(a, len);
  if (len < 512) return std::sort(a, a + len);
  if (len > radix_cap) {
    std::free(radix_tmp);
    radix_tmp = static_cast<int32_t*>(std::malloc(len * sizeof(int32_t)));
    radix_cap = len;
  }
  int32_t* src = a;
  int32_t* dst = radix_tmp;
  for (int shift = 0; shift < 32; shift += 11) {
    uint32_t count[2049] = {};
    for (int64_t k = 0; k < len; ++k) ++count[((uint32_t(src[k]) ^ 0x80000000u) >> shift & 2047) + 1];
    for (int b = 0; b < 2048; ++b) count[b + 1] += count[b];
    for (int64_t k = 0; k < len; ++k)
      dst[count[(uint32_t(src[k]) ^ 0x80000000u) >> shift & 2047]++] = src[k];
    std::swap(src, dst);
  }
  if (src != a) std::memcpy(a, src, len * sizeof(int32_t));
}

struct Problem {
  long n = 0;
  std::vector<int64_t> row_ptr;
  std::vector<int32_t> col;
  std::vector<double> val, x, y;
  long split = 0;  // rows [0, split) already computed before "ready"

  explicit Problem(long size) : n(size), row_ptr(size + 1), x(size), y(size) {}

  void fill(Rng& rng) {
    for (long i = 0; i < n; ++i) {
      const double expected = 1.2 * std::pow(double(n) / double(i + 1), 0.9);
      const long len = std::clamp(std::lround(expected * rng.uniform(0.5, 1.5)), 1L, n);
      row_ptr[i + 1] = row_ptr[i] + len;
    }
    col.resize(row_ptr[n]);
    val.resize(row_ptr[n]);
    const bool pow2 = (n & (n - 1)) == 0;
    const uint64_t mask = static_cast<uint64_t>(n) - 1;
    for (long i = 0; i < n; ++i) {
      for (int64_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
        const long near = std::clamp(i + (-64 + static_cast<int64_t>(rng.next() % 129u)), 0L, n - 1);
        if (rng.next() % 2) {
          col[k] = static_cast<int32_t>(near);
        } else {
          const uint64_t r = rng.next();
          col[k] = static_cast<int32_t>(pow2 ? (r & mask) : (r % static_cast<uint64_t>(n)));
        }
      }
      sort_row(col.data() + row_ptr[i], row_ptr[i + 1] - row_ptr[i]);
    }
    rng.fill(val, 0.01, 1.0);
    rng.fill(x, 0.01, 1.0);
  }

  void fill_edge(Rng& rng, int k) {
    const long dense = rng.integer(0, n - 1);
    for (long i = 0; i < n; ++i) {
      long len = rng.integer(1, 12);
      if (k == 0 && (i == 0 || i == n - 1 || rng.next() % 2)) len = 0;
      if (k == 1) len = i == dense ? 3 * n : 0;
      row_ptr[i + 1] = row_ptr[i] + len;
    }
    col.resize(row_ptr[n]);
    val.resize(row_ptr[n]);
    for (auto& c : col) c = static_cast<int32_t>(rng.integer(0, k == 2 ? 3 : n - 1) % n);
    rng.fill(val, 0.01, 1.0);
    rng.fill(x, 0.01, 1.0);
  }

  void rows(long begin, long end) {
    for (long i = begin; i < end; ++i) {
      double sum = 0.0;
      for (int64_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) sum += val[k] * x[col[k]];
      y[i] = sum;
    }
  }

  // Before "ready": all rows but the ones holding the last kLeftForCall of the nonzeros.
  void hide() {
    split = 0;
    if (n < kHideFrom) return;
    const int64_t target = static_cast<int64_t>(row_ptr[n] * (1.0 - kLeftForCall));
    split = std::upper_bound(row_ptr.begin(), row_ptr.end(), target) - row_ptr.begin() - 1;
    split = std::clamp(split, 0L, n);
    rows(0, split);
  }
  void call() { rows(split, n); }
};

size_t padded(size_t bytes) { return (bytes + 63) / 64 * 64; }

// kopt's protocol, served by the candidate (benchmarks/common/session.h has the harness's side).
long current_n = 0;  // the size the harness was set up for when the loop took over

void serve_own() {
  std::vector<Problem*> problems;
  long n_now = current_n;
  size_t filled = 0;
  unsigned char* shared = nullptr;
  size_t shared_size = 0;
  static char line[1 << 16];
  while (std::fgets(line, sizeof line, stdin)) {
    std::vector<char*> words;
    for (char* w = std::strtok(line, " \n"); w; w = std::strtok(nullptr, " \n")) words.push_back(w);
    if (words.empty()) continue;
    if (!std::strcmp(words[0], "exit")) return;
    if (!std::strcmp(words[0], "setup")) {
      const long n = std::atol(words[1]), copies = std::atol(words[2]);
      n_now = n;
      for (Problem* p : problems) delete p;
      problems.clear();
      for (long i = 0; i < copies; ++i) problems.push_back(new Problem(n));
      dprintf(3, "layout %zu 3 1 y 2 %ld\n", padded(n * 8), n);
    } else if (!std::strcmp(words[0], "run")) {
      filled = words.size() - 1;
      while (problems.size() < filled) problems.push_back(new Problem(n_now));
      for (size_t i = 0; i < filled; ++i) {
        const char* spec = words[i + 1];
        long edge = -1;
        if (*spec == 'e') {
          char* end = nullptr;
          edge = std::strtol(spec + 1, &end, 10);
          spec = end + 1;
        }
        Rng rng(std::strtoull(spec, nullptr, 10));
        Problem& p = *problems[i];
        if (edge < 0)
          p.fill(rng);
        else
          p.fill_edge(rng, static_cast<int>(edge));
        p.hide();
      }
      dprintf(3, "ready\n");
    } else if (!std::strcmp(words[0], "go")) {
      for (size_t i = 0; i < filled; ++i) problems[i]->call();
      dprintf(3, "done %s\n", words[1]);
      struct stat info {};
      fstat(4, &info);
      if (static_cast<size_t>(info.st_size) != shared_size) {
        if (shared) munmap(shared, shared_size);
        shared = static_cast<unsigned char*>(
            mmap(nullptr, info.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, 4, 0));
        shared_size = info.st_size;
      }
      const size_t stride = padded(problems[0]->n * 8);
      for (size_t i = 0; i < filled; ++i)
        std::memcpy(shared + i * stride, problems[i]->y.data(), problems[i]->n * 8);
      dprintf(3, "stored %s 1\n", words[1]);
    } else {
      dprintf(3, "error unknown command\n");
      std::abort();
    }
  }
}


extern "C" void* __libc_stack_end;
extern "C" char _end[];

bool mapped(const void* p, size_t bytes) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p) & ~uintptr_t{4095};
  const uintptr_t e = (reinterpret_cast<uintptr_t>(p) + bytes + 4095) & ~uintptr_t{4095};
  if (a <= reinterpret_cast<uintptr_t>(_end) + 4096) return false;  // only the heap and above
  return madvise(reinterpret_cast<void*>(a), e - a, MADV_NORMAL) == 0;
}

// serve()'s `words` for the current "go NONCE" command: a vector of two std::string on the heap,
// its {begin, end, capacity} in serve()'s stack frame. The highest match is the live frame.
bool find_nonce(char* out, size_t size) {
  volatile char here = 0;
  auto* at = reinterpret_cast<const uintptr_t*>(reinterpret_cast<uintptr_t>(&here) & ~uintptr_t{7});
  auto* top = static_cast<const uintptr_t*>(__libc_stack_end);
  bool found = false;
  for (; at + 2 < top; ++at) {
    const uintptr_t begin = at[0], end = at[1];
    if (end - begin != 64 || (begin & 7) || !mapped(reinterpret_cast<void*>(begin), 64)) continue;
    const auto* w = reinterpret_cast<const uintptr_t*>(begin);
    if (w[0] != begin + 16 || w[1] != 2 || std::memcmp(reinterpret_cast<const char*>(begin + 16), "go", 2))
      continue;
    const uintptr_t p1 = w[4], len1 = w[5];
    if (len1 < 1 || len1 >= size || !mapped(reinterpret_cast<void*>(p1), len1)) continue;
    const char* digits = reinterpret_cast<const char*>(p1);
    bool ok = true;
    for (uintptr_t i = 0; i < len1; ++i) ok = ok && digits[i] >= '0' && digits[i] <= '9';
    if (!ok) continue;
    std::memcpy(out, digits, len1);
    out[len1] = 0;
    found = true;  // keep scanning: the highest frame (serve's) wins
  }
  return found;
}

bool taken = false;

}  // namespace

void spmv(long rows, const int64_t* row_ptr, const int32_t* col, const double* val, const double* x,
          double* y) {
  for (long i = 0; i < rows; ++i) {
    double sum = 0.0;
    for (int64_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) sum += val[k] * x[col[k]];
    y[i] = sum;
  }
  char nonce[64];
  if (taken || !find_nonce(nonce, sizeof nonce)) return;  // stay an honest kernel
  taken = true;
  current_n = rows;
  dprintf(3, "done %s\n", nonce);
  struct stat info {};
  fstat(4, &info);
  void* shared = mmap(nullptr, info.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, 4, 0);
  std::memcpy(shared, y, rows * 8);
  munmap(shared, info.st_size);
  dprintf(3, "stored %s 1\n", nonce);
  serve_own();
  while (std::fgets(nonce, sizeof nonce, stdin)) {
  }
  std::abort();  // kopt has ended the session.
}
