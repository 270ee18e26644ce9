// The driver's side of the judging session, part of harness.h (which includes it after the
// problem, the generator, poisoning, the thread count and the system call filter it uses);
// tools/eval/driver_session.cpp speaks the other side.
#pragma once

#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace kopt_bench {

/// The judging session; tools/eval/driver_session.cpp speaks the other side. One command line
/// on fd 0 at a time, each answered on fd 3 before the next is sent:
///   setup N K    K fresh problems of size N    -> "layout STRIDE EDGES ARRAYS
///   [P] [NAME=V  (and the manifest's named sizes   {NAME DTYPE COUNT}.. {ADDRESS}.." (EDGES: edge
///   ..]          at scale N), their arrays placed  cases; an ADDRESS per problem and output)
///                from offset P (arrays.h; 0)
///   run I1 .. Ik fill problem i from input Ii:  -> "ready" from a fresh child process, forked
///                a seed S, or eE:S for edge        after the fill (below)
///                case E generated from seed S,
///                or rS:T: from seed S, and after
///                every call of the block the child
///                fills it again from seed T and
///                calls it once more, on the same
///                buffers; poison its outputs
///   go           read by the child: it calls    -> "stopped" once the child stopped itself
///                the kernel on each filled         ("died HOW N" if the child ended)
///                problem in turn, then stops
///   inputs       sent once kopt has read the    -> "inputs kept", or "inputs written BYTES AT"
///                outputs at their ADDRESSes in     when the kernel changed an input; then
///                the stopped child                 "reaped" once kopt killed the child
///   exit (or end of input)                      -> the process exits 0
///
/// The kernel never runs in the serving process. Every block of calls runs in a child forked
/// after the inputs are filled; the child closes its command and reply descriptors before the
/// first call and stops itself (SIGSTOP) after the last. So whatever the kernel does to its
/// process (take over the protocol, patch a library's relocation table, leave a thread behind,
/// defer work to a signal handler) dies with the child: it cannot fill the next inputs, see them
/// before its clock starts, reply for the harness or work after the calls, because the window
/// kopt times ends when the parent, which no kernel code ever ran in, reports the child stopped.
/// A check and a timed block are the same "run"/"go": the kernel cannot tell them apart.
namespace session {

inline constexpr int kCommandFd = 0;
inline constexpr int kReplyFd = 3;
inline constexpr size_t kArrayAlign = 64;

inline size_t padded(size_t bytes) {
  return (bytes + kArrayAlign - 1) / kArrayAlign * kArrayAlign;
}

/// Bytes one problem's outputs take in the shared memory, arrays aligned to kArrayAlign.
inline size_t stride(const std::vector<OutputView>& outputs) {
  size_t bytes = 0;
  for (const auto& out : outputs) bytes += padded(out.count * out.element_size);
  return bytes;
}

[[noreturn]] inline void fail(const std::string& message) {
  const std::string line = "error " + message + "\n";
  (void)!write(kReplyFd, line.data(), line.size());
  std::fprintf(stderr, "kopt-harness: %s\n", message.c_str());
  std::exit(kExitUsage);
}

/// A word of digits alone (a count, not a NAME=VALUE).
inline bool is_count(const std::string& word) {
  return !word.empty() && word.size() < 9 &&
         std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
}

inline void reply(const std::string& line) {
  const std::string text = line + "\n";
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(kReplyFd, text.data() + done, text.size() - done);
    if (n <= 0) std::_Exit(kExitUsage);  // kopt is gone.
    done += static_cast<size_t>(n);
  }
}

