#include "tools/benchmark/benchmark.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <type_traits>

#include "tools/benchmark/expression.h"
#include "util/files.h"
#include "util/hash.h"

namespace kopt {

namespace fs = std::filesystem;

std::string to_string(Language language) {
  switch (language) {
    case Language::cpp:
      return "cpp";
    case Language::openmp:
      return "openmp";
    case Language::cuda:
      return "cuda";
  }
  return "?";
}

std::string Benchmark::source_extension() const {
  return language == Language::cuda ? ".cu" : ".cpp";
}
std::string Benchmark::kernel_file() const {
  return "original" + source_extension();
}
std::string Benchmark::human_file() const {
  return "human" + source_extension();
}
std::string Benchmark::driver_file() const {
  return "driver" + source_extension();
}

namespace {

// The value of one named size at scale n: a whole number >= 0 (rounded down).
Result<long> named_value(const NamedSize& size, long n) {
  auto value = evaluate_expression(size.expression, static_cast<double>(n));
  if (!value)
    return fail("size '" + size.name + "' ('" + size.expression + "'): " + value.error().message);
  const double whole = std::floor(*value + 1e-9);
  if (!std::isfinite(whole) || whole < 0 || whole > 1e15)
    return fail("size '" + size.name + "' is " + std::to_string(*value) +
                " at n = " + std::to_string(n) + ", not a whole number >= 0");
  return static_cast<long>(whole);
}

}  // namespace

Result<Variables> Benchmark::variables(long n) const {
  Variables vars{{"n", static_cast<double>(n)}};
  for (const auto& size : named_sizes) {
    auto value = named_value(size, n);
    if (!value) return value.error();
    vars[size.name] = static_cast<double>(*value);
  }
  return vars;
}

Result<double> Benchmark::work_at(const std::string& expression, long n) const {
  auto vars = variables(n);
  if (!vars) return vars.error();
  return evaluate_expression(expression, *vars);
}

Result<std::vector<std::string>> named_size_words(const std::vector<NamedSize>& sizes, long n) {
  std::vector<std::string> words;
  for (const auto& size : sizes) {
    auto value = named_value(size, n);
    if (!value) return value.error();
    words.push_back(size.name + "=" + std::to_string(*value));
  }
  return words;
}

namespace {

template <class T>
constexpr bool kIntegers = std::is_integral_v<T>;
template <class T>
constexpr bool kIntegers<std::vector<T>> = std::is_integral_v<T>;

// Reads one manifest field with its expected type, or says which field is wrong.
template <class T>
Status read_field(const Json& manifest, const std::string& key, T& out, bool required = true) {
  const Json* node = &manifest;
  for (const auto& part :
       {key.substr(0, key.find('.')),
        key.find('.') == std::string::npos ? std::string() : key.substr(key.find('.') + 1)}) {
    if (part.empty()) continue;
    if (!node->is_object() || !node->contains(part)) {
      if (!required) return {};
      return fail("missing field '" + key + "'");
    }
    node = &(*node)[part];
  }
  // A float converted to an integer type past its range is undefined behaviour: integer fields
  // take integers only.
  if constexpr (kIntegers<T>)
    if (node->is_number_float() ||
        (node->is_array() && std::any_of(node->begin(), node->end(),
                                         [](const Json& item) { return item.is_number_float(); })))
      return fail("field '" + key + "' must hold integers");
  try {
    out = node->get<T>();
  } catch (const Json::exception&) {
    return fail("field '" + key + "' has the wrong type");
  }
  return {};
}

Status parse_language(const std::string& text, Language& language) {
  if (text == "cpp")
    language = Language::cpp;
  else if (text == "openmp")
    language = Language::openmp;
  else if (text == "cuda")
    language = Language::cuda;
  else
    return fail("language must be cpp, openmp or cuda, not '" + text + "'");
  return {};
}

bool is_identifier(const std::string& name) {
  if (name.empty() || name.size() > 64 || std::isdigit(static_cast<unsigned char>(name[0])))
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// "size.names": an object of name -> expression of n, kept in the manifest's order.
Status read_named_sizes(const Json& m, Benchmark& b) {
  if (!m.contains("size") || !m["size"].is_object() || !m["size"].contains("names")) return {};
  const Json& names = m["size"]["names"];
  if (!names.is_object()) return fail("field 'size.names' must map names to expressions of n");
  for (const auto& [name, expression] : names.items()) {
    if (!is_identifier(name) || name == "n" || name == "log2" || name == "sqrt")
      return fail("'" + name + "' in 'size.names' is not a name a size can have");
    if (!expression.is_string() && !expression.is_number_integer())
      return fail("size '" + name + "' must be an expression of n");
    b.named_sizes.push_back(
        {name, expression.is_string() ? expression.get<std::string>() : expression.dump()});
  }
  return {};
}

Status parse_dialect(const std::string& text, Dialect& dialect) {
  if (text.empty() || text == "c++")
    dialect = Dialect::cxx;
  else if (text == "c")
    dialect = Dialect::c;
  else
    return fail("dialect must be c++ or c, not '" + text + "'");
  return {};
}

// Every named size at every size the manifest uses, and every work expression at the time size.
Status check_sizes_and_work(const Benchmark& b) {
  std::vector<long> scales = b.check_sizes;
  scales.push_back(b.time_size);
  for (long n : scales)
    if (auto vars = b.variables(n); !vars) return vars.error();
  for (const auto* expr : {&b.flops, &b.bytes, &b.footprint})
    if (auto value = b.work_at(*expr, b.time_size); !value)
      return fail("work expression '" + (expr->size() > 60 ? expr->substr(0, 60) + "..." : *expr) +
                  "': " + value.error().message);
  return {};
}

Status read_manifest(const Json& m, Benchmark& b) {
  std::string format, language, dialect;
  Status checks[] = {read_field(m, "format", format),
                     read_field(m, "name", b.name),
                     read_field(m, "language", language),
                     read_field(m, "dialect", dialect, false),
                     read_named_sizes(m, b),
                     read_field(m, "summary", b.summary),
                     read_field(m, "technique", b.technique, false),
                     read_field(m, "functions", b.functions),
                     read_field(m, "size.meaning", b.size_meaning, false),
                     read_field(m, "size.check", b.check_sizes),
                     read_field(m, "size.draw", b.draw_sizes, false),
                     read_field(m, "size.max", b.max_size, false),
                     read_field(m, "size.time", b.time_size),
                     read_field(m, "seeds", b.seeds),
                     read_field(m, "tolerance.rtol", b.rtol),
                     read_field(m, "tolerance.atol", b.atol),
                     read_field(m, "flags", b.flags),
                     read_field(m, "headers", b.headers, false),
                     read_field(m, "work.flops", b.flops),
                     read_field(m, "work.bytes", b.bytes),
                     read_field(m, "work.footprint", b.footprint, false),
                     read_field(m, "domain.inputs", b.domain),
                     read_field(m, "domain.edges", b.edge_cases)};
  for (const auto& st : checks)
    if (!st) return st;
  if (format != "kopt-benchmark/1")
    return fail("format is '" + format + "', this kopt reads 'kopt-benchmark/1'");
  if (auto st = parse_language(language, b.language); !st) return st;
  if (auto st = parse_dialect(dialect, b.dialect); !st) return st;
  if (b.dialect == Dialect::c && b.language == Language::cuda)
    return fail("dialect c is for cpp and openmp kernels");
  if (b.functions.empty()) return fail("'functions' must name at least one function");
  if (b.check_sizes.empty() || b.time_size <= 0) return fail("sizes must be positive");
  if (std::any_of(b.check_sizes.begin(), b.check_sizes.end(), [](long n) { return n <= 0; }))
    return fail("check sizes must be positive");
  if (b.max_size < 0) return fail("'size.max' must be positive");
  if (b.max_size > 0 &&
      (b.time_size > b.max_size || std::any_of(b.check_sizes.begin(), b.check_sizes.end(),
                                               [&](long n) { return n > b.max_size; })))
    return fail("the check and time sizes must be at most 'size.max'");
  if (b.seeds < 5) return fail("'seeds' must be at least 5");
  if (b.rtol < 0 || b.atol < 0) return fail("tolerances must not be negative");
  if (b.domain.empty()) return fail("'domain.inputs' must say what inputs kernel.h promises");
  if (b.edge_cases.empty()) return fail("'domain.edges' must list the driver's edge cases");
  if (b.footprint.empty()) b.footprint = b.bytes;
  for (const auto& header : b.headers)
    if (header.empty() || header.find('/') != std::string::npos || header[0] == '.')
      return fail("'headers' names files of the folder, not '" + header + "'");
  return check_sizes_and_work(b);
}

// "kind": "function" (the default) or "program".
Status read_kind(const Json& m, BenchmarkKind& kind) {
  std::string text = "function";
  if (auto st = read_field(m, "kind", text, false); !st) return st;
  if (text == "program")
    kind = BenchmarkKind::program;
  else if (text != "function")
    return fail("field 'kind' must be function or program, not '" + text + "'");
  return {};
}

// A program's manifest: its name and summary, and the fields of program.h.
Status read_program_manifest(const Json& m, Benchmark& b) {
  std::string format, language = "cpp";
  Status checks[] = {read_field(m, "format", format),
                     read_field(m, "name", b.name),
                     read_field(m, "summary", b.summary),
                     read_field(m, "technique", b.technique, false),
                     read_field(m, "language", language, false),
                     read_program_spec(m, b.program)};
  for (const auto& st : checks)
    if (!st) return st;
  if (format != "kopt-benchmark/1")
    return fail("format is '" + format + "', this kopt reads 'kopt-benchmark/1'");
  if (auto st = parse_language(language, b.language); !st) return st;
  for (const auto& file : b.program.editable)
    if (!fs::is_regular_file(b.dir / file))
      return fail("field 'editable' names " + file + ", which is not a file of the folder");
  return {};
}

// The digest of hashed_files: a program's files each with their path in the folder (they may
// sit in subfolders), a function benchmark's by name.
std::string benchmark_hash(const Benchmark& b) {
  Hasher hasher;
  for (const auto& file : hashed_files(b)) {
    if (b.is_program()) hasher.add(file.string());
    hasher.add_file(b.dir / file);
  }
  return hasher.hex();
}

Result<Benchmark> load_program(const fs::path& dir, const Json& manifest) {
  const fs::path manifest_path = dir / "benchmark.json";
  Benchmark b;
  b.dir = dir;
  b.kind = BenchmarkKind::program;
  if (auto st = read_program_manifest(manifest, b); !st)
    return fail(manifest_path.string() + ": " + st.error().message);
  if (b.name != dir.filename().string())
    return fail(manifest_path.string() + ": name '" + b.name + "' differs from its folder's name");
  b.hash = benchmark_hash(b);
  return b;
}

}  // namespace

std::vector<fs::path> hashed_files(const Benchmark& bench) {
  std::vector<fs::path> files;
  if (bench.is_program()) {  // In path order, as fs::path compares them.
    for (const auto& entry : fs::recursive_directory_iterator(bench.dir))
      if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), bench.dir));
    std::sort(files.begin(), files.end());
    return files;
  }
  files = {"benchmark.json", "kernel.h", bench.kernel_file(), bench.driver_file()};
  files.insert(files.end(), bench.headers.begin(), bench.headers.end());
  if (bench.has_human) files.push_back(bench.human_file());
  return files;
}

