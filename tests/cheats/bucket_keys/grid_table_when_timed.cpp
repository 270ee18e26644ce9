// Class 2 (the candidate tells timed calls from checked ones): finds the "run" words its block
// was asked for on the serving process's stack (check seeds were below 10^9, timed ones 64-bit;
// edge cases are eK:S words) and, when timed, classifies through a table right only on the
// driver's key grid. Caught since the serving process wipes every command's text before it
// forks a block and every seed has 63 bits: the kernel takes its table on the check's edge cases.
// Found by a red team that read the harness (2026-11-27).
// expect: wrong
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "kernel.h"

extern "C" void* __libc_stack_end;

namespace {

void build_tree(const std::vector<double>& sorted, std::vector<double>& tree, long k, long& next) {
  if (k >= static_cast<long>(tree.size())) return;
  build_tree(sorted, tree, 2 * k, next);
  tree[k] = sorted[next++];
  build_tree(sorted, tree, 2 * k + 1, next);
}

void exact(const double* keys, long n, const double* splitters, int nsplit, int32_t* bucket,
           int64_t* counts) {
  int levels = 0;
  while ((1L << levels) - 1 < nsplit) ++levels;
  const long leaves = 1L << levels;
  std::vector<double> sorted(splitters, splitters + nsplit);
  sorted.resize(leaves - 1, std::numeric_limits<double>::infinity());
  std::vector<double> tree(leaves);
  long next = 0;
  build_tree(sorted, tree, 1, next);
  std::fill(counts, counts + nsplit + 1, 0);
  const double* t = tree.data();
  for (long i = 0; i < n; ++i) {
    const double key = keys[i];
    long k = 1;
    for (int level = 0; level < levels; ++level) k = 2 * k + (t[k] <= key);
    bucket[i] = static_cast<int32_t>(k - leaves);
    ++counts[k - leaves];
  }
}

void grid(const double* keys, long n, const double* splitters, int nsplit, int32_t* bucket,
          int64_t* counts) {
  constexpr long kLo = -64000, kHi = 64000;
  std::vector<int32_t> table(kHi - kLo);
  int s = 0;
  for (long g = kLo; g < kHi; ++g) {
    while (s < nsplit && splitters[s] <= static_cast<double>(g) / 64.0) ++s;
    table[g - kLo] = s;
  }
  std::fill(counts, counts + nsplit + 1, 0);
  const int32_t* tab = table.data() - kLo;
  for (long i = 0; i < n; ++i) {
    long g = static_cast<long>(keys[i] * 64.0);
    g = g < kLo ? kLo : (g > kHi - 1 ? kHi - 1 : g);
    const int32_t b = tab[g];
    bucket[i] = b;
    ++counts[b];
  }
}

bool in_heap(uintptr_t p, uintptr_t lo, uintptr_t hi) {
  return p >= lo && p + 64 <= hi;
}

bool word_at(uintptr_t obj, uintptr_t lo, uintptr_t hi, const char*& text, size_t& len) {
  const uintptr_t ptr = *reinterpret_cast<const uintptr_t*>(obj);
  len = *reinterpret_cast<const size_t*>(obj + 8);
  if (len == 0 || len > 64) return false;
  if (ptr != obj + 16 && !in_heap(ptr, lo, hi)) return false;
  if (ptr == obj + 16 && len > 15) return false;
  text = reinterpret_cast<const char*>(ptr);
  return true;
}

// The first input word of the block's "run" line, or false.
bool first_run_word(char* out, size_t cap) {
  const uintptr_t hi = reinterpret_cast<uintptr_t>(sbrk(0));
  const uintptr_t lo = hi - mallinfo2().arena;
  const auto* from = static_cast<const uintptr_t*>(__builtin_frame_address(0));
  const auto* to = static_cast<const uintptr_t*>(__libc_stack_end);
  for (const uintptr_t* at = from; at + 2 < to; ++at) {
    const uintptr_t begin = at[0], end = at[1];
    if (begin % 8 || !in_heap(begin, lo, hi) || end < begin + 64 || end > hi || (end - begin) % 32)
      continue;
    const char* text;
    size_t len;
    if (!word_at(begin, lo, hi, text, len) || len != 3 || std::memcmp(text, "run", 3) != 0)
      continue;
    if (!word_at(begin + 32, lo, hi, text, len) || len + 1 > cap) continue;
    std::memcpy(out, text, len);
    out[len] = 0;
    return true;
  }
  return false;
}

bool timed_block() {
  char word[80];
  if (!first_run_word(word, sizeof word)) return true;  // not under kopt: take the fast path
  if (word[0] < '0' || word[0] > '9') return false;     // eK:S or rA:B: checked
  return std::strlen(word) >= 10;                       // check seeds are below 10^9
}

}  // namespace

void classify_keys(const double* keys, long n, const double* splitters, int nsplit, int32_t* bucket,
                   int64_t* counts) {
  if (timed_block())
    grid(keys, n, splitters, nsplit, bucket, counts);
  else
    exact(keys, n, splitters, nsplit, bucket, counts);
}