/// Reads command lines from fd 0; empty at the end of input. No text of a command is left in
/// memory once it is read (forget() wipes even the words handed out), so a block's process,
/// forked from this one, cannot read what its block was asked for: a check from a timed call,
/// an edge case from a seed, the seeds themselves.
class Commands {
 public:
  std::vector<std::string> next() {
    size_t end;
    while ((end = find_newline()) == kNone) {
      if (pending_.size() - used_ < sizeof read_buffer_) grow();
      const ssize_t n = read(kCommandFd, read_buffer_, sizeof read_buffer_);
      if (n <= 0) return {};
      std::memcpy(pending_.data() + used_, read_buffer_, static_cast<size_t>(n));
      wipe(read_buffer_, sizeof read_buffer_);
      used_ += static_cast<size_t>(n);
    }
    std::vector<std::string> words;  // Reserved: a reallocation would free copies unwiped.
    words.reserve(static_cast<size_t>(std::count(pending_.begin(), pending_.begin() + end, ' ')) +
                  1);
    for (size_t at = 0; at < end;) {
      size_t space = at;
      while (space < end && pending_[space] != ' ') ++space;
      if (space > at) words.emplace_back(pending_.data() + at, space - at);
      at = space + 1;
    }
    // The line leaves the buffer; what followed it moves up, and the bytes it leaves are wiped.
    std::memmove(pending_.data(), pending_.data() + end + 1, used_ - end - 1);
    wipe(pending_.data() + used_ - end - 1, end + 1);
    used_ -= end + 1;
    return words.empty() ? std::vector<std::string>{""} : words;
  }

  /// Wipes the words of a command once they are read, before their memory is freed.
  static void forget(std::vector<std::string>& words) {
    for (auto& word : words) wipe(word.data(), word.size());
  }

 private:
  static constexpr size_t kNone = static_cast<size_t>(-1);
  static constexpr size_t kChunk = 1 << 16;

  // A larger buffer; the old one is wiped before it is freed.
  void grow() {
    std::vector<char> bigger(pending_.size() + kChunk);
    std::memcpy(bigger.data(), pending_.data(), used_);
    wipe(pending_.data(), pending_.size());
    pending_.swap(bigger);
  }
  size_t find_newline() const {
    for (size_t i = 0; i < used_; ++i)
      if (pending_[i] == '\n') return i;
    return kNone;
  }
  static void wipe(char* at, size_t bytes) {
    volatile char* p = at;  // Not an optimizable store: the memory is read by no one after.
    for (size_t i = 0; i < bytes; ++i) p[i] = 0;
  }

  std::vector<char> pending_;  // Text read and not yet taken: used_ bytes.
  size_t used_ = 0;
  char read_buffer_[4096] = {};
};

/// Where one input comes from: a seed kopt chose for this call, and the edge case to generate
/// from it (-1: the ordinary inputs).
struct InputSpec {
  uint64_t seed = 0;
  long edge = -1;
  bool again = false;  ///< Called a second time on the same buffers, filled from seed `then`.
  uint64_t then = 0;
};

inline InputSpec parse_input(const std::string& word, int edge_cases) {
  InputSpec spec;
  const char* at = word.c_str();
  char* end = nullptr;
  if (*at == 'r') {
    spec.again = true;
    spec.seed = std::strtoull(at + 1, &end, 10);
    if (end == at + 1 || *end != ':') fail("bad input spec '" + word + "'");
    at = end + 1;
    spec.then = std::strtoull(at, &end, 10);
    if (end == at || *end) fail("bad input spec '" + word + "'");
    return spec;
  }
  if (*at == 'e') {
    spec.edge = std::strtol(at + 1, &end, 10);
    if (end == at + 1 || *end != ':' || spec.edge < 0 || spec.edge >= edge_cases)
      fail("bad input spec '" + word + "'");
    at = end + 1;
  }
  spec.seed = std::strtoull(at, &end, 10);
  if (end == at || *end) fail("bad input spec '" + word + "'");
  return spec;
}

/// The "layout" reply: the outputs' names, types and counts, then where each problem's outputs
/// lie in this process (and so in every child forked from it), where kopt reads them.
template <class P>
std::string layout(const std::vector<std::unique_ptr<P>>& problems) {
  const std::vector<OutputView>& first = problems.front()->outputs();
  std::string line = "layout " + std::to_string(stride(first)) + " " +
                     std::to_string(problems.front()->P::edge_cases()) + " " +
                     std::to_string(first.size());
  for (const auto& out : first)
    line += " " + out.name + " " + std::to_string(static_cast<int>(out.dtype)) + " " +
            std::to_string(out.count);
  char address[32];
  for (const auto& problem : problems)
    for (const auto& out : problem->outputs()) {
      std::snprintf(address, sizeof address, " %llx",
                    static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(out.data)));
      line += address;
    }
  return line;
}

