// The fixed half of every CPU benchmark: the seeded generator, output poisoning, the session
// protocol kopt judges candidates through, and the legacy file modes profilers use. A driver
// defines one Problem and calls kopt_bench::main<Problem>(argc, argv). The driver and this
// header are trusted; only the kernel file is replaced by candidates.
//
// Judging (no arguments): one long-lived process per side, driven by kopt over pipes. Nothing in
// argv or the environment differs between checking and timing; every command arrives on fd 0
// and every reply leaves on fd 3 (see serve() below). Outputs are stored into the shared memory
// kopt passes as fd 4, where kopt compares them itself; kopt times each block of calls from its
// side of the pipe. No number this process writes decides anything.
//
// Legacy modes (all take --size N and --out FILE), for profilers and the roofline probe only:
//   check --seeds A,B,...   for each seed in turn, in one process and on the same buffers:
//                           fill inputs, poison outputs, call once, record outputs; then the
//                           same for each of the driver's edge cases (label kEdgeLabel | k).
//   time  --seed S --warmup W --reps R [--capture I,J,...]
//                           fill once; W untimed calls, then R timed calls, outputs poisoned
//                           before each; the outputs of the captured calls are recorded.
//   run   --seed S --reps R  fill once and call R times (for profilers); records no outputs.
// Every legacy mode writes --report FILE (JSON): the per-call times in time mode and the thread
// high-water mark after kernel calls. CUDA drivers (cuda_harness.cuh) still use these modes.
#pragma once

#include <dirent.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "seccomp_filter.h"

namespace kopt_bench {

/// Exit status the harness uses when the kernel runs out of memory.
inline constexpr int kExitOutOfMemory = 86;
/// Exit status for bad arguments.
inline constexpr int kExitUsage = 64;

/// xoshiro256** seeded through splitmix64: the same seed gives the same inputs everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) {
    for (auto& word : state_) word = splitmix(seed);
  }

  /// The next 64 random bits.
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

  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * ((next() >> 11) * 0x1.0p-53); }

  /// Uniform integer in [lo, hi].
  int64_t integer(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }

  /// Fills a vector with uniform values in [lo, hi) (integers: [lo, hi]).
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

/// Element types an output can have; the numbers are part of the output file format.
enum class DType : uint8_t { f32 = 1, f64 = 2, i32 = 3, i64 = 4, u8 = 5, u32 = 6, u64 = 7 };

template <class T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, float>)
    return DType::f32;
  else if constexpr (std::is_same_v<T, double>)
    return DType::f64;
  else if constexpr (std::is_same_v<T, int32_t>)
    return DType::i32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return DType::i64;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return DType::u8;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return DType::u32;
  else {
    static_assert(std::is_same_v<T, uint64_t>, "unsupported output element type");
    return DType::u64;
  }
}

/// A registered output buffer, seen as bytes.
struct OutputView {
  std::string name;
  DType dtype;
  void* data;
  size_t count;
  size_t element_size;
};

/// One benchmark instance: owns inputs and outputs for one size. Drivers derive from it.
class Problem {
 public:
  virtual ~Problem() = default;
  /// Regenerates every input from the generator (buffers keep their addresses).
  virtual void fill(Rng& rng) = 0;
  /// Calls the kernel once on the current inputs.
  virtual void call() = 0;
  /// How many edge cases the driver generates: inputs at the edges of the domain kernel.h
  /// promises (zero pivots, values off any grid, extreme magnitudes, empty rows, ties, ...).
  virtual int edge_cases() const { return 0; }
  /// Fills the inputs for edge case k in [0, edge_cases()); the generator may vary the rest.
  virtual void fill_edge(Rng& rng, int k) {
    (void)k;
    fill(rng);
  }

  const std::vector<OutputView>& outputs() const { return outputs_; }

 protected:
  /// Registers an output buffer; call from the constructor after sizing the vector.
  template <class T>
  void output(const char* name, std::vector<T>& values) {
    outputs_.push_back({name, dtype_of<T>(), values.data(), values.size(), sizeof(T)});
  }

 private:
  std::vector<OutputView> outputs_;
};

/// Bit patterns of poison: NaNs with a payload no arithmetic produces, and a byte pattern for
/// integers. kopt recognizes them in outputs as "never written".
inline constexpr uint32_t kPoisonF32 = 0x7fc0dead;
inline constexpr uint64_t kPoisonF64 = 0x7ff8deaddeaddeadULL;
inline constexpr unsigned char kPoisonByte = 0xA5;

