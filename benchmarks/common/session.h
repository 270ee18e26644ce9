// The driver's side of the judging session, part of harness.h (which includes it after the
// problem, the generator, poisoning, the thread count and the system call filter it uses);
// tools/eval/driver_session.cpp speaks the other side.
#pragma once

#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace kopt_bench {

/// The judging session; tools/eval/driver_session.cpp speaks the other side. One command line
/// on fd 0 at a time, each answered on fd 3 before the next is sent:
///   setup N K    K fresh problems of size N    -> "layout STRIDE EDGES ARRAYS
///   [NAME=V ..]  (and the manifest's named sizes   {NAME DTYPE COUNT}..." (EDGES: edge cases)
///                at scale N)
///   run I1 .. Ik fill problem i from input Ii:  -> "ready"
///                a seed S, or eE:S for edge
///                case E generated from seed S;
///                poison its outputs
///   go NONCE     call the kernel on each filled -> "done NONCE", then "stored NONCE THREADS" once
///                problem in turn                   the outputs of problem i lie at i*STRIDE in fd
///                4
/// The nonce is fresh for every block: a reply forged by the kernel (which can write to fd 3)
/// cannot carry it without digging it out of the harness's memory, and shows as out of turn.
///   exit (or end of input)                      -> the process exits 0
/// A check and a timed block are the same "run"/"go": the kernel cannot tell them apart.
namespace session {

inline constexpr int kCommandFd = 0;
inline constexpr int kReplyFd = 3;
inline constexpr int kSharedFd = 4;
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

inline void reply(const std::string& line) {
  const std::string text = line + "\n";
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(kReplyFd, text.data() + done, text.size() - done);
    if (n <= 0) std::_Exit(kExitUsage);  // kopt is gone.
    done += static_cast<size_t>(n);
  }
}

/// Reads command lines from fd 0; empty at the end of input.
class Commands {
 public:
  std::vector<std::string> next() {
    size_t end;
    while ((end = pending_.find('\n')) == std::string::npos) {
      char buffer[4096];
      const ssize_t n = read(kCommandFd, buffer, sizeof buffer);
      if (n <= 0) return {};
      pending_.append(buffer, static_cast<size_t>(n));
    }
    std::string line = pending_.substr(0, end);
    pending_.erase(0, end + 1);
    std::vector<std::string> words;
    for (size_t at = 0; at < line.size();) {
      const size_t space = std::min(line.find(' ', at), line.size());
      if (space > at) words.push_back(line.substr(at, space - at));
      at = space + 1;
    }
    return words.empty() ? std::vector<std::string>{""} : words;
  }

 private:
  std::string pending_;
};

/// The shared memory kopt compares outputs in, mapped at the size kopt gave it.
class SharedOutputs {
 public:
  ~SharedOutputs() { unmap(); }
  unsigned char* map() {
    struct stat info {};
    if (fstat(kSharedFd, &info) != 0) fail("no shared output memory on fd 4");
    const size_t size = static_cast<size_t>(info.st_size);
    if (size != size_) {
      unmap();
      void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, kSharedFd, 0);
      if (p == MAP_FAILED) fail("cannot map the shared output memory");
      base_ = static_cast<unsigned char*>(p);
      size_ = size;
    }
    return base_;
  }
  size_t size() const { return size_; }

 private:
  void unmap() {
    if (base_) munmap(base_, size_);
    base_ = nullptr;
    size_ = 0;
  }
  unsigned char* base_ = nullptr;
  size_t size_ = 0;
};

/// Where one input comes from: a seed kopt chose for this call, and the edge case to generate
/// from it (-1: the ordinary inputs).
struct InputSpec {
  uint64_t seed = 0;
  long edge = -1;
};