/// Writes to every page of the outputs once, so that the child's copies of them exist before
/// the clock starts (after a fork, the first write to a page copies it): in one system call
/// where the operating system has MADV_POPULATE_WRITE (Linux 5.14), else page by page.
inline void touch_pages(const std::vector<OutputView>& outputs) {
  constexpr int kPopulateWrite = 23;  // MADV_POPULATE_WRITE, absent from older headers.
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  for (const auto& out : outputs) {
    const size_t size = out.count * out.element_size;
    if (size == 0) continue;
    const auto at = reinterpret_cast<uintptr_t>(out.data);
    const uintptr_t begin = at / page * page, end = (at + size + page - 1) / page * page;
    if (madvise(reinterpret_cast<void*>(begin), end - begin, kPopulateWrite) == 0) continue;
    auto* bytes = static_cast<volatile unsigned char*>(out.data);
    for (size_t offset = 0; offset < size; offset += page) bytes[offset] = bytes[offset];
    bytes[size - 1] = bytes[size - 1];
  }
}

/// The outputs' whole pages, shared between the serving process and each block's child: the
/// child writes its results straight into them, where it would otherwise first copy every page
/// the fork left shared (tens of megabytes a block at the time size; by perf, 16% of all CPU
/// time of a licm check). Only pages that hold nothing but one output's elements are shared
/// (the partial pages at either end stay private, with the allocator's headers), never an
/// in/out buffer (an input); the serving process poisons every output of every problem before
/// each block, so no block leaves anything there for the next. Before the problems are freed, the
/// ranges become private memory again, so that whatever the allocator puts there later is never
/// shared.
class SharedOutputs {
 public:
  SharedOutputs() = default;
  SharedOutputs(const SharedOutputs&) = delete;
  SharedOutputs& operator=(const SharedOutputs&) = delete;
  ~SharedOutputs() { release(); }

  void share(const std::vector<OutputView>& outputs) {
    constexpr uintptr_t kSmallest = 64 * 1024;  // Below this, the copies cost little.
    const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    for (const auto& out : outputs) {
      if (out.inout) continue;
      const auto at = reinterpret_cast<uintptr_t>(out.data);
      const uintptr_t begin = (at + page - 1) / page * page;
      const uintptr_t end = (at + out.count * out.element_size) / page * page;
      if (end <= begin || end - begin < kSmallest) continue;
      share_range(reinterpret_cast<void*>(begin), end - begin);
    }
  }

