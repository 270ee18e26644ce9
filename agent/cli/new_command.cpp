#include <fmt/format.h>

#include <cstdlib>

#include "agent/cli/commands.h"
#include "agent/cli/eval_support.h"
#include "agent/cli/status_line.h"
#include "tools/newbench/new_benchmark.h"
#include "util/strings.h"

namespace kopt::cli {

namespace {

// "NAME=VALUE" into its two halves; UsageError naming the option otherwise.
std::pair<std::string, std::string> name_value(const std::string& option, const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == 0 || eq == std::string::npos || eq + 1 == text.size())
    throw UsageError{"--" + option + " takes NAME=VALUE, not '" + text + "'"};
  return {trim(text.substr(0, eq)), trim(text.substr(eq + 1))};
}

ParamOverrides read_overrides(const Args& args) {
  ParamOverrides overrides;
  for (const auto& text : args.list("role")) {
    const auto [name, role] = name_value("role", text);
    if (role == "in")
      overrides.roles[name] = Role::in;
    else if (role == "out")
      overrides.roles[name] = Role::out;
    else if (role == "inout")
      overrides.roles[name] = Role::inout;
    else
      throw UsageError{"--role " + name + " must be in, out or inout, not '" + role + "'"};
  }
  for (const auto& text : args.list("extent")) {
    const auto [name, extent] = name_value("extent", text);
    overrides.extents[name] = extent;
  }
  for (const auto& text : args.list("value")) {
    const auto [name, value] = name_value("value", text);
    char* end = nullptr;
    const long number = std::strtol(value.c_str(), &end, 10);
    if (*end != '\0' || number < 0)
      throw UsageError{"--value " + name + " takes a whole number >= 0, not '" + value + "'"};
    overrides.values[name] = number;
  }
  return overrides;
}

std::optional<Language> read_language(const Args& args) {
  if (!args.has("language")) return std::nullopt;
  const std::string text = args.get("language");
  if (text == "cpp") return Language::cpp;
  if (text == "openmp") return Language::openmp;
  if (text == "cuda") return Language::cuda;
  throw UsageError{"--language must be cpp, openmp or cuda, not '" + text + "'"};
}

std::string kind_word(const KernelParam& p) {
  switch (p.kind) {
    case ParamKind::array:
      return to_string(p.role);
    case ParamKind::size:
      return "size";
    case ParamKind::count:
      return "count";
    case ParamKind::integer:
      return "integer";
    case ParamKind::scalar:
      return "scalar";
  }
  return "?";
}

void print_result(const NewBenchmarkResult& r, const std::string& suite_arg) {
  const KernelSignature& sig = r.signature;
  fmt::print("kernel     {} ({}, {})\n", sig.function, sig.dialect == Dialect::c ? "C" : "C++",
             to_string(r.language));
  for (const auto& p : sig.params)
    fmt::print("  {:<8} {:<7} {}\n", p.name, kind_word(p),
               p.kind == ParamKind::array ? p.extent + " x " + p.element + "; " + p.why : p.why);
  std::vector<std::string> sizes;
  for (const auto& s : sig.named_sizes) sizes.push_back(s.name + " = " + s.expression);
  if (!sizes.empty()) fmt::print("sizes      {} (at scale n)\n", join(sizes, ", "));
  fmt::print("time size  n = {}: {:.3g} ms per call{}\n", r.time_size, r.time_seconds * 1e3,
             r.time_note.empty() ? "" : " (" + r.time_note + ")");
  fmt::print("work       flops {}, bytes {}\n           ({})\n", r.work.flops, r.work.bytes,
             r.work.source);
  const std::string name = r.dir.filename().string();
  fmt::print("wrote      {}/ (kernel.h, original.cpp, driver.cpp, benchmark.json)\n",
             r.dir.string());
  if (r.problem.empty()) {
    fmt::print("check      ok: the original reproduces itself ({})\n", one_line(r.check));
    fmt::print("next       kopt eval {} --suite {}\n", name, suite_arg);
  } else {
    fmt::print("check      FAILED: {}\n", r.problem);
  }
}

int run_new(const Args& args) {
  NewBenchmarkRequest request;
  request.name = args.get("NAME");
  request.source.path = args.get("from");
  for (const auto& dir : args.list("I")) request.source.include_dirs.push_back(dir);
  request.source.defines = args.list("D");
  request.function = args.get("function");
  request.extract = args.flag("extract");
  request.language = read_language(args);
  request.suite = args.has("suite") ? args.get("suite") : ".";
  request.overrides = read_overrides(args);
  request.replace = args.flag("force");
  EvaluatorSession session(args);
  StatusLine status;
  auto made = make_benchmark(session.evaluator(), request, [&](const std::string& stage) {
    status.update(fmt::format("kopt new {}: {}...", request.name, stage));
  });
  status.clear();
  if (!made) throw UsageError{made.error().message};
  print_result(*made, request.suite.string());
  return made->problem.empty() ? kExitOk : kExitFailed;
}

}  // namespace

CommandSpec new_command() {
  std::vector<OptionSpec> options = {
      {"NAME", "The new benchmark's name (its folder under --suite)", "", false, true},
      {"--from", "The source file that defines the kernel (.c: C, else C++)", "", false, true},
      {"--function", "The kernel function to benchmark", "", false, true},
      {"--language",
       "cpp, openmp or cuda (default: openmp where the function has OpenMP "
       "pragmas, else cpp)"},
      {"--role", "NAME=in|out|inout: an array's role, instead of kopt's reading of the code", "",
       false, false, "", true},
      {"--extent",
       "NAME=EXPR: an array's element count, as an expression of the size "
       "parameters (e.g. a=n*m)",
       "", false, false, "", true},
      {"--value",
       "NAME=V: an integer parameter's typical value: a size's value at the time size (the time "
       "size then is the one --value gives), a count's fixed value",
       "", false, false, "", true},
      {"-I", "DIR: an include folder for the file's own headers (its folder comes first)", "",
       false, false, "", true},
      {"-D", "NAME or NAME=VALUE: a macro the kernel is built with", "", false, false, "", true},
      {"--extract",
       "original.cpp is the file without its other functions (main, helpers) and the kernel "
       "without 'static': for a file that is a whole program",
       "", true},
      {"--force", "Replace the benchmark folder if it exists", "", true}};
  for (auto& o : evaluator_options()) options.push_back(o);
  for (auto& o : options)
    if (o.name == "--suite") o.help = "Folder to make the benchmark in (default: the current one)";
  return {"new", "Make a benchmark folder from a function in your own source file", options,
          run_new};
}

}  // namespace kopt::cli