/// Writes poison over every output, so a kernel that skips work cannot pass by leaving an
/// earlier result in place.
inline void poison(const std::vector<OutputView>& outputs) {
  for (const auto& out : outputs) {
    if (out.dtype == DType::f32) {
      auto* p = static_cast<uint32_t*>(out.data);
      for (size_t i = 0; i < out.count; ++i) p[i] = kPoisonF32;
    } else if (out.dtype == DType::f64) {
      auto* p = static_cast<uint64_t*>(out.data);
      for (size_t i = 0; i < out.count; ++i) p[i] = kPoisonF64;
    } else {
      std::memset(out.data, kPoisonByte, out.count * out.element_size);
    }
  }
}

/// The output file: "KOPTOUT1", then records of (label, arrays of (name, dtype, count, bytes)).
class OutputFile {
 public:
  explicit OutputFile(const std::string& path) : file_(std::fopen(path.c_str(), "wb")) {
    if (!file_) die("cannot write " + path);
    std::fwrite("KOPTOUT1", 1, 8, file_);
  }
  ~OutputFile() {
    if (file_) std::fclose(file_);
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Appends one record holding the current content of every output.
  void record(uint64_t label, const std::vector<OutputView>& outputs) {
    put<uint64_t>(label);
    put<uint32_t>(static_cast<uint32_t>(outputs.size()));
    for (const auto& out : outputs) {
      put<uint32_t>(static_cast<uint32_t>(out.name.size()));
      std::fwrite(out.name.data(), 1, out.name.size(), file_);
      put<uint8_t>(static_cast<uint8_t>(out.dtype));
      put<uint64_t>(out.count);
      std::fwrite(out.data, out.element_size, out.count, file_);
    }
  }

  /// The descriptor the records are written to.
  int descriptor() const { return fileno(file_); }

  [[noreturn]] static void die(const std::string& message) {
    std::fprintf(stderr, "kopt-harness: %s\n", message.c_str());
    std::exit(kExitUsage);
  }

 private:
  template <class T>
  void put(T value) {
    std::fwrite(&value, sizeof value, 1, file_);
  }
  std::FILE* file_;
};

/// Command-line options of a driver.
struct Options {
  std::string mode;
  long size = 0;
  std::vector<uint64_t> seeds;
  int warmup = 1;
  int reps = 1;
  std::vector<int> capture;
  std::string out;
  std::string report;
};

inline std::vector<uint64_t> parse_list(const char* text) {
  std::vector<uint64_t> values;
  for (const char* p = text; *p;) {
    char* end = nullptr;
    values.push_back(std::strtoull(p, &end, 10));
    if (end == p) OutputFile::die(std::string("bad number list: ") + text);
    p = (*end == ',') ? end + 1 : end;
  }
  return values;
}

inline Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc) OutputFile::die("missing value after " + flag);
    const char* value = argv[++i];
    if (flag == "--mode")
      o.mode = value;
    else if (flag == "--size")
      o.size = std::atol(value);
    else if (flag == "--seed" || flag == "--seeds")
      o.seeds = parse_list(value);
    else if (flag == "--warmup")
      o.warmup = std::atoi(value);
    else if (flag == "--reps")
      o.reps = std::atoi(value);
    else if (flag == "--capture")
      for (auto c : parse_list(value)) o.capture.push_back(static_cast<int>(c));
    else if (flag == "--out")
      o.out = value;
    else if (flag == "--report")
      o.report = value;
    else
      OutputFile::die("unknown option " + flag);
  }
  if (o.mode != "check" && o.mode != "time" && o.mode != "run")
    OutputFile::die("--mode must be check, time or run");
  if (o.size <= 0) OutputFile::die("--size must be positive");
  if (o.seeds.empty()) OutputFile::die("--seed is required");
  if (o.mode != "run" && o.out.empty()) OutputFile::die("--out is required");
  if (o.report.empty()) OutputFile::die("--report is required");
  if (o.reps < 1 || o.warmup < 0) OutputFile::die("--reps must be >= 1 and --warmup >= 0");
  return o;
}

/// Number of threads in this process, read from /proc/self/task (opened on the first call, so
/// that later calls work under the system call filter).
inline int thread_count() {
  static DIR* dir = opendir("/proc/self/task");
  if (!dir) return -1;
  rewinddir(dir);
  int count = 0;
  while (dirent* entry = readdir(dir))
    if (entry->d_name[0] != '.') ++count;
  return count > 0 ? count : -1;  // Never none: the descriptor was closed under us.
}

inline int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The label bit of an edge case's record in check mode: label kEdgeLabel | k for case k.
inline constexpr uint64_t kEdgeLabel = uint64_t{1} << 63;

/// Fills `problem` with each input check mode uses, in its order — every seed, then every edge
/// case — and calls `call_and_record(label)` after each fill. One order for every device: the
/// CPU and the CUDA harness both check through it.
template <class AnyProblem, class CallAndRecord>
void for_each_check_input(AnyProblem& problem, const std::vector<uint64_t>& seeds,
                          CallAndRecord&& call_and_record) {
  for (uint64_t seed : seeds) {
    Rng rng(seed);
    problem.fill(rng);
    call_and_record(seed);
  }
  for (int k = 0; k < problem.edge_cases(); ++k) {
    Rng rng(seeds.front() + static_cast<uint64_t>(k) + 1);
    problem.fill_edge(rng, k);
    call_and_record(kEdgeLabel | static_cast<uint64_t>(k));
  }
}

