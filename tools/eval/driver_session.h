// The trusted side of the judging session (benchmarks/common/session.h):
// one long-lived, sandboxed driver process per side, driven over pipes, which forks a child for
// each block of kernel calls. kopt chooses every input seed, times each block from its own side
// of the pipe to the moment the (kernel-free) parent reports the child stopped, and reads the
// outputs out of the stopped child's memory itself. Nothing the child writes is trusted beyond
// the bytes of its outputs.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"
#include "tools/eval/outputs.h"
#include "util/files.h"

namespace kopt {

/// What kopt observed of one block of calls, every figure taken by kopt's clock.
struct BlockTiming {
  int calls = 0;
  double fill_seconds = 0;    ///< "run" sent to "ready": inputs generated, outputs poisoned.
  double kernel_seconds = 0;  ///< "go" sent to "done": the kernel calls, nothing else.
  double store_seconds = 0;   ///< Reading the outputs out of the stopped child, by kopt.
  int threads = 0;            ///< Threads of the child when it stopped (read from /proc).
  /// CPU seconds of the block's child from "go" to its stop (-1: unseen).
  double window_cpu = -1;
  /// CPU seconds the block's child used before "go" (-1: unseen): preparing its copies of the
  /// outputs and OpenMP's pool, harness code only. The parent's (filling the inputs, forking) is
  /// left out: no kernel code ever runs there, and its page faults after each fork (the pages
  /// it shared with the child are write-protected) make it noisy, 15 ms a block on licm.
  double outside_cpu = -1;
  /// The scheduler's account of the block's main thread from "go" to its stop (-1: unseen): its
  /// time on a CPU, and its time runnable but waiting for one (another process had it).
  double main_running = -1;
  double main_waiting = -1;
};

/// One problem's input in a block: generated from `seed` (as the driver's edge case `edge` when
/// that is >= 0); with `again`, the block's process fills the problem once more from that seed
/// after the block's calls and calls it again on the same buffers (its outputs are that call's).
struct DriverInput {
  uint64_t seed = 0;
  int edge = -1;
  std::optional<uint64_t> again;
};

/// A failure of the driver process: a category ("crash", "timeout", "oom", "protocol", ...)
/// and a reason naming the cause.
struct SessionFailure {
  std::string category;
  std::string reason;
};

/// One sandboxed driver process serving commands. Not copyable; ends the process when destroyed.
class DriverSession {
 public:
  /// Starts `binary` in a fresh workspace; failure() says why when it could not start.
  DriverSession(const ExecutionContext& ctx, const Benchmark& bench,
                const std::filesystem::path& binary, uint64_t memory_bytes);
  ~DriverSession();
  DriverSession(const DriverSession&) = delete;
  DriverSession& operator=(const DriverSession&) = delete;

  /// Builds `copies` problems of `size` (kept when the session has them already: every call
  /// fills them afresh); false (with failure()) when the driver fails.
  bool setup(long size, int copies);
  /// setup on several sessions at once, each building its problems while the others do; false
  /// when any fails (failed() says which).
  /// `placement` offsets where the problems' arrays lie (benchmarks/common/arrays.h).
  static bool setup_all(const std::vector<DriverSession*>& sessions, long size, int copies,
                        int placement = 0);
  /// Fills problem i from seeds[i], calls the kernel on each, and stores the outputs; `timeout`
  /// bounds each step. False (with failure()) when the driver fails or breaks the protocol.
  bool call_block(const std::vector<uint64_t>& seeds, double timeout_seconds, BlockTiming& timing);
  /// The first half of call_block: asks for the inputs of seeds (answered "ready"), or with
  /// `edge` >= 0 for the driver's edge case `edge`, each generated from its seed.
  bool send_fill(const std::vector<uint64_t>& seeds, int edge = -1);
  /// send_fill for inputs each of its own kind.
  bool send_inputs(const std::vector<DriverInput>& inputs);
  /// Waits for "ready" from every session given, which fill at the same time; sets each one's
  /// fill_seconds from the moment `sent`. False when one failed.
  static bool await_ready(const std::vector<DriverSession*>& sessions,
                          std::chrono::steady_clock::time_point sent, double timeout_seconds,
                          const std::vector<BlockTiming*>& timings);
  /// The second half: calls the kernel on the filled problems, waits for their child to stop,
  /// reads the outputs out of it and has it reaped.
  bool go(double timeout_seconds, BlockTiming& timing);
  /// The outputs of problem `index` after the last block, labelled `label`, where they lie in
  /// this side's copy: valid until the next block (timing compares them there, uncopied).
  RecordView view(int index, uint64_t label) const;
  /// The same, copied to be kept past the next block.
  OutputRecord output(int index, uint64_t label) const;

  int copies() const { return copies_; }
  /// Bytes of one problem's outputs in this side's copy.
  size_t stride() const { return stride_; }
  int threads_at_start() const { return threads_at_start_; }
  /// CPU time the processes kernel code runs in have used so far, read from /proc by this
  /// side: every block child's, as it was when the child stopped (the serving process, which
  /// runs no kernel code, is left out); nullopt when the driver cannot be seen.
  std::optional<double> cpu_seconds() const;
  /// How many edge cases the driver generates at the current size (its "layout" reply); -1
  /// before the first layout.
  int edge_cases() const { return edge_cases_; }
  const SessionFailure& failure() const { return failure_; }
  bool failed() const { return !failure_.category.empty(); }

 private:
  bool start(const ExecutionContext& ctx, const Benchmark& bench,
             const std::filesystem::path& binary, uint64_t memory_bytes);
  bool send(const std::string& line);
  bool expect(const std::string& word, double timeout_seconds, std::vector<std::string>& words);
  bool read_some(int timeout_ms);
  bool take_line(const std::string& word, std::vector<std::string>& words);
  bool parse_layout(const std::vector<std::string>& words, int copies);
  bool map_outputs(size_t bytes);
  bool read_outputs(pid_t child);
  bool inputs_kept(double timeout_seconds);
  bool fail_from_child(const std::vector<std::string>& words);
  bool fail_with(std::string category, std::string reason);
  void fail_from_exit(double timeout_seconds, bool timed_out);
  void stop();

  std::unique_ptr<TempDir> workspace_;
  pid_t pid_ = -1;         ///< bubblewrap, our child.
  pid_t driver_pid_ = -1;  ///< The driver inside it, in our process namespace.
  int command_fd_ = -1;
  int reply_fd_ = -1;
  unsigned char* outputs_ = nullptr;  ///< This side's copy of every problem's outputs.
  size_t outputs_size_ = 0;
  std::string pending_;
  /// When each complete line in pending_ reached the reply socket (CLOCK_REALTIME seconds, the
  /// kernel's stamp), oldest first; and the stamp of the line take_line() took last.
  std::deque<double> line_stamps_;
  double line_stamp_ = 0;
  size_t stride_ = 0;
  std::vector<OutputArray> layout_;  ///< Names, types and counts; no bytes.
  std::vector<uint64_t> addresses_;  ///< Of problem i's output j, at i * layout_.size() + j.
  static constexpr int kMaxEdgeCases = 64;
  int edge_cases_ = -1;  // Unknown before the first layout.
  int copies_ = 0;
  long size_ = 0;
  int placement_ = 0;
  std::vector<NamedSize> named_sizes_;  ///< Sent with every setup, at its scale.
  int filled_ = 0;
  int threads_at_start_ = 0;
  double children_cpu_ = 0;  ///< Of every block child so far, when it stopped.
  uint64_t memory_bytes_ = 0;
  SessionFailure failure_;
};

}  // namespace kopt
