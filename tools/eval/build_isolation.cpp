#include "tools/eval/build_isolation.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "tools/eval/build.h"
#include "util/files.h"
#include "util/json.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

// One sandboxed shell for the listing tools: each process start in the sandbox costs time.
Status run_listing(const ExecutionContext& ctx, const fs::path& workspace,
                   const std::string& script) {
  ProcessResult r = run_build_tool(ctx, workspace, {"sh", "-c", script}, 120);
  if (!r.succeeded()) return fail("cannot list the kernel object: " + trim(tail(r.output, 300)));
  return {};
}

std::string read_or_empty(const fs::path& file) {
  auto text = read_file(file);
  return text ? *text : std::string();
}

// Findings first by what they say about the candidate's intent: a changed contract, code
// outside the window, a replaced function, then what it reaches for.
void order_findings(std::vector<Finding>& findings) {
  static const std::vector<std::string> first = {"flags", "outside-window", "interposition"};
  auto rank = [](const Finding& f) {
    return std::find(first.begin(), first.end(), f.category) - first.begin();
  };
  std::stable_sort(findings.begin(), findings.end(),
                   [&](const Finding& a, const Finding& b) { return rank(a) < rank(b); });
}

// The manifest's optional "allow_pragmas": pragmas and attributes it lets candidates use.
std::vector<std::string> allowed_pragmas(const Benchmark& bench) {
  auto manifest = read_json_file(bench.dir / "benchmark.json");
  if (!manifest || !manifest->contains("allow_pragmas")) return {};
  return manifest->value("allow_pragmas", std::vector<std::string>{});
}

}  // namespace

Result<KernelInspection> inspect_kernel(const ExecutionContext& ctx, const Benchmark& bench,
                                        const fs::path& workspace,
                                        const std::string& kernel_source) {
  const bool cuda = bench.language == Language::cuda;
  if (auto st = run_listing(ctx, workspace,
                            "nm -P kernel.o > kernel.nm && nm -P driver.o > driver.nm && "
                            "objdump -d --no-show-raw-insn kernel.o > kernel.dis && "
                            "readelf -SW kernel.o > kernel.sections");
      !st)
    return fail(st.error().message);
  KernelInspection inspection;
  inspection.kernel = parse_nm(read_or_empty(workspace / "kernel.nm"));
  inspection.driver = parse_nm(read_or_empty(workspace / "driver.nm"));
  auto& findings = inspection.findings;
  findings = check_symbols(inspection.kernel, bench.functions, inspection.driver, !cuda);
  for (auto& f : check_instructions(read_or_empty(workspace / "kernel.dis")))
    findings.push_back(std::move(f));
  // nvcc's host object registers its device code from a static constructor and unregisters it
  // through atexit: the CUDA path keeps the other symbol checks only (see DESIGN.md).
  if (!cuda) {
    for (auto& f : check_sections(read_or_empty(workspace / "kernel.sections")))
      findings.push_back(std::move(f));
    for (auto& f :
         check_flags(kernel_source, read_or_empty(workspace / preprocessed_kernel_name(bench)),
                     allowed_pragmas(bench)))
      findings.push_back(std::move(f));
  }
  order_findings(findings);
  return inspection;
}

Result<std::string> isolate_kernel(const ExecutionContext& ctx, const Benchmark& bench,
                                   const fs::path& workspace, const KernelInspection& inspection) {
  if (bench.language == Language::cuda) return std::string("kernel.o");
  const auto names = symbols_to_localize(inspection.kernel, bench.functions, inspection.driver);
  if (auto st = write_file(workspace / "localize.txt", join(names, "\n") + "\n"); !st)
    return fail(st.error().message);
  if (auto st = run_listing(ctx, workspace,
                            "objcopy --localize-symbols=localize.txt kernel.o kernel.local.o && "
                            "nm -P kernel.local.o > kernel.local.nm");
      !st)
    return fail(st.error().message);
  const ObjectSymbols isolated = parse_nm(read_or_empty(workspace / "kernel.local.nm"));
  if (!symbols_to_localize(isolated, bench.functions, inspection.driver).empty())
    return fail("cannot make the kernel's helper symbols local: " +
                symbols_to_localize(isolated, bench.functions, inspection.driver).front());
  return std::string("kernel.local.o");
}

}  // namespace kopt
