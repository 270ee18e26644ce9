#include "tools/eval/driver_session.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

#include <fmt/format.h>

#include "sandbox/sandbox.h"
#include "tools/eval/driver_run.h"
#include "util/proc_view.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// Fixed file descriptors of the protocol (benchmarks/common/session.h).
constexpr size_t kArrayAlign = 64;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// CLOCK_REALTIME in seconds: the clock of the reply socket's kernel timestamps.
double realtime_now() {
  timespec t{};
  clock_gettime(CLOCK_REALTIME, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// The reply channel: a datagram-preserving socket whose receiving end stamps each message with
// the kernel's time of arrival. Reading the stamp rather than the clock when this process wakes
// up keeps this process's own scheduling delay (large on a loaded machine) out of every
// interval measured between two replies. The driver's end can only write.
bool reply_channel(int fds[2]) {
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0) return false;
  const int on = 1;
  if (setsockopt(fds[0], SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) != 0 ||
      shutdown(fds[0], SHUT_WR) != 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return false;
  }
  return true;
}

size_t padded(size_t bytes) {
  return (bytes + kArrayAlign - 1) / kArrayAlign * kArrayAlign;
}

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  for (const auto& word : split(line, ' '))
    if (!word.empty()) words.push_back(word);
  return words;
}

// The child's side of the fork: the protocol's descriptors in place, everything else closed.
[[noreturn]] void exec_child(const ProcessSpec& spec, const char* program, char** argv, char** envp,
                             const int (&fds)[4]) {
  int high[4];
  for (int i = 0; i < 4; ++i) high[i] = fcntl(fds[i], F_DUPFD, 16);
  for (int i = 0; i < 4; ++i) dup2(high[i], i);
  syscall(SYS_close_range, 4u, ~0u, 0u);
  if (chdir(spec.cwd.c_str()) != 0) _exit(127);
  prepare_child(spec);
  execve(program, argv, envp);
  _exit(127);
}

}  // namespace

DriverSession::DriverSession(const ExecutionContext& ctx, const Benchmark& bench,
                             const fs::path& binary, uint64_t memory_bytes)
    : named_sizes_(bench.named_sizes), memory_bytes_(memory_bytes) {
  ::signal(SIGPIPE, SIG_IGN);  // A driver that died shows as a failed write, not our death.
  start(ctx, bench, binary, memory_bytes);
}

DriverSession::~DriverSession() {
  if (pid_ > 0) send("exit");
  stop();
}

bool DriverSession::start(const ExecutionContext& ctx, const Benchmark& bench,
                          const fs::path& binary, uint64_t memory_bytes) {
  workspace_ = std::make_unique<TempDir>("session-", ctx.work_root);
  std::error_code ec;
  fs::copy_file(binary, workspace_->path() / "bench", ec);
  if (ec) return fail_with("setup", "cannot copy the driver into a workspace: " + ec.message());
  share_workspace(workspace_->path(), ctx.policy);
  ProcessSpec inner;
  inner.argv = {"./bench"};  // Nothing on the command line: checking and timing look the same.
  inner.cwd = workspace_->path();
  inner.env = ctx.run_env;
  SandboxPolicy policy = ctx.policy;
  policy.limits = candidate_limits(memory_bytes, 3600);
  const ProcessSpec spec = confine(inner, workspace_->path(), policy);
  (void)bench;

  std::vector<std::string> env_text;
  for (const auto& [key, value] : spec.env) env_text.push_back(key + "=" + value);
  std::vector<char*> argv, envp;
  for (const auto& arg : spec.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  for (const auto& var : env_text) envp.push_back(const_cast<char*>(var.c_str()));
  argv.push_back(nullptr);
  envp.push_back(nullptr);

  int commands[2], replies[2];
  if (pipe2(commands, O_CLOEXEC) != 0 || !reply_channel(replies))
    return fail_with("setup", std::string("cannot make the channels: ") + std::strerror(errno));
  const std::string log_path = (workspace_->path() / "log.txt").string();
  const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0)
    return fail_with("setup",
                     std::string("cannot make the session's log: ") + std::strerror(errno));
  const int fds[4] = {commands[0], log, log, replies[1]};
  pid_ = fork();
  if (pid_ == 0) exec_child(spec, argv[0], argv.data(), envp.data(), fds);
  ::close(commands[0]);
  ::close(replies[1]);
  ::close(log);
  command_fd_ = commands[1];
  reply_fd_ = replies[0];
  if (pid_ < 0) return fail_with("setup", std::string("cannot fork: ") + std::strerror(errno));
  std::vector<std::string> hello;
  if (!expect("hello", 120, hello)) return false;
  if (hello.size() < 3 || hello[1] != "kopt-driver/5")
    return fail_with("protocol", "the driver does not speak kopt-driver/5");
  threads_at_start_ = std::atoi(hello[2].c_str());
  // The driver inside the sandbox, as this side sees it: its threads and CPU time are read
  // from /proc, where nothing the kernel does can change them.
  // (The driver is our child itself when it runs unconfined, with --no-sandbox.)
  driver_pid_ = find_process(pid_, "bench").value_or(-1);
  if (driver_pid_ <= 0)
    return fail_with("setup", "the driver process cannot be seen from outside (/proc)");
  return true;
}

