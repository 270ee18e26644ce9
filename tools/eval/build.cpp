#include "tools/eval/build.h"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "tools/eval/build_isolation.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/paths.h"
#include "util/strings.h"
#include "util/timing_lease.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

constexpr const char* kBuildFormat = "kopt-build/1";

// Keeps g++'s "optimized:" and "missed:" remarks about the kernel file, once each.
std::string filter_remarks(const std::string& raw, const std::string& kernel_name) {
  std::set<std::string> seen;
  std::string kept;
  std::istringstream lines(raw);
  std::string line;
  while (std::getline(lines, line) && seen.size() < 200) {
    if (!starts_with(line, kernel_name + ":")) continue;
    if (line.find(" optimized: ") == std::string::npos &&
        line.find(" missed: ") == std::string::npos)
      continue;
    if (seen.insert(line).second) kept += line + "\n";
  }
  return kept;
}

// Keeps nvcc's ptxas resource report lines.
std::string ptxas_report(const std::string& log) {
  std::string kept;
  std::istringstream lines(log);
  std::string line;
  while (std::getline(lines, line))
    if (line.find("ptxas info") != std::string::npos) kept += line + "\n";
  return kept;
}

void copy_into(const fs::path& file, const fs::path& dir) {
  std::error_code ec;
  fs::copy_file(file, dir / file.filename(), fs::copy_options::overwrite_existing, ec);
}

BuildOutcome load_cached(const fs::path& entry) {
  BuildOutcome outcome;
  auto doc = read_json_file(entry / "build.json");
  if (!doc || doc->value("format", "") != kBuildFormat) return outcome;
  const Json& j = *doc;
  outcome.ok = j.value("ok", false);
  outcome.failure = j.value("failure", "");
  outcome.log = j.value("log", "");
  outcome.remarks = j.value("remarks", "");
  outcome.toolchain = j.value("toolchain", "");
  for (const auto& f : j.value("findings", Json::array()))
    outcome.findings.push_back(
        {f.value("category", ""), f.value("symbol", ""), f.value("message", "")});
  outcome.binary = entry / "bench";
  outcome.cached = true;
  if (outcome.ok && !fs::exists(outcome.binary)) outcome.cached = false;
  return outcome;
}

// Moves a finished build into the cache; a concurrent identical build may have won the race.
void store(const BuildOutcome& outcome, const fs::path& workspace, const fs::path& entry) {
  Json j = to_json(outcome);
  j["format"] = kBuildFormat;
  if (!write_json_file(workspace / "build.json", j)) return;
  TempDir staging("stage-", entry.parent_path());
  copy_into(workspace / "build.json", staging.path());
  if (outcome.ok) copy_into(workspace / "bench", staging.path());
  std::error_code ec;
  fs::rename(staging.path(), entry, ec);
  if (!ec) staging.keep();
}

// The compile command for the kernel; a C or C++ kernel also keeps its preprocessed text
// (kernel.ii or kernel.i) for the flags check.
std::vector<std::string> kernel_compile(const Benchmark& bench, const Toolchain& tc) {
  auto args = tc.compile(bench, workspace_kernel_name(bench), "kernel.o", true);
  if (bench.language != Language::cuda) args.insert(args.begin() + 1, "-save-temps");
  return args;
}

// Checks the compiled kernel against the driver object, isolates its symbols and links it after
// the driver.
void link_kernel(const ExecutionContext& ctx, const Benchmark& bench, const Toolchain& tc,
                 const fs::path& workspace, const std::string& kernel_source,
                 BuildOutcome& outcome) {
  auto inspected = inspect_kernel(ctx, bench, workspace, kernel_source);
  if (!inspected) {
    outcome.failure = inspected.error().message;
    return;
  }
  outcome.findings = std::move(inspected->findings);
  if (!outcome.findings.empty()) {
    outcome.failure = outcome.findings.front().message;
    return;
  }
  auto isolated = isolate_kernel(ctx, bench, workspace, *inspected);
  if (!isolated) {
    outcome.failure = isolated.error().message;
    return;
  }
  // The driver first: where both objects define an inline function or template instance, the
  // linker keeps the driver's.
  ProcessResult linked =
      run_build_tool(ctx, workspace, tc.link(bench, {"driver.o", *isolated}, "bench"), 300);
  outcome.log += linked.output;
  if (!linked.succeeded()) outcome.failure = "does not link: " + first_error(linked.output);
}

}  // namespace

std::string first_error(const std::string& log) {
  std::istringstream lines(log);
  std::string line;
  while (std::getline(lines, line))
    if (line.find("error") != std::string::npos) return trim(line);
  return trim(log.substr(0, log.find('\n')));
}

Json to_json(const BuildOutcome& build) {
  Json findings = Json::array();
  for (const auto& f : build.findings)
    findings.push_back({{"category", f.category}, {"symbol", f.symbol}, {"message", f.message}});
  return {{"ok", build.ok},          {"cached", build.cached},
          {"key", build.key},        {"failure", build.failure},
          {"log", build.log},        {"remarks", build.remarks},
          {"findings", findings},    {"toolchain", build.toolchain},
          {"seconds", build.seconds}};
}

std::string workspace_kernel_name(const Benchmark& bench) {
  return "kernel" + bench.source_extension();
}

