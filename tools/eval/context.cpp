#include "tools/eval/context.h"

#include <unistd.h>

#include <thread>

#include "util/files.h"

namespace kopt {

std::map<std::string, std::string> default_run_env() {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  return {{"PATH", "/usr/bin:/bin"},
          {"HOME", "/tmp"},
          {"LC_ALL", "C"},
          {"OMP_NUM_THREADS", std::to_string(threads)},
          {"OMP_PROC_BIND", "close"},
          {"OMP_PLACES", "cores"},
          // An idle OpenMP pool spins this long before it sleeps (libgomp's default, 300000,
          // is milliseconds): the spinning after a block is CPU time outside the measured
          // window, which kopt compares between the two sides.
          {"GOMP_SPINCOUNT", "10000"}};
}

ExecutionContext default_context(ProcessRunner& runner, bool sandbox) {
  ExecutionContext ctx;
  ctx.runner = &runner;
  ctx.policy.enabled = sandbox;
  ctx.work_root =
      std::filesystem::temp_directory_path() / ("kopt-work-" + std::to_string(getuid()));
  remove_orphaned_dirs(ctx.work_root, "");
  ctx.cache_root = cache_dir();
  ctx.run_env = default_run_env();
  return ctx;
}

}  // namespace kopt
