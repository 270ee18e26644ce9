#include "util/timing_lease.h"

#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace kopt {

namespace fs = std::filesystem;

TimingLease::TimingLease(const std::string& what, int gpu, LeaseKind kind) {
  std::vector<std::string> names;
  for (int cpu : cpu_set()) names.push_back("cpu" + std::to_string(cpu));
  if (gpu >= 0) names.push_back("gpu" + std::to_string(gpu));
  const std::string note = what + " (pid " + std::to_string(::getpid()) + ")";
  for (const auto& name : names) {
    const fs::path file = folder() / (name + ".lock");
    const bool shared = kind == LeaseKind::work;
    auto lock = FileLock::lock(
        file, what,
        [&](const std::string& holder) {
          waited_ = true;
          std::fprintf(stderr, "%s waits for %s, held by %s\n", note.c_str(), name.c_str(),
                       holder.c_str());
        },
        shared);
    if (!lock) {  // An unusable folder must not stop an evaluation; say what is unguarded.
      std::fprintf(stderr, "kopt: warning: timing without a lease on %s: %s\n", name.c_str(),
                   lock.error().message.c_str());
      continue;
    }
    locks_.push_back(std::move(*lock));
    files_.push_back(file);
  }
}

fs::path TimingLease::folder() {
  if (const char* dir = std::getenv("KOPT_LEASE_DIR"); dir && *dir) return dir;
  return "/tmp/kopt-leases";
}

std::vector<int> TimingLease::cpu_set() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

int TimingLease::visible_gpu() {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!visible || !*visible) return 0;
  return std::atoi(visible);
}

}  // namespace kopt
