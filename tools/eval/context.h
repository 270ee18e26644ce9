// What every step of an evaluation needs to run candidate code: the process runner (a seam
// for tests), the sandbox policy, and the folders for workspaces and the build cache.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "sandbox/process.h"
#include "sandbox/sandbox.h"

namespace kopt {

struct ExecutionContext {
  ProcessRunner* runner = nullptr;
  SandboxPolicy policy;
  std::filesystem::path work_root;   ///< Fresh workspaces are made here (world-traversable).
  std::filesystem::path cache_root;  ///< Build cache: builds/<key>/, drivers/<key>/.
  /// Variables every candidate process gets (OMP_NUM_THREADS, OMP_PROC_BIND, OMP_PLACES, ...).
  std::map<std::string, std::string> run_env;
};

/// A context with the local runner, the sandbox on, workspaces under the system temporary
/// folder and the cache under cache_dir().
ExecutionContext default_context(ProcessRunner& runner, bool sandbox);

/// The fixed OpenMP placement kopt times with: all hardware threads, bound close, on cores.
std::map<std::string, std::string> default_run_env();

}  // namespace kopt