std::optional<double> DriverSession::cpu_seconds() const {
  if (driver_pid_ <= 0) return std::nullopt;
  return children_cpu_;
}

bool DriverSession::setup(long size, int copies) {
  return setup_all({this}, size, copies);
}

bool DriverSession::setup_all(const std::vector<DriverSession*>& sessions, long size, int copies,
                              int placement) {
  std::vector<DriverSession*> sent;
  for (DriverSession* s : sessions) {
    if (s->failed()) return false;
    if (s->size_ == size && s->copies_ == copies && s->placement_ == placement) continue;
    s->size_ = 0;  // Unknown until its layout arrives.
    auto named = named_size_words(s->named_sizes_, size);
    if (!named) return s->fail_with("setup", named.error().message);
    std::string line = fmt::format("setup {} {} {}", size, copies, placement);
    for (const auto& word : *named) line += " " + word;
    if (!s->send(line)) return false;
    sent.push_back(s);
  }
  for (DriverSession* s : sent) {
    std::vector<std::string> words;
    if (!s->expect("layout", 600, words) || !s->parse_layout(words, copies)) return false;
    s->copies_ = copies;
    s->placement_ = placement;
    if (!s->map_outputs(s->stride_ * static_cast<size_t>(copies))) return false;
    s->size_ = size;
  }
  return true;
}

bool DriverSession::call_block(const std::vector<uint64_t>& seeds, double timeout_seconds,
                               BlockTiming& timing) {
  const auto sent = Clock::now();
  return send_fill(seeds) && await_ready({this}, sent, timeout_seconds, {&timing}) &&
         go(timeout_seconds, timing);
}

bool DriverSession::send_fill(const std::vector<uint64_t>& seeds, int edge) {
  std::vector<DriverInput> inputs;
  for (uint64_t seed : seeds) inputs.push_back({seed, edge, std::nullopt});
  return send_inputs(inputs);
}

bool DriverSession::send_inputs(const std::vector<DriverInput>& inputs) {
  if (failed()) return false;
  if (inputs.empty() || inputs.size() > static_cast<size_t>(copies_))
    return fail_with("setup", "a block of " + std::to_string(inputs.size()) + " calls for " +
                                  std::to_string(copies_) + " problems");
  std::string command = "run";
  for (const DriverInput& in : inputs)
    command += in.again      ? fmt::format(" r{}:{}", in.seed, *in.again)
               : in.edge < 0 ? fmt::format(" {}", in.seed)
                             : fmt::format(" e{}:{}", in.edge, in.seed);
  filled_ = static_cast<int>(inputs.size());
  return send(command);
}

bool DriverSession::await_ready(const std::vector<DriverSession*>& sessions, Clock::time_point sent,
                                double timeout_seconds, const std::vector<BlockTiming*>& timings) {
  const auto deadline = sent + std::chrono::duration<double>(timeout_seconds);
  const double sent_stamp = realtime_now() - since(sent);  // `sent` on the replies' clock.
  std::vector<bool> ready(sessions.size(), false);
  std::vector<std::string> words;
  for (size_t done = 0; done < sessions.size();) {
    std::vector<pollfd> fds;
    for (size_t i = 0; i < sessions.size(); ++i) {
      DriverSession& s = *sessions[i];
      if (s.failed()) return false;
      if (!ready[i] && s.pending_.find('\n') != std::string::npos) {
        if (!s.take_line("ready", words)) return false;
        timings[i]->fill_seconds = std::max(0.0, s.line_stamp_ - sent_stamp);
        ready[i] = true;
        ++done;
      }
      if (!ready[i]) fds.push_back({s.reply_fd_, POLLIN, 0});
    }
    if (fds.empty()) break;
    if (Clock::now() > deadline) {
      for (size_t i = 0; i < sessions.size(); ++i)
        if (!ready[i]) sessions[i]->fail_from_exit(timeout_seconds, true);
      return false;
    }
    poll(fds.data(), fds.size(), 100);
    for (size_t i = 0; i < sessions.size(); ++i)
      for (const auto& p : fds)
        if (p.fd == sessions[i]->reply_fd_ && (p.revents & (POLLIN | POLLHUP)) &&
            !sessions[i]->read_some(0))
          return false;
  }
  return true;
}