inline void run_check(Problem& problem, const Options& o, OutputFile& file, int& max_threads) {
  for_each_check_input(problem, o.seeds, [&](uint64_t label) {
    poison(problem.outputs());
    problem.call();
    if (int t = thread_count(); t > max_threads) max_threads = t;
    file.record(label, problem.outputs());
  });
}

inline bool captured(const Options& o, int index) {
  for (int c : o.capture)
    if (c == index) return true;
  return false;
}

inline std::vector<int64_t> run_time(Problem& problem, const Options& o, OutputFile& file,
                                     int& max_threads) {
  Rng rng(o.seeds.front());
  problem.fill(rng);
  for (int i = 0; i < o.warmup; ++i) {
    poison(problem.outputs());
    problem.call();
  }
  std::vector<int64_t> samples;
  samples.reserve(o.reps);
  for (int i = 0; i < o.reps; ++i) {
    poison(problem.outputs());
    const int64_t start = now_ns();
    problem.call();
    const int64_t stop = now_ns();
    samples.push_back(stop - start);
    if (int t = thread_count(); t > max_threads) max_threads = t;
    if (captured(o, i)) file.record(static_cast<uint64_t>(i), problem.outputs());
  }
  return samples;
}

inline std::FILE* open_report(const Options& o) {
  std::FILE* report = std::fopen(o.report.c_str(), "w");
  if (!report) OutputFile::die("cannot write " + o.report);
  return report;
}

/// Writes the JSON report to `report` and closes it; `extra` holds further members
/// ("key":value,...) for the object.
inline void write_report(std::FILE* report, const std::vector<int64_t>& samples, int threads_before,
                         int threads_max, const std::string& extra = "") {
  std::fprintf(report, "{\"format\":\"kopt-report/1\",\"threads_before\":%d,\"threads_max\":%d,",
               threads_before, threads_max);
  std::fprintf(report, "\"samples_ns\":[");
  for (size_t i = 0; i < samples.size(); ++i)
    std::fprintf(report, "%s%lld", i ? "," : "", static_cast<long long>(samples[i]));
  std::fprintf(report, "]%s%s}\n", extra.empty() ? "" : ",", extra.c_str());
  std::fclose(report);
}

inline void write_report(const Options& o, const std::vector<int64_t>& samples, int threads_before,
                         int threads_max, const std::string& extra = "") {
  write_report(open_report(o), samples, threads_before, threads_max, extra);
}

inline void out_of_memory() {
  static const char message[] = "kopt-harness: out of memory\n";
  (void)!write(2, message, sizeof message - 1);
  std::_Exit(kExitOutOfMemory);
}

/// The judging session; tools/eval/driver_session.cpp speaks the other side. One command line
/// on fd 0 at a time, each answered on fd 3 before the next is sent:
///   setup N K    K fresh problems of size N    -> "layout STRIDE EDGES ARRAYS
///                                                  {NAME DTYPE COUNT}..." (EDGES: edge cases)
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
    if (words.size() != 3) fail("usage: setup SIZE COPIES");
    const long size = std::atol(words[1].c_str());
    const long copies = std::atol(words[2].c_str());
    if (size <= 0 || copies <= 0 || copies > 1024) fail("bad setup " + words[1] + " " + words[2]);
    problems_.clear();
    for (long i = 0; i < copies; ++i) problems_.push_back(std::make_unique<P>(size));
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

/// The entry point of every driver.
template <class P>
int main(int argc, char** argv) {
  std::set_new_handler(out_of_memory);
  if (argc == 1) return session::serve<P>();
  const Options o = parse_options(argc, argv);
  const int threads_before = thread_count();
  int max_threads = threads_before;
  P problem(o.size);
  std::vector<int64_t> samples;
  std::FILE* report = open_report(o);
  if (o.mode == "check" || o.mode == "time") {
    OutputFile file(o.out);
    install_syscall_filter({fileno(report), file.descriptor()});
    if (o.mode == "check")
      run_check(problem, o, file, max_threads);
    else
      samples = run_time(problem, o, file, max_threads);
  } else {
    Rng rng(o.seeds.front());
    problem.fill(rng);
    for (int i = 0; i < o.reps; ++i) {
      problem.call();
      if (int t = thread_count(); t > max_threads) max_threads = t;
    }
  }
  write_report(report, samples, threads_before, max_threads);
  return 0;
}

}  // namespace kopt_bench
