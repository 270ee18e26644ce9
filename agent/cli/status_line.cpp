#include "agent/cli/status_line.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace kopt::cli {

namespace {

// "7s", "4m05s", "1h02m": how long the current text has stood.
std::string elapsed_text(std::chrono::steady_clock::duration elapsed) {
  const long s =
      static_cast<long>(std::chrono::duration_cast<std::chrono::seconds>(elapsed).count());
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, s / 60 % 60);
}

// The terminal's width; a longer line would wrap, and "\r" would no longer reach its start.
size_t columns() {
  struct winsize size {};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1) return size.ws_col - 1;
  return 79;
}

}  // namespace

StatusLine::StatusLine() {
  const char* term = std::getenv("TERM");
  smart_ = isatty(STDERR_FILENO) && term && std::strcmp(term, "dumb") != 0;
  if (smart_) ticker_ = std::thread([this] { tick(); });
}

StatusLine::~StatusLine() {
  clear();
  if (ticker_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    ticker_.join();
  }
}

void StatusLine::update(const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  text_ = text;
  detail_.clear();
  since_ = std::chrono::steady_clock::now();
  if (smart_) {
    draw();
  } else {
    std::fprintf(stderr, "%s\n", text.c_str());
    std::fflush(stderr);
  }
  shown_ = true;
}

void StatusLine::detail(const std::string& detail) {
  std::lock_guard<std::mutex> lock(mutex_);
  detail_ = detail;
  if (smart_ && shown_) draw();
}

void StatusLine::print_above(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::fprintf(stderr, smart_ && shown_ ? "\r\033[K%s\n" : "%s\n", line.c_str());
  if (smart_ && shown_) draw();
  std::fflush(stderr);
}

void StatusLine::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (smart_ && shown_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
  shown_ = false;
}

void StatusLine::draw() {
  const auto elapsed = std::chrono::steady_clock::now() - since_;
  std::string line = text_;
  if (!detail_.empty()) line += " · " + detail_;
  if (elapsed >= std::chrono::seconds(1)) line += " · " + elapsed_text(elapsed);
  const size_t width = columns();
  // Cut at a character boundary: the line holds multi-byte characters ("·").
  size_t cut = 0, shown = 0;
  while (cut < line.size() && shown < width) {
    ++cut;
    while (cut < line.size() && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) ++cut;
    ++shown;
  }
  std::fprintf(stderr, "\r\033[K%s", line.substr(0, cut).c_str());
  std::fflush(stderr);
}

void StatusLine::tick() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; }))
    if (shown_) draw();
}

}  // namespace kopt::cli
