#include "tools/machine/probe.h"

#include <nlohmann/json.hpp>

#include "sandbox/sandbox.h"
#include "tools/eval/build.h"
#include "tools/eval/driver_run.h"
#include "util/paths.h"
#include "util/strings.h"

namespace kopt {

std::filesystem::path probe_source_path() {
  return kopt_home() / "tools" / "machine" / "machine_probe.cc";
}

MachineProbe::MachineProbe(const ExecutionContext& ctx)
    : ctx_(ctx), workspace_("machine-", ctx.work_root) {}

Status MachineProbe::compile(const std::string& compiler, const std::string& source) {
  if (auto st = write_file(workspace_.path() / "probe.cc", source); !st) return st;
  share_workspace(workspace_.path(), ctx_.policy);
  ProcessResult result =
      run_build_tool(ctx_, workspace_.path(),
                     {compiler, "-O3", "-march=native", "-fopenmp", "-ffp-contract=fast", "-x",
                      "c++", "probe.cc", "-o", "probe"},
                     120);
  if (!result.succeeded())
    return fail("the machine probe does not compile (" + result.describe() +
                "): " + trim(tail(result.output, 400)));
  return {};
}

Result<Json> MachineProbe::run(const std::vector<std::string>& args, int threads) const {
  ProcessSpec spec;
  spec.argv = {"./probe"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.cwd = workspace_.path();
  spec.env = ctx_.run_env;
  spec.env["OMP_NUM_THREADS"] = std::to_string(threads);
  spec.timeout = std::chrono::seconds(180);
  SandboxPolicy policy = ctx_.policy;
  policy.limits = candidate_limits(default_memory_limit(), 720);
  ProcessResult result = ctx_.runner->run(confine(spec, workspace_.path(), policy));
  const std::string what = "probe " + join(args, " ");
  if (!result.succeeded())
    return fail(what + " failed (" + result.describe() + "): " + trim(tail(result.output, 400)));
  const auto brace = result.output.find('{');
  if (brace == std::string::npos) return fail(what + " printed no result");
  return parse_json(result.output.substr(brace), what + "'s output");
}

}  // namespace kopt
