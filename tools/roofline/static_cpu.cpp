#include "tools/roofline/static_cpu.h"

#include <regex>

#include "sandbox/sandbox.h"
#include "tools/eval/build.h"
#include "tools/roofline/source_compile.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

// Replaces <omp.h> for the analysis: the kernel is costed as run by one thread (thread 0 of 1),
// so a hand-partitioned loop covers the whole range and its trip count stays readable.
constexpr const char* kSerialOmpHeader = R"(#pragma once
#ifdef __cplusplus
extern "C" {
#endif
typedef struct { int unused; } omp_lock_t;
static inline int omp_get_num_threads(void) { return 1; }
static inline int omp_get_max_threads(void) { return 1; }
static inline int omp_get_thread_num(void) { return 0; }
static inline int omp_get_num_procs(void) { return 1; }
static inline int omp_in_parallel(void) { return 0; }
static inline double omp_get_wtime(void) { return 0.0; }
static inline void omp_set_num_threads(int n) { (void)n; }
static inline void omp_init_lock(omp_lock_t* l) { (void)l; }
static inline void omp_destroy_lock(omp_lock_t* l) { (void)l; }
static inline void omp_set_lock(omp_lock_t* l) { (void)l; }
static inline void omp_unset_lock(omp_lock_t* l) { (void)l; }
#ifdef __cplusplus
}
#endif
)";

// The text between the parentheses of the first call of `function` (balanced), or empty.
std::string call_arguments(const std::string& text, const std::string& function) {
  const std::regex call("\\b" + function + "\\s*\\(");
  std::smatch match;
  if (!std::regex_search(text, match, call)) return {};
  size_t pos = match.position(0) + match.length(0);
  const size_t start = pos;
  for (int depth = 1; pos < text.size(); ++pos) {
    if (text[pos] == '(') ++depth;
    if (text[pos] == ')' && --depth == 0) return text.substr(start, pos - start);
  }
  return {};
}

std::vector<std::string> top_level_split(const std::string& text) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char ch : text) {
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    if (ch == ')' || ch == ']' || ch == '}') --depth;
    if (ch == ',' && depth == 0)
      parts.emplace_back();
    else
      parts.back() += ch;
  }
  for (auto& p : parts) p = trim(p);
  return parts;
}

std::optional<double> number(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') return std::nullopt;
  return value;
}

// The value of an argument the driver passes: a literal, a named constant ("kDim", from its
// definition), a member named after a size ("n_"), or a member the driver sets to one of these
// ("order_ = kOrder;", its first assignment).
std::optional<double> driver_value(const std::string& driver, const std::string& arg,
                                   const Variables& sizes, int depth) {
  if (auto value = number(arg)) return value;
  std::smatch match;
  if (std::regex_match(arg, std::regex("k[A-Z]\\w*")) &&
      std::regex_search(driver, match, std::regex("\\b" + arg + "\\s*=\\s*([0-9]+)\\s*[;,]")))
    return std::stod(match[1]);
  if (arg.size() < 2 || arg.back() != '_' || !std::regex_match(arg, std::regex("\\w+")))
    return std::nullopt;
  if (auto it = sizes.find(arg.substr(0, arg.size() - 1)); it != sizes.end()) return it->second;
  if (depth < 3 &&
      std::regex_search(driver, match, std::regex("\\b" + arg + "\\s*=\\s*(\\w+)\\s*;")))
    return driver_value(driver, match[1], sizes, depth + 1);
  return std::nullopt;
}

// clang and opt: their limits, and room for opt's scalar-evolution report on its output.
constexpr int kToolSeconds = 120;
constexpr size_t kToolOutputCap = 64 << 20;

}  // namespace

const char* serial_omp_header() {
  return kSerialOmpHeader;
}

std::vector<std::string> analysis_ir_flags() {
  return {"clang++",
          "-O2",
          "-fno-vectorize",
          "-fno-slp-vectorize",
          "-fno-unroll-loops",
          "-fopenmp-simd",
          "-fno-discard-value-names",
          "-g0",
          "-S",
          "-emit-llvm"};
}

