#include "tools/import/polybench_tree.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tools/newbench/kernel_ast.h"
#include "tools/newbench/param_types.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

PolybenchKernel kernel_at(const fs::path& source) {
  PolybenchKernel kernel;
  kernel.name = source.stem().string();
  kernel.source = source;
  kernel.function = "kernel_" + kernel.name;
  std::replace(kernel.function.begin(), kernel.function.end(), '-', '_');
  return kernel;
}

// utilities/benchmark_list: one ./path/NAME/NAME.c a line.
std::vector<PolybenchKernel> listed_kernels(const fs::path& root, const std::string& list) {
  std::vector<PolybenchKernel> kernels;
  std::istringstream lines(list);
  for (std::string line; std::getline(lines, line);)
    if (!trim(line).empty()) kernels.push_back(kernel_at((root / trim(line)).lexically_normal()));
  return kernels;
}

std::vector<PolybenchKernel> scanned_kernels(const fs::path& root) {
  std::vector<PolybenchKernel> kernels;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path dir = it->path();
    const std::string name = dir.filename().string();
    if (it->is_directory() && fs::is_regular_file(dir / (name + ".c")) &&
        fs::is_regular_file(dir / (name + ".h")))
      kernels.push_back(kernel_at(dir / (name + ".c")));
  }
  std::sort(kernels.begin(), kernels.end(),
            [](const auto& a, const auto& b) { return a.source < b.source; });
  return kernels;
}

std::string capitals(std::string name) {
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

}  // namespace

Result<std::vector<PolybenchKernel>> find_polybench_kernels(const fs::path& root) {
  if (!fs::is_directory(root)) return fail("no such folder: " + root.string());
  if (!fs::is_regular_file(root / "utilities" / "polybench.h"))
    return fail(root.string() + " is not a PolyBench/C tree (it has no utilities/polybench.h)");
  auto list = read_file(root / "utilities" / "benchmark_list");
  auto kernels = list ? listed_kernels(root, *list) : scanned_kernels(root);
  if (kernels.empty()) return fail(root.string() + " holds no PolyBench kernel (NAME/NAME.c)");
  return kernels;
}

SourceFile polybench_source(const fs::path& root, const PolybenchKernel& kernel,
                            const std::string& dataset) {
  SourceFile source;
  source.path = kernel.source;
  source.include_dirs = {root / "utilities"};
  source.defines = {"POLYBENCH_USE_C99_PROTO", dataset + "_DATASET"};
  return source;
}

Result<std::map<std::string, long>> dataset_values(ProcessRunner& runner, const SourceFile& source,
                                                   const std::string& function) {
  auto ast = read_function_ast(runner, source, function);
  if (!ast) return ast.error();
  auto macros = defined_macros(runner, source);
  if (!macros) return macros.error();
  std::map<std::string, long> values;
  for (const auto& param : children(ast->decl)) {
    if (kind_of(param) != "ParmVarDecl") continue;
    const std::string name = param.value("name", "");
    const ParamType type =
        parse_param_type(param.value("type", Json::object()).value("qualType", ""));
    if (type.pointer || !is_integer_type(type.element)) continue;
    auto macro = macros->find(capitals(name));
    if (macro == macros->end()) continue;
    char* end = nullptr;
    const long value = std::strtol(macro->second.c_str(), &end, 10);
    if (!macro->second.empty() && *end == '\0' && value >= 0) values[name] = value;
  }
  return values;
}

}  // namespace kopt