Result<std::string> original_source(const Benchmark& bench) {
  if (!bench.is_program()) return read_file(bench.kernel_path());
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& name : bench.program.editable) {
    auto content = read_file(bench.dir / name);
    if (!content) return content.error();
    files.emplace_back(name, *content);
  }
  return make_bundle(files);
}

Result<Benchmark> load_benchmark(const fs::path& dir) {
  const fs::path manifest_path = dir / "benchmark.json";
  auto manifest = read_json_file(manifest_path);
  if (!manifest) return fail("benchmark " + dir.string() + ": " + manifest.error().message);
  BenchmarkKind kind = BenchmarkKind::function;
  if (auto st = read_kind(*manifest, kind); !st)
    return fail(manifest_path.string() + ": " + st.error().message);
  if (kind == BenchmarkKind::program) return load_program(dir, *manifest);
  Benchmark b;
  b.dir = dir;
  if (auto st = read_manifest(*manifest, b); !st)
    return fail(manifest_path.string() + ": " + st.error().message);
  b.has_human = fs::exists(b.human_path());
  for (const auto& file : hashed_files(b))
    if (!fs::exists(dir / file))
      return fail("benchmark " + b.name + ": missing file " + (dir / file).string());
  if (b.name != dir.filename().string())
    return fail(manifest_path.string() + ": name '" + b.name + "' differs from its folder's name");
  b.hash = benchmark_hash(b);
  return b;
}

Result<Benchmark> find_benchmark(const std::string& name_or_path, const fs::path& suite) {
  if (fs::exists(fs::path(name_or_path) / "benchmark.json")) return load_benchmark(name_or_path);
  std::vector<fs::path> matches;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(suite, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory() && it->path().filename() == name_or_path &&
        fs::exists(it->path() / "benchmark.json"))
      matches.push_back(it->path());
  }
  if (matches.size() > 1)
    return fail("benchmark name '" + name_or_path + "' is ambiguous: " + matches[0].string() +
                " and " + matches[1].string() + " (give the folder)");
  if (matches.empty())
    return fail("unknown benchmark '" + name_or_path + "' (kopt list shows the suite in " +
                suite.string() + ")");
  return load_benchmark(matches.front());
}

std::vector<Result<Benchmark>> list_benchmarks(const fs::path& suite) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(suite, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file() && it->path().filename() == "benchmark.json")
      dirs.push_back(it->path().parent_path());
  std::sort(dirs.begin(), dirs.end());
  std::vector<Result<Benchmark>> found;
  for (const auto& dir : dirs) found.push_back(load_benchmark(dir));
  return found;
}

fs::path default_suite() {
  return kopt_home() / "benchmarks";
}

}  // namespace kopt