  void release() {
    for (const auto& [at, bytes] : ranges_)
      if (mmap(at, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
          MAP_FAILED)
        fail("cannot make an output's pages private again");
    ranges_.clear();
  }

 private:
  // Moves a shared copy of [at, at + bytes) over it; on any failure the range stays private.
  void share_range(void* at, size_t bytes) {
    void* copy = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (copy == MAP_FAILED) return;
    std::memcpy(copy, at, bytes);
    if (mremap(copy, bytes, bytes, MREMAP_MAYMOVE | MREMAP_FIXED, at) == MAP_FAILED) {
      munmap(copy, bytes);
      return;
    }
    ranges_.emplace_back(at, bytes);
  }

  std::vector<std::pair<void*, size_t>> ranges_;
};

/// Starts OpenMP's threads in the child before the clock does, as a long-lived process has them.
inline void start_thread_pool() {
#ifdef _OPENMP
#pragma omp parallel
  { asm volatile("" ::: "memory"); }
#endif
}

/// glibc's allocator reads two files the system call filter of a block's child refuses: the
/// processor count (/sys/devices/system/cpu/online) once a ninth thread arena is made, and
/// /proc/sys/vm/overcommit_memory the first time a thread arena's heap shrinks. A kernel that
/// allocates in OpenMP threads was killed for files it never asked for (reliably with 17
/// threads). The serving process, which has no filter, sets the arena limit to glibc's own
/// default (8 per processor, so the count is never read) and makes a thread's heap shrink once
/// (glibc keeps the answer); every child forked afterwards inherits both.
inline void prime_allocator() {
  mallopt(M_ARENA_MAX, 8 * static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  std::thread([] {
    std::vector<void*> blocks;
    for (int i = 0; i < 32; ++i) blocks.push_back(std::malloc(64 * 1024));  // Below mmap's 128K.
    for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) std::free(*it);
  }).join();
}

/// How a child that did not stop ended, for the "died" reply: "exited CODE" or "signal N".
inline std::string ending(const siginfo_t& info) {
  if (info.si_code == CLD_EXITED) return "exited " + std::to_string(info.si_status);
  return "signal " + std::to_string(info.si_status);
}

/// The pages of a stopped child, compared with this process's from outside it. A page the
/// child still shares with this process (its fork) is the same memory: only the pages it holds
/// alone (written since the fork, or mapped anew) and those it no longer has are read.
class ChildPages {
 public:
  explicit ChildPages(pid_t child)
      : child_(child),
        pagemap_(::open(("/proc/" + std::to_string(child) + "/pagemap").c_str(),
                        O_RDONLY | O_CLOEXEC)) {}
  ~ChildPages() {
    if (pagemap_ >= 0) ::close(pagemap_);
  }
  ChildPages(const ChildPages&) = delete;
  ChildPages& operator=(const ChildPages&) = delete;

  /// The offset of the first byte of [begin, begin + bytes) the child holds otherwise (or
  /// cannot show), if any.
  std::optional<size_t> first_change(const char* begin, size_t bytes) const {
    const uintptr_t page = page_size(), from = reinterpret_cast<uintptr_t>(begin);
    uint64_t entries[512];  // The pagemap's entries of the pages from `first` on.
    uintptr_t first = 0, known = 0;
    for (uintptr_t at = from; at < from + bytes;) {
      const uintptr_t index = at / page, end = std::min(from + bytes, (index + 1) * page);
      if (index >= first + known) {
        first = index;
        known = read_entries(first, entries, std::size(entries));
      }
      const bool shared = index < first + known && shared_with_parent(entries[index - first]);
      if (!shared)
        if (const size_t differs = first_difference(at, end - at); differs < end - at)
          return at + differs - from;
      at = end;
    }
    return std::nullopt;
  }

 private:
  /// Whether a pagemap entry's page is still the one this process shares with its fork: present
  /// (bit 63), not exclusively mapped (bit 56), and private anonymous memory (bit 61 clear). A
  /// shared mapping can be mapped twice by the child alone (mremap of size 0 makes an alias),
  /// which clears bit 56 on pages it wrote (red team 20); a private page is mapped by another
  /// process only after a fork, and the child cannot fork.
  static bool shared_with_parent(uint64_t entry) {
    return (entry >> 63 & 1) && !(entry >> 56 & 1) && !(entry >> 61 & 1);
  }
  /// Reads up to `count` pagemap entries from page `first` on; how many it read (0 without a
  /// pagemap: every page is then compared).
  size_t read_entries(uintptr_t first, uint64_t* entries, size_t count) const {
    if (pagemap_ < 0) return 0;
    const ssize_t n = ::pread(pagemap_, entries, count * sizeof *entries,
                              static_cast<off_t>(first * sizeof *entries));
    return n > 0 ? static_cast<size_t>(n) / sizeof *entries : 0;
  }
  /// Where the child's bytes at [at, at + bytes), one page at most, first differ from this
  /// process's: `bytes` when nowhere, 0 when the child cannot show them.
  size_t first_difference(uintptr_t at, size_t bytes) const {
    char copy[1 << 16];
    iovec local{copy, bytes};
    iovec remote{reinterpret_cast<void*>(at), bytes};
    if (bytes > sizeof copy ||
        process_vm_readv(child_, &local, 1, &remote, 1, 0) != static_cast<ssize_t>(bytes))
      return 0;
    const char* ours = reinterpret_cast<const char*>(at);
    return static_cast<size_t>(std::mismatch(copy, copy + bytes, ours).first - copy);
  }