inline InputSpec parse_input(const std::string& word, int edge_cases) {
  InputSpec spec;
  const char* at = word.c_str();
  char* end = nullptr;
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

/// Puts every signal the kernel could have taken over back to its default, so that nothing the
/// kernel left behind runs while the harness fills inputs or copies outputs (a fault handler on
/// protected pages would do deferred work there, after the clock). A fault then ends the process.
/// SIGSYS stays with the system call filter.
inline void reset_signal_handlers() {
  struct sigaction standard {};
  standard.sa_handler = SIG_DFL;
  for (int signal = 1; signal < NSIG; ++signal)
    if (signal != SIGKILL && signal != SIGSTOP && signal != SIGSYS)
      ::sigaction(signal, &standard, nullptr);  // glibc's reserved signals refuse: fine.
}

inline std::string layout(const std::vector<OutputView>& outputs, int edge_cases) {
  std::string line = "layout " + std::to_string(stride(outputs)) + " " +
                     std::to_string(edge_cases) + " " + std::to_string(outputs.size());
  for (const auto& out : outputs)
    line += " " + out.name + " " + std::to_string(static_cast<int>(out.dtype)) + " " +
            std::to_string(out.count);
  return line;
}

inline void store(const std::vector<OutputView>& outputs, unsigned char* slot) {
  for (const auto& out : outputs) {
    std::memcpy(slot, out.data, out.count * out.element_size);
    slot += padded(out.count * out.element_size);
  }
}

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
    for (size_t i = 3; i < words.size(); ++i)
      if (!add_named_size(sizes, words[i])) fail("bad named size '" + words[i] + "'");
    problems_.clear();
    for (long i = 0; i < copies; ++i) problems_.push_back(make_problem<P>(sizes));
    reply(layout(problems_.front()->outputs(), problems_.front()->P::edge_cases()));
  }

  void fill(const std::vector<std::string>& words) {
    if (words.size() < 2 || words.size() - 1 > problems_.size())
      fail("run needs between 1 and " + std::to_string(problems_.size()) + " inputs");
    filled_ = words.size() - 1;
    reset_signal_handlers();
    for (size_t i = 0; i < filled_; ++i) {
      const InputSpec spec = parse_input(words[i + 1], problems_[i]->P::edge_cases());
      Rng rng(spec.seed);
      if (spec.edge < 0)
        problems_[i]->P::fill(rng);
      else
        problems_[i]->P::fill_edge(rng, static_cast<int>(spec.edge));
      poison(problems_[i]->outputs());
    }
    reply("ready");
  }

  void go(const std::vector<std::string>& words) {
    if (filled_ == 0 || words.size() != 2) fail("usage: go NONCE, after run");
    const std::string nonce = words[1];
    for (size_t i = 0; i < filled_; ++i) problems_[i]->P::call();
    reply("done " + nonce);
    reset_signal_handlers();
    const int threads = thread_count();
    unsigned char* base = shared_.map();
    const size_t bytes = stride(problems_.front()->outputs());
    if (shared_.size() < filled_ * bytes) fail("the shared output memory is too small");
    for (size_t i = 0; i < filled_; ++i) store(problems_[i]->outputs(), base + i * bytes);
    filled_ = 0;
    reply("stored " + nonce + " " + std::to_string(threads));
  }

 private:
  std::vector<std::unique_ptr<P>> problems_;
  SharedOutputs shared_;
  size_t filled_ = 0;
};

/// Serves kopt's commands until "exit" or the end of input.
template <class P>
int serve() {
  Commands commands;
  Session<P> session;
  const int threads = thread_count();  // Opens /proc/self/task while opening is allowed.
  // Before the first kernel call: from here on commands are read from fd 0, replies written to
  // fd 3 and outputs stored through a mapping of fd 4; nothing can be opened.
  install_syscall_filter({kReplyFd}, {kCommandFd});
  reply("hello kopt-driver/3 " + std::to_string(threads));
  while (true) {
    const std::vector<std::string> words = commands.next();
    if (words.empty() || words[0] == "exit") return 0;
    if (words[0] == "setup")
      session.setup(words);
    else if (words[0] == "run")
      session.fill(words);
    else if (words[0] == "go")
      session.go(words);
    else
      fail("unknown command '" + words[0] + "'");
  }
}

}  // namespace session

}  // namespace kopt_bench
