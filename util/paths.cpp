#include "util/paths.h"

#include <cstdlib>

namespace kopt {

std::filesystem::path kopt_home() {
  if (const char* home = std::getenv("KOPT_HOME"); home && *home) return home;
  return KOPT_SOURCE_ROOT;
}

}  // namespace kopt