bool DriverSession::go(double timeout_seconds, BlockTiming& timing) {
  // The block's child, forked after the fill, has said "ready": it waits for "go".
  const pid_t child = find_descendant(driver_pid_, "bench").value_or(-1);
  if (child <= 0)
    return fail_with("protocol", "the block's process cannot be seen from outside (/proc)");
  std::vector<std::string> words;
  // Unseen until read below: a caller's BlockTiming may hold an earlier block's figures.
  timing.window_cpu = timing.outside_cpu = timing.main_running = timing.main_waiting = -1;
  const std::optional<double> child_before = cpu_seconds_of(child);  // Read before the clock...
  // The main thread's account only where the process clock is exact: one thread is told from
  // several by comparing the two.
  const std::optional<SchedStat> sched_before =
      cpu_clock_readable(child) ? sched_stat_of(child) : std::nullopt;
  const double start = realtime_now();
  if (!send("go") || !expect("stopped", timeout_seconds, words)) return false;
  // From the command's sending to the parent's word that the child stopped, both on the
  // kernel's clock: however late this process wakes up, the interval is the child's, and any
  // work the child does after its calls lies inside it.
  timing.kernel_seconds = std::max(0.0, line_stamp_ - start);
  const std::optional<double> child_after = cpu_seconds_of(child);  // ... and after it stops.
  if (const std::optional<SchedStat> sched_after = sched_stat_of(child);
      sched_before && sched_after) {
    timing.main_running = sched_after->running - sched_before->running;
    timing.main_waiting = sched_after->waiting - sched_before->waiting;
  }
  if (child_before && child_after) timing.window_cpu = *child_after - *child_before;
  if (child_after) children_cpu_ += *child_after;
  if (child_before) timing.outside_cpu = *child_before;
  if (auto seen = thread_count_of(child)) timing.threads = *seen;
  const auto reading = Clock::now();
  const bool read = read_outputs(child);
  timing.store_seconds = since(reading);
  const bool kept = read && inputs_kept(timeout_seconds);
  ::kill(child, SIGKILL);
  if (!kept || !expect("reaped", timeout_seconds, words)) return false;
  if (timing.threads < 1)
    return fail_with("protocol", "the block's process could not be seen from outside (/proc)");
  timing.calls = filled_;
  return true;
}

// Asks the serving process, which filled the inputs and never runs kernel code, whether the
// stopped child's inputs are still as filled; a kernel that wrote one fails.
bool DriverSession::inputs_kept(double timeout_seconds) {
  std::vector<std::string> words;
  if (!send("inputs") || !expect("inputs", timeout_seconds, words)) return false;
  if (words.size() == 2 && words[1] == "kept") return true;
  if (words.size() != 4 || words[1] != "written")
    return fail_with("protocol", "a malformed 'inputs' reply");
  return fail_with("input",
                   fmt::format("the kernel changed one of its const inputs (an array of {} bytes, "
                               "first at byte {}): kernel.h's inputs are read-only",
                               words[2], words[3]));
}

// Copies every filled problem's outputs out of the stopped child, at the addresses the parent
// gave (the child is its fork, so they are the same there).
bool DriverSession::read_outputs(pid_t child) {
  for (int i = 0; i < filled_; ++i) {
    unsigned char* at = outputs_ + static_cast<size_t>(i) * stride_;
    for (size_t j = 0; j < layout_.size(); ++j) {
      const size_t bytes = layout_[j].count * dtype_bytes(layout_[j].dtype);
      const uint64_t from = addresses_[static_cast<size_t>(i) * layout_.size() + j];
      for (size_t done = 0; done < bytes;) {
        iovec local{at + done, bytes - done};
        iovec remote{reinterpret_cast<void*>(from + done), bytes - done};
        const ssize_t n = process_vm_readv(child, &local, 1, &remote, 1, 0);
        if (n <= 0)
          return fail_with("deferred",
                           fmt::format("the output '{}' could not be read from the block's "
                                       "process after the calls ({}): pages left unreadable or "
                                       "unmapped by the kernel",
                                       layout_[j].name, std::strerror(n < 0 ? errno : EIO)));
        done += static_cast<size_t>(n);
      }
      at += padded(bytes);
    }
  }
  return true;
}