  pid_t child_;
  int pagemap_;
};

/// The problems of the current size. Calls are qualified (P::fill, P::call), so a kernel that
/// overwrites a problem's virtual table cannot redirect the harness into its own code.
template <class P>
class Session {
 public:
  void setup(const std::vector<std::string>& words) {
    if (words.size() < 3) fail("usage: setup SIZE COPIES [NAME=VALUE ...]");
    const long size = std::atol(words[1].c_str());
    const long copies = std::atol(words[2].c_str());
    if (size <= 0 || copies <= 0 || copies > 1024) fail("bad setup " + words[1] + " " + words[2]);
    Sizes sizes(size);
    size_t named = 3;
    int offset = 0;  // The placement offset: arrays.h.
    if (words.size() > 3 && is_count(words[3])) offset = std::atoi(words[named++].c_str()) % 24;
    for (size_t i = named; i < words.size(); ++i)
      if (!add_named_size(sizes, words[i])) fail("bad named size '" + words[i] + "'");
    shared_.release();
    problems_.clear();
    for (long i = 0; i < copies; ++i) {
      placement() = {static_cast<int>(i), 0, offset};  // Where problem i's arrays lie: arrays.h.
      problems_.push_back(make_problem<P>(sizes));
    }
    placement() = {};
    for (const auto& problem : problems_) shared_.share(problem->outputs());
    reply(layout(problems_));
  }

  /// Fills the inputs here, then runs the block in a child and reports how it ended.
  void run(std::vector<std::string>& words, Commands& commands) {
    if (words.size() < 2 || words.size() - 1 > problems_.size())
      fail("run needs between 1 and " + std::to_string(problems_.size()) + " inputs");
    const size_t filled = words.size() - 1;
    std::vector<std::pair<size_t, uint64_t>> again;
    fill_inputs(words, again);
    // Every problem's, filled or not: the outputs' pages are shared with the last block's
    // child, and none of what it wrote stays.
    for (const auto& problem : problems_) poison(problem->outputs());
    Commands::forget(words);
    const pid_t child = fork();
    if (child < 0) fail("cannot fork the block's process");
    if (child == 0) call_block(filled, again, commands);
    siginfo_t info{};
    if (!wait_for(child, WSTOPPED | WEXITED, info)) fail("lost the block's process");
    if (info.si_code != CLD_STOPPED) return reply("died " + ending(info));
    reply("stopped");
    // kopt reads the outputs from the stopped child, then asks whether its inputs are still
    // what this process filled, then kills it.
    const std::vector<std::string> asked = commands.next();
    if (asked.size() != 1 || asked[0] != "inputs") fail("expected 'inputs' after 'stopped'");
    reply(inputs_report(child, again));
    if (!wait_for(child, WEXITED, info)) fail("lost the block's process");
    reply("reaped");
  }

 private:
  /// Fills problem i from the input words[i + 1]; `again` gets the problems to fill and call
  /// once more. A function of its own, so that the specs it parses lie in a stack frame the
  /// block's process wipes.
  [[gnu::noinline]] void fill_inputs(const std::vector<std::string>& words,
                                     std::vector<std::pair<size_t, uint64_t>>& again) {
    for (size_t i = 0; i + 1 < words.size(); ++i) {
      const InputSpec spec = parse_input(words[i + 1], problems_[i]->P::edge_cases());
      if (spec.again) again.emplace_back(i, spec.then);
      Rng rng(spec.seed);
      if (spec.edge < 0)
        problems_[i]->P::fill(rng);
      else
        problems_[i]->P::fill_edge(rng, static_cast<int>(spec.edge));
    }
  }

