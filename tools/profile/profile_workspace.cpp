#include "tools/profile/profile_workspace.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "sandbox/sandbox.h"
#include "tools/eval/driver_run.h"
#include "tools/eval/stats.h"
#include "util/json.h"

namespace kopt {

namespace fs = std::filesystem;

ProfileWorkspace::ProfileWorkspace(const ExecutionContext& ctx, const fs::path& binary)
    : ctx_(ctx), dir_("profile-", ctx.work_root) {
  std::error_code ec;
  fs::copy_file(binary, dir_.path() / "bench", ec);
  if (ec) ready_ = fail("cannot copy the driver into a workspace: " + ec.message());
  share_workspace(dir_.path(), ctx.policy);
}

ProcessResult ProfileWorkspace::run(const std::vector<std::string>& argv,
                                    const std::map<std::string, std::string>& env,
                                    std::chrono::seconds timeout, const std::string& input) const {
  ProcessSpec spec;
  spec.argv = argv;
  spec.cwd = dir_.path();
  spec.env = ctx_.run_env;
  spec.env["HOME"] = dir_.path().string();
  for (const auto& [key, value] : env) spec.env[key] = value;
  spec.input = input;
  spec.timeout = timeout;
  spec.output_cap = 64 << 20;
  SandboxPolicy policy = ctx_.policy;
  policy.limits =
      candidate_limits(default_memory_limit(), 4 * static_cast<uint64_t>(timeout.count()) + 10);
  return ctx_.runner->run(confine(spec, dir_.path(), policy));
}

std::vector<std::string> ProfileWorkspace::driver_args(const DriverCall& call) {
  std::vector<std::string> args = {"./bench",
                                   "--mode",
                                   call.mode,
                                   "--size",
                                   std::to_string(call.size),
                                   "--seeds",
                                   std::to_string(call.seed),
                                   "--report",
                                   "report.json",
                                   "--reps",
                                   std::to_string(call.reps)};
  if (call.mode == "time")
    args.insert(args.end(), {"--out", "out.bin", "--warmup", std::to_string(call.warmup)});
  if (!call.dims.empty()) args.insert(args.end(), {"--dims", call.dims});
  return args;
}

double ProfileWorkspace::median_call_seconds() const {
  auto report = read_json_file(dir_.path() / "report.json");
  if (!report) return 0;
  std::vector<double> samples;
  for (const auto& ns : report->value("samples_ns", Json::array()))
    samples.push_back(ns.get<double>() * 1e-9);
  return upper_median(std::move(samples));
}

}  // namespace kopt
