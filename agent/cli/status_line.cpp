#include "agent/cli/status_line.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kopt::cli {

StatusLine::StatusLine() {
  const char* term = std::getenv("TERM");
  smart_ = isatty(STDERR_FILENO) && term && std::strcmp(term, "dumb") != 0;
}

StatusLine::~StatusLine() {
  clear();
}

void StatusLine::update(const std::string& text) {
  if (smart_) {
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
  } else {
    std::fprintf(stderr, "%s\n", text.c_str());
  }
  std::fflush(stderr);
  shown_ = true;
}

void StatusLine::clear() {
  if (smart_ && shown_) std::fprintf(stderr, "\r\033[K");
  shown_ = false;
}

}  // namespace kopt::cli
