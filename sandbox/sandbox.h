// Confining candidate code: every build and run happens in a workspace under bubblewrap with
// a read-only view of the system folders, no network, a cleared environment, its own PID
// namespace, and death with its parent. kopt refuses to run candidate code without it unless
// the user asks for --no-sandbox.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "sandbox/process.h"
#include "util/result.h"

namespace kopt {

/// How candidate processes are confined.
struct SandboxPolicy {
  /// False only when the user passed --no-sandbox.
  bool enabled = true;
  /// Extra read-only folders to expose (the benchmark's sources, a toolkit).
  std::vector<std::filesystem::path> read_only;
  /// Device nodes to expose (e.g. /dev/nvidia0 for CUDA candidates).
  std::vector<std::filesystem::path> devices;
  /// Limits for each process.
  ResourceLimits limits;
  /// The unprivileged uid used when kopt runs as root (nobody).
  int uid = 65534;
};

/// Default limits for candidate processes: 1 GiB files, 256 open files, 2048 processes and
/// threads (counted per user: both sides of a check, each with a block's process of up to 256
/// OpenMP threads, and the one before it still dying), `memory_bytes` of address space and
/// `cpu_seconds` of CPU time.
ResourceLimits candidate_limits(uint64_t memory_bytes, uint64_t cpu_seconds);

/// Whether bubblewrap is installed and can create its namespaces here; the Error says why not.
Status probe_sandbox();

/// Wraps `inner` so that it runs confined to `workspace`, which is the only writable folder
/// and is mounted at the same path inside. Without the sandbox, only the limits and a
/// cleared environment apply.
ProcessSpec confine(const ProcessSpec& inner, const std::filesystem::path& workspace,
                    const SandboxPolicy& policy);

/// Makes a workspace usable by the sandbox's unprivileged user.
void share_workspace(const std::filesystem::path& workspace, const SandboxPolicy& policy);

/// A short description for records: "bubblewrap" or "none (--no-sandbox)".
std::string describe(const SandboxPolicy& policy);

}  // namespace kopt
