#include "tools/profile/profile_builder.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "util/strings.h"

namespace kopt {

namespace {

std::vector<std::string> source_lines(const std::string& source) {
  std::vector<std::string> lines;
  std::istringstream in(source);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace

std::string file_name_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string place_of_object(const std::string& object, bool is_benchmark_binary) {
  if (is_benchmark_binary) return where::kHarness;
  const std::string name = file_name_of(object);
  if (starts_with(name, "libgomp") || starts_with(name, "libomp")) return where::kOpenMp;
  if (starts_with(name, "libm.") || starts_with(name, "libm-") || starts_with(name, "libmvec"))
    return where::kLibm;
  if (starts_with(name, "libc.") || starts_with(name, "ld-linux") || starts_with(name, "libstdc++"))
    return where::kLibc;
  return where::kOther;
}

void ProfileBuilder::add_self(int line, uint64_t count) {
  lines_[line].line = line;
  lines_[line].self += count;
}

void ProfileBuilder::add_callee(int line, const std::string& callee, uint64_t count) {
  LineCount& entry = lines_[line];
  entry.line = line;
  entry.callees += count;
  entry.callee_names[callee] += count;
}

void ProfileBuilder::add_place(const std::string& place, uint64_t count) {
  places_[place] += count;
}

void ProfileBuilder::add_function(const std::string& name, const std::string& object,
                                  uint64_t count) {
  functions_[{name, object}] += count;
}

void ProfileBuilder::finish(const std::string& kernel_source, CpuProfile& profile) const {
  const auto text = source_lines(kernel_source);
  profile.total = 0;
  for (const auto& [place, count] : places_) profile.total += count;
  profile.by_place = places_;
  profile.lines.clear();
  for (auto [number, entry] : lines_) {
    if (number >= 1 && static_cast<size_t>(number) <= text.size())
      entry.code = trim(text[number - 1]);
    profile.lines.push_back(std::move(entry));
  }
  std::stable_sort(profile.lines.begin(), profile.lines.end(),
                   [](const LineCount& a, const LineCount& b) { return a.total() > b.total(); });
  profile.functions.clear();
  for (const auto& [key, count] : functions_)
    profile.functions.push_back({key.first, key.second, count});
  std::stable_sort(profile.functions.begin(), profile.functions.end(),
                   [](const FunctionCount& a, const FunctionCount& b) { return a.self > b.self; });
}

}  // namespace kopt