RecordView DriverSession::view(int index, uint64_t label) const {
  RecordView record;
  record.label = label;
  const unsigned char* at = outputs_ + static_cast<size_t>(index) * stride_;
  for (const auto& shape : layout_) {
    record.arrays.push_back({shape.name, shape.dtype, shape.count, at});
    at += padded(byte_size(record.arrays.back()));
  }
  return record;
}

OutputRecord DriverSession::output(int index, uint64_t label) const {
  OutputRecord record;
  record.label = label;
  for (const ArrayView& a : view(index, label).arrays) {
    OutputArray array{std::string(a.name), a.dtype, a.count, {}};
    array.bytes.assign(a.data, a.data + byte_size(a));
    record.arrays.push_back(std::move(array));
  }
  return record;
}

bool DriverSession::parse_layout(const std::vector<std::string>& words, int copies) {
  layout_.clear();
  if (words.size() < 4) return fail_with("protocol", "a malformed 'layout' reply");
  stride_ = std::strtoull(words[1].c_str(), nullptr, 10);
  edge_cases_ = std::atoi(words[2].c_str());
  const size_t arrays = std::strtoull(words[3].c_str(), nullptr, 10);
  const size_t addresses = arrays * static_cast<size_t>(copies);
  if (arrays > 4096 || words.size() != 4 + 3 * arrays + addresses || edge_cases_ < 0 ||
      edge_cases_ > kMaxEdgeCases)
    return fail_with("protocol", "a malformed 'layout' reply");
  size_t bytes = 0;
  for (size_t i = 0; i < arrays; ++i) {
    OutputArray array;
    array.name = words[4 + 3 * i];
    array.dtype = static_cast<uint8_t>(std::atoi(words[5 + 3 * i].c_str()));
    array.count = std::strtoull(words[6 + 3 * i].c_str(), nullptr, 10);
    if (dtype_bytes(array.dtype) == 0 || array.count > (uint64_t{1} << 40))
      return fail_with("protocol", "a 'layout' reply with an unknown type or a huge count");
    bytes += padded(array.count * dtype_bytes(array.dtype));
    layout_.push_back(std::move(array));
  }
  if (bytes != stride_) return fail_with("protocol", "the 'layout' reply does not add up");
  addresses_.clear();
  for (size_t i = 0; i < addresses; ++i)
    addresses_.push_back(std::strtoull(words[4 + 3 * arrays + i].c_str(), nullptr, 16));
  return true;
}

bool DriverSession::map_outputs(size_t bytes) {
  if (bytes == outputs_size_) return true;
  if (outputs_) munmap(outputs_, outputs_size_);
  outputs_ = nullptr;
  outputs_size_ = 0;
  if (bytes == 0) return true;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return fail_with("setup",
                     std::string("cannot map memory for the outputs: ") + std::strerror(errno));
  outputs_ = static_cast<unsigned char*>(p);
  outputs_size_ = bytes;
  return true;
}

bool DriverSession::send(const std::string& line) {
  const std::string text = line + "\n";
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(command_fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      fail_from_exit(5, false);
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

// Reads what the driver has written, waiting at most timeout_ms; false at its end.
bool DriverSession::read_some(int timeout_ms) {
  pollfd p{reply_fd_, POLLIN, 0};
  if (poll(&p, 1, timeout_ms) <= 0) return true;
  thread_local char buffer[1 << 16];
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
  iovec io{buffer, sizeof buffer};
  msghdr message{};
  message.msg_iov = &io;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  const ssize_t n = recvmsg(reply_fd_, &message, 0);
  if (n < 0 && errno == EINTR) return true;
  if (n <= 0) {
    fail_from_exit(5, false);
    return false;
  }
  if (message.msg_flags & MSG_TRUNC) return fail_with("protocol", "a reply over 64 KiB");
  double stamp = realtime_now();  // Only if the kernel gave no stamp.
  for (cmsghdr* c = CMSG_FIRSTHDR(&message); c; c = CMSG_NXTHDR(&message, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
      timespec t{};
      std::memcpy(&t, CMSG_DATA(c), sizeof t);
      stamp = static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
    }
  // A line is complete when the message holding its newline arrived.
  for (ssize_t i = 0; i < n; ++i)
    if (buffer[i] == '\n') line_stamps_.push_back(stamp);
  pending_.append(buffer, static_cast<size_t>(n));
  if (pending_.size() > (1 << 20)) return fail_with("protocol", "an endless reply");
  return true;
}

// Takes the complete line waiting in pending_; it must be `word`. A line the harness did not
// write (the kernel can write to the reply channel) shows up as a line out of turn.
bool DriverSession::take_line(const std::string& word, std::vector<std::string>& words) {
  const size_t end = pending_.find('\n');
  const std::string line = pending_.substr(0, end);
  pending_.erase(0, end + 1);
  if (!line_stamps_.empty()) {
    line_stamp_ = line_stamps_.front();
    line_stamps_.pop_front();
  }
  words = words_of(line);
  if (!words.empty() && words[0] == word) return true;
  if (!words.empty() && words[0] == "error")
    return fail_with("crash", "the harness stopped: " + line.substr(6));
  if (!words.empty() && words[0] == "died") return fail_from_child(words);
  return fail_with("protocol",
                   fmt::format("the driver's reply channel carried '{}' where '{}' was due: "
                               "something other than the harness wrote to it",
                               line.substr(0, 80), word));
}

// Reads the next reply line; it must be `word`.
bool DriverSession::expect(const std::string& word, double timeout_seconds,
                           std::vector<std::string>& words) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_seconds);
  while (pending_.find('\n') == std::string::npos) {
    if (failed()) return false;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      fail_from_exit(timeout_seconds, true);
      return false;
    }
    if (!read_some(static_cast<int>(std::min<long>(left.count(), 1000)))) return false;
  }
  return take_line(word, words);
}

