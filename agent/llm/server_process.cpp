#include "agent/llm/server_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "util/files.h"
#include "util/strings.h"

namespace kopt::llm {

namespace {

// Everything the child needs, prepared before fork (after it only async-signal-safe calls).
struct Launch {
  std::string path;
  std::vector<std::string> strings;
  std::vector<char*> argv;
  std::vector<char*> envp;
  int log_fd = -1;
  int null_fd = -1;
  int error_pipe[2] = {-1, -1};
  pid_t parent = 0;
};

std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::vector<std::string> dirs = split(path ? path : "/usr/bin:/bin", ':');
  for (auto& dir : dirs)
    if (dir.empty()) dir = ".";  // An empty PATH entry is the current folder.
  const std::string found = find_executable(name, dirs);
  return found.empty() ? name : found;
}

Result<std::unique_ptr<Launch>> prepare_launch(const ServerSpec& spec) {
  if (spec.argv.empty()) return fail("no server command given");
  auto launch = std::make_unique<Launch>();
  launch->path = find_program(spec.argv.front());
  launch->strings = spec.argv;
  for (const auto& [key, value] : spec.env) launch->strings.push_back(key + "=" + value);
  for (size_t i = 0; i < launch->strings.size(); ++i)
    (i < spec.argv.size() ? launch->argv : launch->envp).push_back(launch->strings[i].data());
  launch->argv.push_back(nullptr);
  launch->envp.push_back(nullptr);
  launch->log_fd = ::open(spec.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (launch->log_fd < 0)
    return fail("cannot write " + spec.log.string() + ": " + std::strerror(errno));
  launch->null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (::pipe2(launch->error_pipe, O_CLOEXEC) != 0)
    return fail("pipe: " + std::string(std::strerror(errno)));
  launch->parent = ::getpid();
  return launch;
}

void close_launch(Launch& launch) {
  for (int fd : {launch.log_fd, launch.null_fd, launch.error_pipe[0], launch.error_pipe[1]})
    if (fd >= 0) ::close(fd);
}

[[noreturn]] void exec_child(const Launch& launch) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != launch.parent) ::_exit(127);  // kopt died before we got here.
  ::dup2(launch.null_fd, 0);
  ::dup2(launch.log_fd, 1);
  ::dup2(launch.log_fd, 2);
  ::syscall(SYS_close_range, 3U, ~0U, 4U /* CLOSE_RANGE_CLOEXEC */);
  ::signal(SIGPIPE, SIG_DFL);
  ::execve(launch.path.c_str(), launch.argv.data(), launch.envp.data());
  const int error = errno;
  [[maybe_unused]] ssize_t n = ::write(launch.error_pipe[1], &error, sizeof error);
  ::_exit(127);
}

}  // namespace

Result<std::unique_ptr<ServerProcess>> ServerProcess::start(const ServerSpec& spec) {
  auto launch = prepare_launch(spec);
  if (!launch) return launch.error();
  std::unique_ptr<ServerProcess> server(new ServerProcess());
  server->log_ = spec.log;
  Launch& prepared = **launch;
  server->watcher_ = std::thread([&server = *server, &prepared] {
    const pid_t pid = ::fork();
    if (pid == 0) exec_child(prepared);
    ::close(prepared.error_pipe[1]);
    prepared.error_pipe[1] = -1;
    int error = 0;
    const bool exec_failed =
        pid > 0 && ::read(prepared.error_pipe[0], &error, sizeof error) == sizeof error;
    {
      std::lock_guard<std::mutex> lock(server.mutex_);
      server.pid_ = pid;
      if (pid < 0) server.spawn_error_ = std::strerror(errno);
      if (exec_failed) server.spawn_error_ = std::strerror(error);
      server.started_ = true;
    }
    server.changed_.notify_all();
    int status = 0;
    while (pid > 0 && ::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    std::lock_guard<std::mutex> lock(server.mutex_);
    server.exited_ = true;
    server.wait_status_ = status;
    server.changed_.notify_all();
  });
  std::unique_lock<std::mutex> lock(server->mutex_);
  server->changed_.wait(lock, [&] { return server->started_; });
  lock.unlock();
  close_launch(prepared);
  if (!server->spawn_error_.empty())
    return fail("cannot start " + spec.argv.front() + ": " + server->spawn_error_);
  return server;
}

ServerProcess::~ServerProcess() {
  stop();
}

bool ServerProcess::running() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !exited_;
}

std::string ServerProcess::status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!exited_) return "running";
  if (WIFSIGNALED(wait_status_))
    return std::string("killed by SIG") + sigabbrev_np(WTERMSIG(wait_status_));
  return "exit status " + std::to_string(WEXITSTATUS(wait_status_));
}

std::string ServerProcess::output_tail(size_t bytes) const {
  std::ifstream in(log_, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return tail(text, bytes);
}

void ServerProcess::stop(std::chrono::milliseconds grace) {
  if (!watcher_.joinable()) return;
  std::unique_lock<std::mutex> lock(mutex_);
  if (!exited_ && pid_ > 0) {
    ::kill(-pid_, SIGTERM);
    if (!changed_.wait_for(lock, grace, [&] { return exited_; })) ::kill(-pid_, SIGKILL);
    changed_.wait(lock, [&] { return exited_; });
  }
  lock.unlock();
  watcher_.join();
  if (pid_ > 0) ::kill(-pid_, SIGKILL);  // Whatever the server left behind in its group.
}

Result<int> free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return fail(std::string("socket: ") + std::strerror(errno));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  ::close(fd);
  if (!ok) return fail(std::string("cannot find a free loopback port: ") + std::strerror(errno));
  return static_cast<int>(ntohs(address.sin_port));
}

}  // namespace kopt::llm
