#include "tools/source/source_file.h"

namespace kopt {

namespace fs = std::filesystem;

std::vector<std::string> include_and_define_options(const SourceFile& source) {
  std::vector<std::string> options = {"-I" + fs::absolute(source.path).parent_path().string()};
  for (const auto& dir : source.include_dirs) options.push_back("-I" + fs::absolute(dir).string());
  for (const auto& define : source.defines) options.push_back("-D" + define);
  return options;
}

}  // namespace kopt
