#include "tools/eval/driver_run.h"

#include <signal.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "sandbox/sandbox.h"
#include "util/files.h"
#include "util/json.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

std::string join_numbers(const std::vector<uint64_t>& values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text;
}

std::vector<std::string> driver_args(const Benchmark& bench, const DriverRequest& r) {
  std::vector<std::string> args = {"./bench",
                                   "--mode",
                                   r.mode,
                                   "--size",
                                   std::to_string(r.size),
                                   "--seeds",
                                   join_numbers(r.seeds),
                                   "--report",
                                   "report.json"};
  if (r.mode != "run") args.insert(args.end(), {"--out", "out.bin"});
  if (r.mode == "check" && !r.edges) args.insert(args.end(), {"--edges", "no"});
  if (r.mode != "check")
    args.insert(args.end(),
                {"--warmup", std::to_string(r.warmup), "--reps", std::to_string(r.reps)});
  if (!r.capture.empty()) {
    std::vector<uint64_t> capture(r.capture.begin(), r.capture.end());
    args.insert(args.end(), {"--capture", join_numbers(capture)});
  }
  // A named size that is not a whole number at this scale leaves --dims out; the driver then
  // says which size it lacks.
  if (auto named = named_size_words(bench.named_sizes, r.size); named && !named->empty())
    args.insert(args.end(), {"--dims", join(*named, ",")});
  return args;
}

// The call the harness's SIGSYS handler named on stderr (see seccomp_filter.h).
std::string forbidden_syscall(const std::string& output) {
  const std::string marker = "kopt-harness: forbidden system call: ";
  const auto at = output.rfind(marker);
  if (at == std::string::npos) return "unknown";
  const auto start = at + marker.size();
  return trim(output.substr(start, output.find('\n', start) - start));
}

}  // namespace

void classify_exit(DriverRun& run, const DriverRequest& request) {
  const ProcessResult& p = run.process;
  const std::string tail_text = trim(tail(p.output, 600));
  if (p.timed_out) {
    run.category = "timeout";
    run.failure = "timed out after " + std::to_string(request.timeout.count() / 1000) +
                  " s and was killed (an infinite loop, a deadlock, or far too slow)";
  } else if (p.exit_code == kHarnessOutOfMemory ||
             p.output.find("std::bad_alloc") != std::string::npos) {
    run.category = "oom";
    run.failure = "ran out of memory (limit " + std::to_string(request.memory_bytes >> 20) +
                  " MiB of address space): a memory bomb or a leak";
  } else if (p.exit_code == kHarnessNoGpu) {
    run.category = "no-gpu";
    run.failure = "no GPU present: " + tail_text;
  } else if (p.exit_code == kHarnessCudaError) {
    run.category = "crash";
    run.failure = "a CUDA error: " + tail_text;
  } else if (p.signal == SIGSYS || p.exit_code == 128 + SIGSYS) {  // bwrap passes 128 + signal.
    run.category = "system";
    run.failure = "the kernel made a forbidden system call: " + forbidden_syscall(p.output) +
                  " (kernels compute on their arguments; files, processes, sockets and clocks "
                  "are off limits)";
  } else if (p.signal) {
    run.category = "crash";
    run.failure = "crashed (" + p.describe() + ")" + (tail_text.empty() ? "" : ": " + tail_text);
  } else {
    run.category = "crash";
    run.failure = "failed (" + p.describe() + ")" + (tail_text.empty() ? "" : ": " + tail_text);
  }
}

namespace {

void read_report(DriverRun& run, const fs::path& workspace) {
  auto report = read_json_file(workspace / "report.json");
  if (!report || report->value("format", "") != "kopt-report/1") {
    run.category = "output";
    run.failure = "the driver wrote no report (did the kernel end the process?)";
    return;
  }
  run.threads_before = report->value("threads_before", 0);
  run.threads_max = report->value("threads_max", 0);
  for (const auto& ns : report->value("samples_ns", Json::array()))
    run.samples.push_back(ns.get<double>() * 1e-9);
}

}  // namespace

uint64_t default_memory_limit() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  const uint64_t half =
      pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * page / 2 : 8ull << 30;
  return std::min<uint64_t>(half, 16ull << 30);
}

DriverRun run_driver(const ExecutionContext& ctx, const Benchmark& bench, const fs::path& binary,
                     const DriverRequest& request) {
  DriverRun run;
  TempDir workspace("run-", ctx.work_root);
  std::error_code ec;
  fs::copy_file(binary, workspace.path() / "bench", ec);
  if (ec) {
    run.category = "setup";
    run.failure = "cannot copy the driver into a workspace: " + ec.message();
    return run;
  }
  share_workspace(workspace.path(), ctx.policy);
  ProcessSpec spec;
  spec.argv = driver_args(bench, request);
  spec.cwd = workspace.path();
  spec.env = ctx.run_env;
  spec.timeout = request.timeout;
  spec.output_cap = 64 * 1024;
  SandboxPolicy policy = ctx.policy;
  const uint64_t cpu_seconds = 2 * static_cast<uint64_t>(request.timeout.count() / 1000) + 10;
  policy.limits = candidate_limits(request.memory_bytes, cpu_seconds * 4);
  // A GPU's outputs at the time size can pass 1 GiB (an n x n grid of 16384^2 floats).
  if (bench.language == Language::cuda) policy.limits.file_size_bytes = 16ull << 30;
  if (bench.language == Language::cuda)
    for (const auto& entry : fs::directory_iterator("/dev", ec))
      if (starts_with(entry.path().filename().string(), "nvidia"))
        policy.devices.push_back(entry.path());
  run.process = ctx.runner->run(confine(spec, workspace.path(), policy));
  if (!run.process.succeeded()) {
    classify_exit(run, request);
    return run;
  }
  read_report(run, workspace.path());
  if (!run.failure.empty() || request.mode == "run") return run;
  auto outputs = read_outputs(workspace.path() / "out.bin");
  if (!outputs) {
    run.category = "output";
    run.failure = outputs.error().message;
    return run;
  }
  run.outputs = std::move(*outputs);
  return run;
}

}  // namespace kopt
