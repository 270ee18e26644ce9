#include "tools/newbench/new_benchmark.h"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>

#include "tools/eval/drawn_sizes.h"
#include "tools/newbench/calibrate.h"
#include "tools/newbench/driver_writer.h"
#include "tools/newbench/kernel_text.h"
#include "tools/newbench/new_manifest.h"
#include "util/files.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

constexpr double kMaxBytes = 1 << 30;

bool has_openmp(const Json& node) {
  if (kind_of(node).rfind("OMP", 0) == 0) return true;
  for (const auto& child : children(node))
    if (has_openmp(child)) return true;
  return false;
}

// Within the limits constant dimensions set, and at most 1 GiB of arrays.
bool allowed_scale(const KernelSignature& sig, long n) {
  auto values = parameter_values(sig, n);
  if (!values) return false;
  for (const auto& limit : sig.limits)
    if (evaluate_expression(limit.expression, *values).value_or(1e300) > limit.limit) return false;
  double bytes = 0;
  for (const auto& p : sig.params)
    if (p.kind == ParamKind::array)
      bytes += evaluate_expression(p.extent, *values).value_or(1e300) *
               static_cast<double>(element_bytes(p.element));
  return bytes <= kMaxBytes;
}

// The largest n within the kernel's limits (memory, constant dimensions) up to the largest
// size the check may draw, as manifest size.max, or 0 when that size is allowed: past a limit
// the original itself would fail or write out of bounds.
long largest_allowed(long time, const std::function<bool(long)>& allowed) {
  const long widest = kLargestDrawnMultiple * time;
  if (allowed(widest)) return 0;
  return largest_size_where(time, widest, allowed);
}

Status check_request(const NewBenchmarkRequest& r, const fs::path& dir) {
  if (!std::regex_match(r.name, std::regex("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")))
    return fail("'" + r.name + "' cannot name a benchmark: letters, digits, '_', '-', '.'");
  if (r.language == Language::cuda)
    return fail(
        "kopt new does not make CUDA benchmarks yet: use cpp or openmp, or write the "
        "folder by hand (docs/benchmarks.md)");
  if (fs::exists(dir) && !r.replace)
    return fail(dir.string() + " exists already (--force replaces it)");
  return {};
}

// The file's own headers, by file name beside kernel.h (the build's -I. finds them there).
Result<std::vector<std::string>> copy_headers(ProcessRunner& runner, const SourceFile& source,
                                              const fs::path& dir) {
  auto headers = local_headers(runner, source);
  if (!headers) return headers.error();
  std::vector<std::string> names;
  for (const auto& header : *headers) {
    const std::string name = header.filename().string();
    if (std::find(names.begin(), names.end(), name) != names.end() || name == "kernel.h" ||
        name == "harness.h")
      return fail(source.path.string() + " includes two headers named " + name +
                  ", which one folder cannot hold");
    names.push_back(name);
    std::error_code ec;
    fs::copy_file(header, dir / name, fs::copy_options::overwrite_existing, ec);
    if (ec) return fail("cannot copy " + header.string() + ": " + ec.message());
  }
  return names;
}

Status write_folder(const fs::path& dir, const KernelSignature& sig, const std::string& source,
                    const std::string& source_name, const Json& manifest) {
  for (const auto& [file, text] :
       {std::pair{"kernel.h", write_kernel_header(sig, source_name)},
        std::pair{"original.cpp", source}, std::pair{"driver.cpp", write_driver(sig)},
        std::pair{"benchmark.json", dump_json(manifest, 2) + "\n"}})
    if (auto st = write_file(dir / file, text); !st) return st;
  return {};
}

Status make_folder(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fail("cannot make " + dir.string() + ": " + ec.message());
  return {};
}

// The time size: the one --value gives, else the smallest n whose call takes 20 ms.
Result<Calibration> choose_time_size(const ExecutionContext& ctx, const Benchmark& bench,
                                     const BuildOutcome& build, const KernelSignature& sig,
                                     const std::function<bool(long)>& allowed) {
  if (sig.typical_scale > 0) return time_at_size(ctx, bench, build.binary, sig.typical_scale);
  return calibrate_time_size(ctx, bench, build.binary, allowed);
}

Variables fixed_arguments(const KernelSignature& sig) {
  Variables values;
  for (const auto& p : sig.params)
    if (p.kind == ParamKind::count || p.kind == ParamKind::integer)
      values[p.name] = static_cast<double>(p.value);
  return values;
}

