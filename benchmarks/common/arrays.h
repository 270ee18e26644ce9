// Where the arrays a driver hands the kernel lie. kernel.h promises the kernel an array of n
// elements and nothing more: no alignment beyond the element's own, no room past either end, no
// other array at any particular distance, and inputs it may not write. kopt_bench::Array<T> (a
// std::vector with PlacedAllocator) makes a check meet all of that: the session builds problem i
// of a block with placement index i + P (P: the setup's placement offset, drawn by kopt for each
// size checked, so that a size whose blocks hold one problem does not always place its arrays
// alike), and the j-th array of a problem is placed by that index + j:
//   - on the heap, a few elements past a 64-byte boundary (0 to 7 elements, 3 more for each
//     array, so arrays start at other distances from each other too);
//   - ending flush against a page the kernel may not touch (one element past the end faults);
//   - starting flush after such a page (one element before the start faults).
// Both sides build their problems alike, so both are timed over the same placements. Every
// array alive is listed (live_arrays), so that the block's process can make the inputs'
// pages read-only while the kernel runs (protect_inputs).
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <vector>

namespace kopt_bench {

/// The problem being built, the setup's placement offset and how many arrays the problem has
/// made so far; the session sets `problem` and `offset` before each problem and resets all after.
struct Placement {
  int problem = 0;
  int arrays = 0;
  int offset = 0;
};

inline Placement& placement() {
  static Placement p;
  return p;
}

/// One array alive: its bytes and the pages it owns alone (a mapped array all its pages but the
/// guard; a heap array the whole pages inside it, none when it is small).
struct ArraySpan {
  char* begin = nullptr;
  size_t bytes = 0;
  char* pages = nullptr;
  size_t page_bytes = 0;
  void* base = nullptr;  ///< What to free: the heap block, or the mapping (guard included).
  size_t mapped = 0;     ///< The mapping's bytes; 0 for a heap block.
  int problem = 0;       ///< The problem whose array it is (Placement::problem at its making).
};

inline std::vector<ArraySpan>& live_arrays() {
  static std::vector<ArraySpan> spans;
  return spans;
}

inline size_t page_size() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

/// Places each array by the problem's index and its own (see the top of this file).
template <class T>
struct PlacedAllocator {
  using value_type = T;
  enum Where : int { kHeap, kGuardAfter, kGuardBefore };
  int where = kHeap, shift = 0, problem = 0;

  PlacedAllocator() {
    Placement& p = placement();
    problem = p.problem;
    where = (p.problem + p.offset + p.arrays) % 3;
    shift = (p.problem + p.offset + 3 * p.arrays) % 8;
    ++p.arrays;
  }
  template <class U>
  PlacedAllocator(const PlacedAllocator<U>& other)
      : where(other.where), shift(other.shift), problem(other.problem) {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (where == kHeap) {
      void* base = ::operator new (bytes + 64, std::align_val_t{64});
      char* p = static_cast<char*>(base) + offset();
      ArraySpan s = span(p, bytes);
      s.base = base;
      s.problem = problem;
      live_arrays().push_back(s);
      return reinterpret_cast<T*>(p);
    }
    // A mapping of its own: every page but the guard is the array's, partial ends included.
    const size_t mapped = pages_for(bytes) + page_size();
    char* base = map(mapped);
    char* own = where == kGuardAfter ? base : base + page_size();
    if (::mprotect(where == kGuardAfter ? base + pages_for(bytes) : base, page_size(), PROT_NONE) !=
        0) {
      ::munmap(base, mapped);
      throw std::bad_alloc();
    }
    char* p = where == kGuardAfter ? own + pages_for(bytes) - bytes : own;
    live_arrays().push_back({p, bytes, own, pages_for(bytes), base, mapped, problem});
    return reinterpret_cast<T*>(p);
  }

  /// Frees what the array's own record says, whichever allocator placed it (two Arrays placed
  /// apart may swap or move their buffers: every PlacedAllocator is equal).
  void deallocate(T* array, size_t) {
    char* p = reinterpret_cast<char*>(array);
    auto& spans = live_arrays();
    const auto it =
        std::find_if(spans.begin(), spans.end(), [&](const ArraySpan& s) { return s.begin == p; });
    if (it == spans.end()) return;  // Not ours: never freed twice, never freed wrongly.
    const ArraySpan s = *it;
    spans.erase(it);
    if (s.mapped == 0)
      ::operator delete (s.base, std::align_val_t{64});
    else
      ::munmap(s.base, s.mapped);
  }

  using is_always_equal = std::true_type;
  template <class U>
  bool operator==(const PlacedAllocator<U>&) const {
    return true;
  }
  template <class U>
  bool operator!=(const PlacedAllocator<U>&) const {
    return false;
  }

 private:
  size_t offset() const { return static_cast<size_t>(shift) * alignof(T) % 64; }
  static size_t pages_for(size_t bytes) {
    return std::max<size_t>(1, (bytes + page_size() - 1) / page_size()) * page_size();
  }
  static char* map(size_t bytes) {
    void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    return static_cast<char*>(m);
  }
  // A heap array's pages inside [p, p + bytes): the array's alone.
  static ArraySpan span(char* p, size_t bytes) {
    const auto first = (reinterpret_cast<uintptr_t>(p) + page_size() - 1) / page_size();
    const auto last = (reinterpret_cast<uintptr_t>(p) + bytes) / page_size();
    ArraySpan s{p, bytes, nullptr, 0};
    if (last > first) {
      s.pages = reinterpret_cast<char*>(first * page_size());
      s.page_bytes = (last - first) * page_size();
    }
    return s;
  }
};

/// The arrays a driver passes to the kernel.
template <class T>
using Array = std::vector<T, PlacedAllocator<T>>;

/// Whether array `s` meets any of `ranges` (each as begin and bytes).
template <class Ranges>
bool overlaps(const Ranges& ranges, const ArraySpan& s) {
  return std::any_of(ranges.begin(), ranges.end(), [&](const auto& w) {
    return s.begin < w.first + w.second && w.first < s.begin + s.bytes;
  });
}

/// Makes the pages of every live array outside `writable` (outputs, in/out and workspace
/// arrays, each as begin and bytes) read-only, or (`writable_again`) writable again: a kernel
/// that writes its const inputs faults instead of handing the next call (or the caller)
/// inputs it has changed.
/// False when the system refused (out of memory for the mappings' bookkeeping).
template <class Ranges>
bool protect_inputs(const Ranges& writable, bool writable_again = false) {
  for (const ArraySpan& s : live_arrays()) {
    if (s.page_bytes == 0) continue;
    if (!overlaps(writable, s) &&
        ::mprotect(s.pages, s.page_bytes, writable_again ? PROT_READ | PROT_WRITE : PROT_READ) != 0)
      return false;
  }
  return true;
}

}  // namespace kopt_bench