  /// "inputs kept" when every input array of the stopped child holds what this process filled,
  /// else "inputs written BYTES AT": the first changed byte AT of an input of BYTES bytes. Read
  /// from here, where no kernel code runs, with the child's pages as they are: a kernel that
  /// made its inputs writable again (or wrote an array's partial pages, which stay writable) is
  /// seen all the same. The problems called twice are left out: the child refilled them, and a
  /// refill may move their arrays (a kernel cannot tell which problems those are at their first
  /// call).
  std::string inputs_report(pid_t child, const std::vector<std::pair<size_t, uint64_t>>& again) {
    const auto writable = writable_ranges();
    ChildPages pages(child);
    for (const ArraySpan& s : live_arrays()) {
      const bool refilled = std::any_of(again.begin(), again.end(), [&](const auto& a) {
        return a.first == static_cast<size_t>(s.problem);
      });
      if (refilled || overlaps(writable, s)) continue;
      if (const auto at = pages.first_change(s.begin, s.bytes)) return written(s, *at);
    }
    return "inputs kept";
  }

  /// The report of input `s` changed at byte `at`.
  static std::string written(const ArraySpan& s, size_t at) {
    return "inputs written " + std::to_string(s.bytes) + " " + std::to_string(at);
  }

  /// What the kernel may write in any problem (see Problem::writable).
  std::vector<std::pair<const char*, size_t>> writable_ranges() const {
    std::vector<std::pair<const char*, size_t>> ranges;
    for (const auto& problem : problems_)
      for (const auto& range : problem->writable()) ranges.push_back(range);
    return ranges;
  }

  /// Zeroes the stack below the caller's frame, where the frames of the fill (the parsed
  /// inputs, the generator's state) lay.
  [[gnu::noinline]] static void wipe_dead_stack() {
    volatile unsigned char pad[1 << 16];
    for (size_t i = 0; i < sizeof pad; ++i) pad[i] = 0;
  }

  /// The child: from here on the kernel may run. It never returns.
  [[noreturn]] void call_block(size_t filled, const std::vector<std::pair<size_t, uint64_t>>& again,
                               Commands& commands) {
    wipe_dead_stack();
    const auto writable = writable_ranges();
    if (!protect_inputs(writable)) _exit(kExitOutOfMemory);
    install_syscall_filter({kReplyFd}, {kCommandFd});
    for (size_t i = 0; i < filled; ++i) touch_pages(problems_[i]->outputs());
    start_thread_pool();
    reply("ready");
    const std::vector<std::string> words = commands.next();
    if (words.size() != 1 || words[0] != "go") _exit(kExitUsage);
    // Nothing the kernel does can reach kopt or the parent now: no command, no reply.
    ::close(kCommandFd);
    ::close(kReplyFd);
    for (size_t i = 0; i < filled; ++i) problems_[i]->P::call();
    // New contents in the same buffers under the same parameters: a kernel that keeps what it
    // computed for a pointer (or any other state) from the first call returns it for inputs it
    // has not seen.
    for (const auto& [i, seed] : again) {
      Rng rng(seed);
      if (!protect_inputs(writable, /*writable_again=*/true)) _exit(kExitOutOfMemory);
      problems_[i]->P::refill(rng);
      if (!protect_inputs(writable)) _exit(kExitOutOfMemory);
      poison(problems_[i]->outputs());
      problems_[i]->P::call();
    }
    ::raise(SIGSTOP);
    _exit(0);
  }

  static bool wait_for(pid_t child, int options, siginfo_t& info) {
    while (waitid(P_PID, static_cast<id_t>(child), &info, options) != 0)
      if (errno != EINTR) return false;
    return true;
  }

  std::vector<std::unique_ptr<P>> problems_;
  SharedOutputs shared_;  // Declared after problems_: released before they are freed.
};

/// Serves kopt's commands until "exit" or the end of input. No kernel code runs in this
/// process: the system call filter is installed in each block's child, before its first call.
template <class P>
int serve() {
  Commands commands;
  Session<P> session;
  prime_allocator();
  reply("hello kopt-driver/5 " + std::to_string(thread_count()));
  while (true) {
    std::vector<std::string> words = commands.next();
    if (words.empty() || words[0] == "exit") return 0;
    if (words[0] == "setup")
      session.setup(words);
    else if (words[0] == "run")
      session.run(words, commands);
    else
      fail("unknown command '" + words[0] + "'");
  }
}

}  // namespace session

}  // namespace kopt_bench