std::string preprocessed_kernel_name(const Benchmark& bench) {
  return bench.dialect == Dialect::c ? "kernel.i" : "kernel.ii";
}

std::vector<fs::path> fixed_build_files(const Benchmark& bench) {
  std::vector<fs::path> files = {bench.header_path(), bench.driver_path()};
  for (const auto& header : bench.headers) files.push_back(bench.dir / header);
  const fs::path common = kopt_home() / "benchmarks" / "common";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(common, ec))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

Result<Toolchain> Builder::toolchain(Language language) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = toolchains_.find(language);
  if (it == toolchains_.end())
    it = toolchains_.emplace(language, find_toolchain(language, *ctx_.runner)).first;
  return it->second;
}

Status stage_build_workspace(const Benchmark& bench, const fs::path& workspace,
                             const std::string& kernel_source) {
  for (const auto& file : fixed_build_files(bench)) copy_into(file, workspace);
  return write_file(workspace / workspace_kernel_name(bench), kernel_source);
}

ProcessResult run_build_tool(const ExecutionContext& ctx, const fs::path& workspace,
                             std::vector<std::string> argv, int timeout_s, size_t output_cap) {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.cwd = workspace;
  spec.env = {{"PATH", "/usr/local/cuda/bin:/usr/bin:/bin"},
              {"HOME", workspace.string()},
              {"TMPDIR", "/tmp"},
              {"LC_ALL", "C"}};
  spec.timeout = std::chrono::seconds(timeout_s);
  spec.output_cap = output_cap;
  SandboxPolicy policy = ctx.policy;
  policy.limits = candidate_limits(0, static_cast<uint64_t>(timeout_s) * 2);
  return ctx.runner->run(confine(spec, workspace, policy));
}

Result<fs::path> Builder::driver_object(const Benchmark& bench, const Toolchain& tc,
                                        const fs::path& workspace) {
  Hasher hasher;
  hasher.add("driver-v1").add(tc.fingerprint).add(join(bench.flags, " "));
  for (const auto& file : fixed_build_files(bench)) hasher.add_file(file);
  const fs::path entry = ctx_.cache_root / "drivers" / hasher.hex();
  const std::string name = "driver.o";
  if (fs::exists(entry / name)) return entry / name;
  ProcessResult result =
      run_build_tool(ctx_, workspace, tc.compile(bench, bench.driver_file(), name, false), 600);
  if (!result.succeeded())
    return fail("the benchmark's driver does not compile: " + first_error(result.output));
  fs::create_directories(entry);
  TempDir staging("stage-", entry);
  copy_into(workspace / name, staging.path());
  std::error_code ec;
  fs::rename(staging.path() / name, entry / name, ec);
  return entry / name;
}

BuildOutcome Builder::build(const Benchmark& bench, const std::string& kernel_source) {
  const auto start = std::chrono::steady_clock::now();
  BuildOutcome outcome;
  auto tc = toolchain(bench.language);
  if (!tc) {
    outcome.failure = tc.error().message;
    return outcome;
  }
  outcome.toolchain = tc->fingerprint;
  Hasher hasher;
  hasher.add("build-v3").add(kernel_source).add(bench.hash).add(tc->fingerprint);
  for (const auto& file : fixed_build_files(bench)) hasher.add_file(file);
  outcome.key = hasher.hex();
  const fs::path entry = ctx_.cache_root / "builds" / outcome.key;
  if (BuildOutcome cached = load_cached(entry); cached.cached) {
    cached.key = outcome.key;
    return cached;
  }
  fs::create_directories(entry.parent_path());
  // A compile loads the CPUs: beside other kopts' work, never during their timing.
  const TimingLease work("kopt: building " + bench.name, -1, LeaseKind::work);
  TempDir workspace("build-", ctx_.work_root);
  const std::string kernel = workspace_kernel_name(bench);
  if (auto st = stage_build_workspace(bench, workspace.path(), kernel_source); !st) {
    outcome.failure = st.error().message;
    return outcome;
  }
  share_workspace(workspace.path(), ctx_.policy);

  ProcessResult compiled = run_build_tool(ctx_, workspace.path(), kernel_compile(bench, *tc), 300);
  outcome.log = compiled.output;
  if (bench.language == Language::cuda) {
    outcome.remarks = ptxas_report(compiled.output);
  } else if (auto raw = read_file(workspace.path() / kRemarksFile)) {
    outcome.remarks = filter_remarks(*raw, kernel);
  }
  if (!compiled.succeeded()) {
    outcome.failure = compiled.timed_out ? "the compiler timed out"
                                         : "does not compile: " + first_error(compiled.output);
  } else {
    auto driver = driver_object(bench, *tc, workspace.path());
    if (!driver) {
      outcome.failure = driver.error().message;
    } else {
      copy_into(*driver, workspace.path());
      link_kernel(ctx_, bench, *tc, workspace.path(), kernel_source, outcome);
    }
  }
  outcome.ok = outcome.failure.empty();
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  store(outcome, workspace.path(), entry);
  outcome.binary = entry / "bench";
  if (outcome.ok && !fs::exists(outcome.binary)) {
    outcome.ok = false;
    outcome.failure = "cannot store the build in " + entry.string();
  }
  return outcome;
}

}  // namespace kopt
