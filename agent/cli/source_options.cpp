#include "agent/cli/source_options.h"

#include <cmath>
#include <cstdlib>

#include "util/strings.h"

namespace kopt::cli {

bool names_source_file(const std::filesystem::path& named) {
  for (const char* ext : {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c"})
    if (named.extension() == ext) {
      if (!std::filesystem::is_regular_file(named))
        throw UsageError{"no such file: " + named.string()};
      return true;
    }
  return false;
}

SourceFile source_file(const Args& args, const std::string& positional) {
  SourceFile source;
  source.path = args.get(positional);
  for (const auto& dir : args.list("I")) source.include_dirs.emplace_back(dir);
  source.defines = args.list("D");
  for (const auto& f : split(args.get("flags"), ' '))
    if (!trim(f).empty()) source.flags.push_back(trim(f));
  return source;
}

// "4,256", "64x32,16x16" or "8x8x2,4x4x4": GRID,BLOCK with x, y, z extents.
LaunchConfig parse_launch(const std::string& text) {
  const auto parts = split(text, ',');
  if (parts.size() != 2)
    throw UsageError{"--launch takes GRID,BLOCK (e.g. 1024,256 or 64x32,16x16)"};
  LaunchConfig launch;
  for (int which = 0; which < 2; ++which) {
    const auto dims = split(parts[which], 'x');
    if (dims.empty() || dims.size() > 3)
      throw UsageError{"--launch: bad extent '" + parts[which] + "'"};
    for (size_t a = 0; a < dims.size(); ++a) {
      char* end = nullptr;
      const long v = std::strtol(dims[a].c_str(), &end, 10);
      if (dims[a].empty() || *end || v < 1 || v > (1L << 31))
        throw UsageError{"--launch: bad extent '" + dims[a] + "'"};
      (which == 0 ? launch.grid : launch.block)[a] = static_cast<double>(v);
    }
  }
  return launch;
}

// "1000,_,0.5": the kernel's scalar arguments by position, "_" (or nothing) where unknown.
std::vector<std::optional<double>> parse_kernel_args(const std::string& text) {
  std::vector<std::optional<double>> values;
  if (text.empty()) return values;
  for (const auto& item : split(text, ',')) {
    const std::string t = trim(item);
    if (t.empty() || t == "_") {
      values.push_back(std::nullopt);
      continue;
    }
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (*end || !std::isfinite(v)) throw UsageError{"--args: '" + t + "' is not a number (or _)"};
    values.push_back(v);
  }
  return values;
}

std::vector<OptionSpec> source_file_options() {
  return {
      {"--kernel", "FILE: only kernels of this name (plain, with template arguments, or mangled)"},
      {"-I", "FILE: an include folder (the file's own folder always comes first)", "", false, false,
       "", true},
      {"-D", "FILE: a macro, NAME or NAME=VALUE", "", false, false, "", true},
      {"--flags",
       "FILE: extra compiler flags, one string (--flags=\"-std=c++17 --expt-relaxed-constexpr\")"},
      {"--args", "FILE: the kernel's scalar arguments by position, _ where unknown (1000,_,0.5)"}};
}

}  // namespace kopt::cli