std::vector<std::string> native_ir_flags(const std::vector<std::string>& manifest_flags) {
  std::vector<std::string> flags = {"clang++",
                                    "-O3",
                                    "-march=native",
                                    "-mllvm",
                                    "-unroll-runtime=false",
                                    "-fopenmp-simd",
                                    "-ffp-contract=fast",
                                    "-fno-discard-value-names",
                                    "-g0",
                                    "-S",
                                    "-emit-llvm"};
  static const std::regex kFloatFlag(
      "-f(no-)?(fast-math|math-errno|finite-math-only|unsafe-math-optimizations|trapping-math|"
      "signed-zeros|associative-math|reciprocal-math)|-std=.*");
  for (const auto& flag : manifest_flags)
    if (std::regex_match(flag, kFloatFlag)) flags.push_back(flag);
  return flags;
}

Result<IrModule> compile_ir(const ExecutionContext& ctx, const fs::path& dir,
                            std::vector<std::string> argv, const std::string& file) {
  argv.insert(argv.end(), {"-I.", file, "-o", "kernel.ll"});
  ProcessResult ir = run_build_tool(ctx, dir, argv, kToolSeconds, kToolOutputCap);
  if (ir.spawn_failed || ir.exit_code == 127)
    return fail("clang++ not found (install clang and llvm)");
  if (!ir.succeeded())
    return fail("clang++ cannot compile the kernel: " + first_compiler_error(ir.output));
  ProcessResult scev = run_build_tool(
      ctx, dir,
      {"opt", "-passes=print<loops>,print<scalar-evolution>", "-disable-output", "kernel.ll"},
      kToolSeconds, kToolOutputCap);
  if (!scev.succeeded()) return fail("opt failed: " + first_compiler_error(scev.output));
  auto text = read_file(dir / "kernel.ll");
  if (!text) return text.error();
  return IrModule{parse_llvm_ir(*text), parse_scev_report(scev.output)};
}

std::vector<std::optional<double>> driver_arguments(const std::string& driver,
                                                    const std::string& function, double size) {
  return driver_arguments(driver, function, Variables{{"n", size}});
}

std::vector<std::optional<double>> driver_arguments(const std::string& driver,
                                                    const std::string& function,
                                                    const Variables& sizes) {
  std::vector<std::optional<double>> values;
  const std::string args = call_arguments(driver, function);
  if (args.empty()) return values;
  for (const auto& arg : top_level_split(args))
    values.push_back(driver_value(driver, arg, sizes, 0));
  return values;
}

Result<StaticEstimate> estimate_cpu(const ExecutionContext& ctx, const Benchmark& bench,
                                    const std::string& source, long size,
                                    const Variables& arguments, IrFlavor flavor) {
  TempDir ws("static-", ctx.work_root);
  if (auto st = stage_build_workspace(bench, ws.path(), source); !st) return st.error();
  if (auto st = write_file(ws.path() / "omp.h", serial_omp_header()); !st) return st.error();
  share_workspace(ws.path(), ctx.policy);
  std::vector<std::string> argv =
      flavor == IrFlavor::native ? native_ir_flags(bench.flags) : analysis_ir_flags();
  if (bench.dialect == Dialect::c) argv.insert(argv.end(), {"-x", "c"});
  auto module = compile_ir(ctx, ws.path(), argv, workspace_kernel_name(bench));
  if (!module) return module.error();
  StaticEstimate estimate;
  estimate.toolchain = flavor == IrFlavor::native
                           ? "clang++ -O3 -march=native LLVM IR + opt scalar evolution"
                           : "clang++ -O2 scalar LLVM IR + opt scalar evolution";
  estimate.assumptions.size = static_cast<double>(size > 0 ? size : bench.time_size);
  Variables sizes = bench.variables(static_cast<long>(estimate.assumptions.size))
                        .value_or(Variables{{"n", estimate.assumptions.size}});
  sizes.insert(arguments.begin(), arguments.end());
  if (auto driver = read_file(bench.driver_path()); driver && !bench.functions.empty())
    estimate.assumptions.arguments = driver_arguments(*driver, bench.functions.front(), sizes);
  estimate.counts =
      cost_module(module->functions, module->facts, bench.functions, estimate.assumptions);
  if (estimate.counts.counters.kernel.empty())
    return fail("the IR defines none of the kernel's functions (" + join(bench.functions, ", ") +
                ")");
  return estimate;
}

}  // namespace kopt
