// A host-wide lease on the devices a timed phase measures on, so that two kopt processes on
// one machine (two evaluations, an evaluation and a machine probe) never time at once: one
// flock per CPU of this process's CPU set, and one per GPU, in a folder every kopt shares
// ($KOPT_LEASE_DIR, else /tmp/kopt-leases). Locks are taken in one global order, so leases on
// overlapping sets never deadlock. A process that has to wait says so on stderr, naming the
// holder; the kernel drops the locks of a process that dies, however it dies.
//
// Work that loads the CPUs without being timed (builds, correctness checks, profiles, a local
// model's generation) takes the same locks shared: any number of such phases run at once, but
// none while another kopt times on those CPUs, and no timing starts while one runs. So `--jobs`
// overlaps work freely and never lets it disturb a measurement.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "util/file_lock.h"

namespace kopt {

/// What a lease is for: timing (exclusive) or untimed work beside other work (shared).
enum class LeaseKind { timing, work };

class TimingLease {
 public:
  /// Waits for the CPUs this process may run on, and GPU `gpu` when it is not negative.
  /// `what` names the holder for those who wait ("kopt eval licm: timing"). Never take a second
  /// lease in a process that holds one: its own first lease would block it.
  TimingLease(const std::string& what, int gpu = -1, LeaseKind kind = LeaseKind::timing);
  TimingLease(const TimingLease&) = delete;
  TimingLease& operator=(const TimingLease&) = delete;

  /// The lock files this lease holds (empty when the folder could not be used).
  const std::vector<std::filesystem::path>& files() const { return files_; }
  /// True when the lease had to wait for another process.
  bool waited() const { return waited_; }

  /// The folder of the lease files.
  static std::filesystem::path folder();
  /// The CPUs this process may run on (sched_getaffinity), ascending.
  static std::vector<int> cpu_set();
  /// The GPU a CUDA process of ours would use: the first of CUDA_VISIBLE_DEVICES, else 0.
  static int visible_gpu();

 private:
  std::vector<FileLock> locks_;
  std::vector<std::filesystem::path> files_;
  bool waited_ = false;
};

}  // namespace kopt