// The kernel as kopt new reads it: its signature, the text of original.cpp, its language.
struct ReadKernel {
  KernelSignature signature;
  std::string source;
  Language language = Language::cpp;
};

Result<ReadKernel> read_kernel(ProcessRunner& runner, const NewBenchmarkRequest& request) {
  auto ast = read_function_ast(runner, request.source, request.function);
  if (!ast) return ast.error();
  if (ast->is_static && !request.extract)
    return fail(request.function +
                " is static: kopt calls it from its own driver, so it needs external linkage "
                "(remove 'static', or --extract takes the function without it)");
  auto sig = classify_parameters(*ast, request.overrides);
  if (!sig) return sig.error();
  auto source = kernel_file_text(runner, request.source, *ast, request.extract);
  if (!source) return source.error();
  const Language language =
      request.language.value_or(has_openmp(ast->decl) ? Language::openmp : Language::cpp);
  return ReadKernel{std::move(*sig), std::move(*source), language};
}

}  // namespace

Result<NewBenchmarkResult> make_benchmark(LocalEvaluator& evaluator,
                                          const NewBenchmarkRequest& request,
                                          const NewProgressFn& progress) {
  const ExecutionContext& ctx = evaluator.context();
  NewBenchmarkResult result;
  result.dir = request.suite / request.name;
  if (auto st = check_request(request, result.dir); !st) return st.error();
  auto kernel = read_kernel(*ctx.runner, request);
  if (!kernel) return kernel.error();
  const KernelSignature& sig = kernel->signature;
  const std::string& source = kernel->source;
  result.signature = sig;
  result.language = kernel->language;

  ManifestChoices choices;
  choices.name = request.name;
  choices.language = kernel->language;
  choices.source_name = request.source.path.filename().string();
  choices.defines = request.source.defines;
  auto allowed = [&](long n) { return allowed_scale(sig, n); };
  choices.check_sizes = default_check_sizes(allowed);
  if (choices.check_sizes.empty()) return fail("the kernel's limits leave no size to check");
  choices.time_size = sig.typical_scale > 0 ? sig.typical_scale : choices.check_sizes.back();
  choices.work.source = "not yet counted";
  if (auto st = make_folder(result.dir); !st) return st.error();
  auto headers = copy_headers(*ctx.runner, request.source, result.dir);
  if (!headers) return headers.error();
  choices.headers = *headers;
  if (auto st =
          write_folder(result.dir, sig, source, choices.source_name, new_manifest(sig, choices));
      !st)
    return st.error();
  auto bench = load_benchmark(result.dir);
  if (!bench) return fail("the folder kopt new wrote does not load: " + bench.error().message);

  progress("building");
  BuildOutcome build = evaluator.build(*bench, source);
  if (!build.ok)
    return fail("the benchmark does not build (" + result.dir.string() + "): " + build.failure);
  progress(sig.typical_scale > 0 ? "timing the original" : "finding the time size");
  auto calibration = choose_time_size(ctx, *bench, build, sig, allowed);
  if (!calibration) return fail("the original fails when timed " + calibration.error().message);
  result.time_size = calibration->size;
  result.time_seconds = calibration->seconds;
  result.time_note = calibration->note;
  choices.time_size = calibration->size;
  choices.time_note = calibration->note;
  choices.max_size = largest_allowed(calibration->size, allowed);
  std::erase_if(choices.check_sizes, [&](long n) { return n >= calibration->size; });
  if (choices.check_sizes.empty()) choices.check_sizes = {1};
  progress("counting the work per call");
  choices.work = result.work = propose_work(ctx, *bench, source, fixed_arguments(sig));
  if (auto st = write_file(result.dir / "benchmark.json",
                           dump_json(new_manifest(sig, choices), 2) + "\n");
      !st)
    return st.error();
  bench = load_benchmark(result.dir);
  if (!bench) return fail("the manifest kopt new wrote does not load: " + bench.error().message);

  progress("checking the original against itself");
  EvalRequest check;
  check.source = source;
  check.label = "original";
  check.time = false;
  result.check =
      evaluator.evaluate(*bench, check, [&](const std::string& stage) { progress(stage); });
  if (!result.check.correct()) result.problem = explain_failed_original(result.check);
  return result;
}

}  // namespace kopt
