#include "tools/newbench/source_file.h"

#include <sstream>

#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

constexpr size_t kClangOutputCap = 256 << 20;

std::vector<std::string> clang_argv(const SourceFile& source) {
  std::vector<std::string> argv =
      dialect_of(source.path) == Dialect::c
          ? std::vector<std::string>{"clang", "-x", "c", "-std=gnu17"}
          : std::vector<std::string>{"clang++", "-x", "c++", "-std=gnu++20"};
  argv.insert(argv.end(), {"-fopenmp", "-Wno-everything"});
  for (auto& option : include_and_define_options(source)) argv.push_back(std::move(option));
  return argv;
}

// clang's first diagnostic that is an error, without the file's path.
std::string first_clang_error(const std::string& output) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);)
    if (line.find("error:") != std::string::npos) return trim(line);
  return trim(tail(output, 300));
}

}  // namespace

Dialect dialect_of(const fs::path& file) {
  return file.extension() == ".c" ? Dialect::c : Dialect::cxx;
}

Result<std::string> run_clang(ProcessRunner& runner, const SourceFile& source,
                              const std::vector<std::string>& action) {
  if (!fs::is_regular_file(source.path)) return fail("no such file: " + source.path.string());
  ProcessSpec spec;
  spec.argv = clang_argv(source);
  spec.argv.insert(spec.argv.end(), action.begin(), action.end());
  spec.argv.push_back(fs::absolute(source.path).string());
  spec.env = {{"PATH", "/usr/bin:/bin"}, {"LC_ALL", "C"}};
  spec.timeout = std::chrono::seconds(120);
  spec.output_cap = kClangOutputCap;
  ProcessResult ran = runner.run(spec);
  if (ran.spawn_failed || ran.exit_code == 127)
    return fail("clang not found: kopt new reads kernels with clang (apt-get install clang)");
  if (!ran.succeeded())
    return fail(source.path.string() + " does not compile: " + first_clang_error(ran.output));
  return std::move(ran.output);
}

Result<std::vector<fs::path>> local_headers(ProcessRunner& runner, const SourceFile& source) {
  auto rule = run_clang(runner, source, {"-MM"});
  if (!rule) return rule.error();
  std::istringstream words(
      rule->substr(rule->find(':') == std::string::npos ? 0 : rule->find(':') + 1));
  std::vector<fs::path> headers;
  const fs::path self = fs::absolute(source.path).lexically_normal();
  for (std::string word; words >> word;)
    if (word != "\\" && fs::path(word).lexically_normal() != self)
      headers.push_back(fs::path(word).lexically_normal());
  return headers;
}

Result<std::map<std::string, std::string>> defined_macros(ProcessRunner& runner,
                                                          const SourceFile& source) {
  auto listing = run_clang(runner, source, {"-E", "-dM"});
  if (!listing) return listing.error();
  std::map<std::string, std::string> macros;
  std::istringstream lines(*listing);
  for (std::string line; std::getline(lines, line);) {
    if (!starts_with(line, "#define ")) continue;
    const size_t name_end = line.find_first_of(" (", 8);
    if (name_end == std::string::npos) {
      macros[line.substr(8)] = "";
    } else if (line[name_end] == ' ') {
      macros[line.substr(8, name_end - 8)] = trim(line.substr(name_end + 1));
    }
  }
  return macros;
}

}  // namespace kopt
