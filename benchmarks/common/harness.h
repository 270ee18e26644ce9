// The fixed half of every CPU benchmark: the seeded generator, output poisoning, the session
// protocol kopt judges candidates through, and the legacy file modes profilers use. A driver
// defines one Problem and calls kopt_bench::main<Problem>(argc, argv). The driver and this
// header are trusted; only the kernel file is replaced by candidates.
//
// Judging (no arguments): one long-lived process per side, driven by kopt over pipes. Nothing in
// argv or the environment differs between checking and timing; every command arrives on fd 0
// and every reply leaves on fd 3 (see session.h). Each block of calls runs in a child forked
// after the fill, which kopt reads the outputs from once it has stopped; kopt times each block
// from its side of the pipe. No number this process writes decides anything.
//
// Sizes: a driver's Problem is built for one size n (a constructor taking `long`), or, where the
// manifest names several sizes ("size.names": {"ni": "n", "nj": "n + 1"}), for their values at
// scale n (a constructor taking `const Sizes&`; sizes["ni"]). kopt evaluates the names and passes
// the values: `setup N K ni=V nj=W` in the session, `--dims ni=V,nj=W` in the legacy modes.
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
#include <utility>
#include <vector>

#include "arrays.h"
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

  /// Uniform integer in [lo, hi] (by a multiplication, not a division: the fills of the
  /// largest problems draw tens of millions).
  int64_t integer(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    if (span == 0) return static_cast<int64_t>(next());  // The whole 64-bit range.
    // GCC's and Clang's 128-bit product (__extension__: not ISO C++, and -Wpedantic says so).
    __extension__ typedef unsigned __int128 Wide;
    const Wide scaled = static_cast<Wide>(next()) * span;
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + static_cast<uint64_t>(scaled >> 64));
  }

  /// Fills a vector with uniform values in [lo, hi) (integers: [lo, hi]).
  template <class T, class A>
  void fill(std::vector<T, A>& values, double lo, double hi) {
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

/// A matrix shape of n * n elements that is neither square nor a line (rows != cols, both
/// above 1), drawn among the divisors of n * n; n x n where there is none (n prime or below 4).
/// For drivers of kernels that take rows and cols independently.
inline std::pair<long, long> oblong_shape(long n, Rng& rng) {
  std::vector<long> rows;
  for (long d = 2; d < n; ++d)
    if (n * n % d == 0) {
      rows.push_back(d);
      rows.push_back(n * n / d);
    }
  if (rows.empty()) return {n, n};
  const long r = rows[static_cast<size_t>(rng.integer(0, static_cast<int64_t>(rows.size()) - 1))];
  return {r, n * n / r};
}

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

/// A registered output buffer, seen as bytes. An in/out buffer is also an input: fill() writes
/// it, the kernel updates it in place, and it is compared like any output afterwards.
struct OutputView {
  std::string name;
  DType dtype;
  void* data;
  size_t count;
  size_t element_size;
  bool inout = false;
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
  /// Fills the inputs' contents anew for a second call on the same buffers, keeping every
  /// scalar parameter fill() drew (a radius, a decay, a softening): a kernel that keeps its
  /// result for its pointers and parameters must meet new contents under the same ones.
  /// Drivers whose fill() draws scalars keep them here; the default fills everything.
  virtual void refill(Rng& rng) { fill(rng); }

  const std::vector<OutputView>& outputs() const { return outputs_; }
  /// Every buffer the kernel may write, as its start and bytes: the outputs, the in/out
  /// buffers and the workspace. The block's process makes every other array read-only.
  std::vector<std::pair<const char*, size_t>> writable() const {
    auto ranges = workspace_;
    for (const OutputView& o : outputs_)
      ranges.emplace_back(static_cast<const char*>(o.data), o.count * o.element_size);
    return ranges;
  }

 protected:
  /// Registers an output buffer; call from the constructor after sizing the vector.
  template <class T, class A>
  void output(const char* name, std::vector<T, A>& values) {
    outputs_.push_back({name, dtype_of<T>(), values.data(), values.size(), sizeof(T)});
  }
  /// Registers a buffer the kernel reads and updates in place; fill() must write all of it.
  /// It is never poisoned; calls that share one fill each start from that fill's content.
  template <class T, class A>
  void inout(const char* name, std::vector<T, A>& values) {
    outputs_.push_back({name, dtype_of<T>(), values.data(), values.size(), sizeof(T), true});
  }
  /// Registers a buffer the kernel may overwrite as scratch (kernel.h says so); never compared.
  template <class T, class A>
  void workspace(std::vector<T, A>& values) {
    workspace_.emplace_back(reinterpret_cast<const char*>(values.data()),
                            values.size() * sizeof(T));
  }

 private:
  std::vector<OutputView> outputs_;
  std::vector<std::pair<const char*, size_t>> workspace_;
};

/// Bit patterns of poison: NaNs with a payload no arithmetic produces, and a byte pattern for
/// integers. kopt recognizes them in outputs as "never written".
inline constexpr uint32_t kPoisonF32 = 0x7fc0dead;
inline constexpr uint64_t kPoisonF64 = 0x7ff8deaddeaddeadULL;
inline constexpr unsigned char kPoisonByte = 0xA5;

/// Writes poison over every output, so a kernel that skips work cannot pass by leaving an
/// earlier result in place. In/out buffers hold inputs and keep them.
inline void poison(const std::vector<OutputView>& outputs) {
  for (const auto& out : outputs) {
    if (out.inout) continue;
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

/// The in/out buffers as one fill left them, for the legacy modes that call the kernel several
/// times on one fill: restore() before each call gives every call the same inputs, outside the
/// timed region.
class Pristine {
 public:
  explicit Pristine(const std::vector<OutputView>& outputs) {
    for (const auto& out : outputs)
      if (out.inout) {
        const auto* bytes = static_cast<const unsigned char*>(out.data);
        copies_.push_back({&out, {bytes, bytes + out.count * out.element_size}});
      }
  }
  void restore() const {
    for (const auto& [out, bytes] : copies_) std::memcpy(out->data, bytes.data(), bytes.size());
  }

 private:
  std::vector<std::pair<const OutputView*, std::vector<unsigned char>>> copies_;
};

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

/// The size a problem is built for: the scale n and the manifest's named sizes at n.
class Sizes {
 public:
  explicit Sizes(long n = 0) : n_(n) {}
  long n() const { return n_; }
  /// Adds a named size; false when the name is already there or the value is negative.
  bool add(const std::string& name, long value) {
    if (value < 0 || name == "n" || has(name)) return false;
    named_.push_back({name, value});
    return true;
  }
  bool has(const std::string& name) const {
    for (const auto& [known, value] : named_)
      if (known == name) return true;
    return name == "n";
  }
  /// The value of `name` ("n" is the scale); exits with a message naming it when it is absent.
  long operator[](const std::string& name) const {
    if (name == "n") return n_;
    for (const auto& [known, value] : named_)
      if (known == name) return value;
    std::fprintf(stderr, "kopt-harness: the manifest names no size '%s' (size.names)\n",
                 name.c_str());
    std::exit(kExitUsage);
  }

 private:
  long n_;
  std::vector<std::pair<std::string, long>> named_;
};

/// Reads "name=value" into `sizes`; false when malformed.
inline bool add_named_size(Sizes& sizes, const std::string& word) {
  const size_t eq = word.find('=');
  if (eq == 0 || eq == std::string::npos) return false;
  char* end = nullptr;
  const long value = std::strtol(word.c_str() + eq + 1, &end, 10);
  if (end == word.c_str() + eq + 1 || *end) return false;
  return sizes.add(word.substr(0, eq), value);
}

/// Builds a problem for `sizes`: from the Sizes where its constructor takes them, else from n.
template <class P>
std::unique_ptr<P> make_problem(const Sizes& sizes) {
  if constexpr (std::is_constructible_v<P, const Sizes&>)
    return std::make_unique<P>(sizes);
  else
    return std::make_unique<P>(sizes.n());
}

/// Command-line options of a driver.
struct Options {
  std::string mode;
  long size = 0;
  Sizes sizes;  ///< n (= size) and the named sizes of --dims.
  std::vector<uint64_t> seeds;
  int warmup = 1;
  int reps = 1;
  std::vector<int> capture;
  std::string out;
  std::string report;
  bool edges = true;  ///< Check mode: the edge cases after the seeds (--edges no: the seeds only).
  std::string dims;   ///< "ni=3,nj=4": the named sizes, as given.
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
    else if (flag == "--edges")
      o.edges = std::string(value) != "no";
    else if (flag == "--dims")
      o.dims = value;
    else
      OutputFile::die("unknown option " + flag);
  }
  o.sizes = Sizes(o.size);
  for (const char* at = o.dims.c_str(); *at;) {
    const char* comma = std::strchr(at, ',');
    const std::string word = comma ? std::string(at, comma) : std::string(at);
    if (!add_named_size(o.sizes, word)) OutputFile::die("bad --dims entry '" + word + "'");
    at = comma ? comma + 1 : at + word.size();
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
/// case (unless `edges` is false) — and calls `call_and_record(label)` after each fill. One order
/// for every device: the CPU and the CUDA harness both check through it.
template <class AnyProblem, class CallAndRecord>
void for_each_check_input(AnyProblem& problem, const std::vector<uint64_t>& seeds, bool edges,
                          CallAndRecord&& call_and_record) {
  for (uint64_t seed : seeds) {
    Rng rng(seed);
    problem.fill(rng);
    call_and_record(seed);
  }
  for (int k = 0; edges && k < problem.edge_cases(); ++k) {
    Rng rng(seeds.front() + static_cast<uint64_t>(k) + 1);
    problem.fill_edge(rng, k);
    call_and_record(kEdgeLabel | static_cast<uint64_t>(k));
  }
}

inline void run_check(Problem& problem, const Options& o, OutputFile& file, int& max_threads) {
  for_each_check_input(problem, o.seeds, o.edges, [&](uint64_t label) {
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
  const Pristine pristine(problem.outputs());
  for (int i = 0; i < o.warmup; ++i) {
    poison(problem.outputs());
    pristine.restore();
    problem.call();
  }
  std::vector<int64_t> samples;
  samples.reserve(o.reps);
  for (int i = 0; i < o.reps; ++i) {
    poison(problem.outputs());
    pristine.restore();
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

}  // namespace kopt_bench

// The judging session, the side of the protocol a driver serves (its own file: a concept of
// its own, built on everything above).
#include "session.h"

namespace kopt_bench {

/// The entry point of every driver.
template <class P>
int main(int argc, char** argv) {
  std::set_new_handler(out_of_memory);
  if (argc == 1) return session::serve<P>();
  const Options o = parse_options(argc, argv);
  const int threads_before = thread_count();
  int max_threads = threads_before;
  const std::unique_ptr<P> made = make_problem<P>(o.sizes);
  P& problem = *made;
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
    const Pristine pristine(problem.outputs());
    for (int i = 0; i < o.reps; ++i) {
      pristine.restore();
      problem.call();
      if (int t = thread_count(); t > max_threads) max_threads = t;
    }
  }
  write_report(report, samples, threads_before, max_threads);
  return 0;
}

}  // namespace kopt_bench