bool DriverSession::fail_with(std::string category, std::string reason) {
  if (!failed()) failure_ = {std::move(category), std::move(reason)};
  stop();
  return false;
}

// The driver ended (or must be ended): waits for it and names why it stopped.
void DriverSession::fail_from_exit(double timeout_seconds, bool timed_out) {
  if (failed() || pid_ <= 0) return;
  if (timed_out) ::kill(-pid_, SIGKILL);
  int status = 0;
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (Clock::now() > deadline) {
      ::kill(-pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    usleep(2000);
  }
  ::kill(-pid_, SIGKILL);
  pid_ = -1;
  DriverRun run;
  run.process.timed_out = timed_out;
  if (WIFEXITED(status)) run.process.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.process.signal = WTERMSIG(status);
  if (!timed_out && run.process.succeeded()) {
    fail_with("crash",
              "the driver process exited in the middle of the protocol (did the kernel "
              "end the process?)");
    return;
  }
  run.process.output = read_file(workspace_->path() / "log.txt").value_or("");
  DriverRequest request;
  request.timeout = std::chrono::milliseconds(static_cast<long>(timeout_seconds * 1000));
  request.memory_bytes = memory_bytes_;
  classify_exit(run, request);
  fail_with(run.category, run.failure);
}

// The block's child ended before it stopped: "died exited CODE" or "died signal N" from its
// parent. Named as a whole process's end would be, with the log both wrote to.
bool DriverSession::fail_from_child(const std::vector<std::string>& words) {
  DriverRun run;
  const int number = words.size() == 3 ? std::atoi(words[2].c_str()) : -1;
  if (words.size() == 3 && words[1] == "signal") run.process.signal = number;
  if (words.size() == 3 && words[1] == "exited") run.process.exit_code = number;
  if (number < 0) return fail_with("protocol", "a malformed 'died' reply");
  if (run.process.succeeded())
    return fail_with("crash",
                     "the block's process exited before its calls were done (did the kernel end "
                     "the process?)");
  run.process.output = read_file(workspace_->path() / "log.txt").value_or("");
  DriverRequest request;
  request.memory_bytes = memory_bytes_;
  classify_exit(run, request);
  // In a block the kernel's arrays end (or start) flush against pages it may not touch and its
  // inputs are read-only: name what a fault there most likely was.
  if (run.process.signal == SIGSEGV || run.process.signal == SIGBUS)
    run.failure +=
        " (in a block its inputs are read-only and some arrays end or start against a page it "
        "may not touch: did it write an input, or reach past an array's end?)";
  return fail_with(run.category, run.failure);
}

void DriverSession::stop() {
  if (pid_ > 0) {
    ::close(command_fd_);
    command_fd_ = -1;
    int status = 0;
    for (int i = 0; i < 100 && waitpid(pid_, &status, WNOHANG) == 0; ++i) usleep(1000);
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  for (int* fd : {&command_fd_, &reply_fd_})
    if (*fd >= 0) ::close(*fd), *fd = -1;
  if (outputs_) munmap(outputs_, outputs_size_);
  outputs_ = nullptr;
  outputs_size_ = 0;
}

}  // namespace kopt
