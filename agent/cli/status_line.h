// One status line on stderr: overwritten in place on a terminal, printed as plain lines when
// stderr is a file or a pipe (like ninja's progress display). On a terminal the line also shows
// how long its current text has stood, refreshed every second, so a slow step (a model writing
// for minutes) still shows signs of life.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace kopt::cli {

class StatusLine {
 public:
  StatusLine();
  ~StatusLine();
  StatusLine(const StatusLine&) = delete;
  StatusLine& operator=(const StatusLine&) = delete;
  /// Replaces the status text (and drops its detail).
  void update(const std::string& text);
  /// Shows `detail` after the text until the next update ("analyst writing · 412 tokens");
  /// on a terminal only, where it replaces itself instead of adding a line.
  void detail(const std::string& detail);
  /// Prints `line` as normal output above the status line, which stays below it.
  void print_above(const std::string& line);
  /// Clears the line (terminal) so that normal output can follow.
  void clear();

 private:
  void draw();  // With the lock held.
  void tick();

  bool smart_;
  bool shown_ = false;
  bool stopping_ = false;
  std::string text_;
  std::string detail_;
  std::chrono::steady_clock::time_point since_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread ticker_;
};

}  // namespace kopt::cli
