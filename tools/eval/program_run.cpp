#include "tools/eval/program_run.h"

#include <chrono>
#include <regex>

#include "tools/eval/driver_run.h"
#include "util/strings.h"
#include "util/timing_lease.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

// Copies a folder's contents; symbolic links are copied as links (never followed out of it).
Status copy_folder(const fs::path& from, const fs::path& to, bool skip_manifest) {
  std::error_code ec;
  fs::create_directories(to, ec);
  for (const auto& entry : fs::directory_iterator(from, ec)) {
    if (skip_manifest && entry.path().filename() == "benchmark.json") continue;
    fs::copy(entry.path(), to / entry.path().filename(),
             fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
    if (ec) return fail("cannot copy " + entry.path().string() + ": " + ec.message());
  }
  return ec ? fail("cannot read " + from.string() + ": " + ec.message()) : Status{};
}

// A shell command in `folder` under the sandbox, with the run environment kopt times with.
ProcessResult run_shell(const ExecutionContext& ctx, const SandboxPolicy& policy,
                        const fs::path& folder, const std::string& command, int timeout_s,
                        std::map<std::string, std::string> env = {}) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", command};
  spec.cwd = folder;
  spec.env = ctx.run_env;
  for (auto& [key, value] : env) spec.env[key] = value;
  spec.env["PATH"] = "/usr/bin:/bin";
  spec.env["HOME"] = folder.string();
  spec.env["TMPDIR"] = "/tmp";
  spec.env["LC_ALL"] = "C";
  spec.timeout = std::chrono::seconds(timeout_s);
  return ctx.runner->run(confine(spec, folder, policy));
}

SandboxPolicy run_policy(const ExecutionContext& ctx, int timeout_s) {
  SandboxPolicy policy = ctx.policy;
  policy.limits = candidate_limits(default_memory_limit(), static_cast<uint64_t>(timeout_s) * 2);
  return policy;
}

// The end of a program's output on one line ("a | b | c"), for a one-line reason.
std::string output_end(const std::string& output) {
  std::string text;
  for (const auto& line : split(trim(tail(output, 300)), '\n'))
    if (!trim(line).empty()) text += (text.empty() ? "" : " | ") + trim(line);
  return text.empty() ? "" : "; its output ends: " + text;
}

}  // namespace

ProgramSide::ProgramSide(const ExecutionContext& ctx, const Benchmark& bench)
    : ctx_(ctx), bench_(bench), root_("program-", ctx.work_root) {}

Status ProgramSide::stage(const std::map<std::string, std::string>& files) {
  const fs::path built = root_.path() / "built";
  if (auto st = copy_folder(bench_.dir, built, true); !st) return st;
  for (const auto& [name, content] : files)
    if (auto st = write_file(built / name, content); !st) return st;
  return {};
}

BuildOutcome ProgramSide::build() {
  const auto start = std::chrono::steady_clock::now();
  const TimingLease work("kopt: building " + bench_.name, -1, LeaseKind::work);
  const fs::path built = root_.path() / "built";
  share_workspace(built, ctx_.policy);
  BuildOutcome outcome;
  const ProcessResult made = run_shell(ctx_, run_policy(ctx_, bench_.program.build_timeout), built,
                                       bench_.program.build, bench_.program.build_timeout);
  outcome.log = tail(made.output, kBuildLogCap);
  outcome.ok = made.succeeded();
  if (!outcome.ok)
    outcome.failure = made.timed_out
                          ? "the build timed out"
                          : "does not build (" + made.describe() + "): " + first_error(made.output);
  outcome.binary = built;
  outcome.toolchain = "the program's build command: " + bench_.program.build;
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return outcome;
}

ProgramRun ProgramSide::run(uint64_t seed) {
  ProgramRun result;
  result.folder = root_.path() / "run";
  std::error_code ec;
  fs::remove_all(result.folder, ec);
  if (auto st = copy_folder(root_.path() / "built", result.folder, false); !st) {
    result.process.spawn_failed = true;
    result.process.output = st.error().message;
    return result;
  }
  share_workspace(result.folder, ctx_.policy);
  const int timeout = bench_.program.run_timeout;
  result.process = run_shell(ctx_, run_policy(ctx_, timeout), result.folder, bench_.program.run,
                             timeout, {{"KOPT_SEED", std::to_string(seed)}});
  if (!bench_.program.region_regex.empty())
    result.region_seconds = printed_seconds(bench_.program.region_regex, result.process.output);
  last_ = result;
  return result;
}

std::string run_failure(const ProgramSpec& spec, const ProgramRun& run, std::string& category) {
  const ProcessResult& p = run.process;
  if (!p.succeeded()) {
    category = p.timed_out ? "timeout" : "crash";
    return "the program " + p.describe() + output_end(p.output);
  }
  if (spec.check.pass_regex.empty()) return "";
  const std::regex pass(spec.check.pass_regex);
  for (const auto& line : split(p.output, '\n'))
    if (std::regex_search(line, pass)) return "";
  category = "wrong";
  return "no line of its output matches the PASS regex '" + spec.check.pass_regex + "'" +
         output_end(p.output);
}

std::string compare_failure(const ExecutionContext& ctx, const Benchmark& bench,
                            const ProgramRun& original, const ProgramRun& candidate) {
  const std::string& command = bench.program.check.compare;
  if (command.empty()) return "";
  TempDir folder("compare-", ctx.work_root);
  const fs::path want = folder.path() / "original.out", got = folder.path() / "candidate.out";
  if (!write_file(want, original.process.output) || !write_file(got, candidate.process.output))
    return "kopt cannot write the outputs to compare";
  share_workspace(folder.path(), ctx.policy);
  SandboxPolicy policy = run_policy(ctx, bench.program.run_timeout);
  policy.read_only.push_back(original.folder);
  policy.read_only.push_back(candidate.folder);
  const ProcessResult compared =
      run_shell(ctx, policy, folder.path(), command, bench.program.run_timeout,
                {{"KOPT_ORIGINAL", original.folder.string()},
                 {"KOPT_CANDIDATE", candidate.folder.string()},
                 {"KOPT_ORIGINAL_OUTPUT", want.string()},
                 {"KOPT_CANDIDATE_OUTPUT", got.string()}});
  if (compared.succeeded()) return "";
  return "the compare command (" + command + ") says the outputs differ (" + compared.describe() +
         ")" + output_end(compared.output);
}

std::optional<double> printed_seconds(const std::string& regex, const std::string& output) {
  const std::regex pattern(regex);
  std::smatch match;
  for (const auto& line : split(output, '\n')) {
    if (!std::regex_search(line, match, pattern)) continue;
    char* end = nullptr;
    const std::string number = match[1].str();
    const double value = std::strtod(number.c_str(), &end);
    if (end == number.c_str()) return std::nullopt;
    const std::string unit = match.size() > 2 ? match[2].str() : "s";
    const double scale = unit == "ms" ? 1e-3 : unit == "us" ? 1e-6 : unit == "ns" ? 1e-9 : 1;
    return value * scale;
  }
  return std::nullopt;
}

}  // namespace kopt
