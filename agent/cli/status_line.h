// One status line on stderr: overwritten in place on a terminal, printed as plain lines when
// stderr is a file or a pipe (like ninja's progress display).
#pragma once

#include <string>

namespace kopt::cli {

class StatusLine {
 public:
  StatusLine();
  ~StatusLine();
  /// Replaces the status text.
  void update(const std::string& text);
  /// Clears the line (terminal) so that normal output can follow.
  void clear();

 private:
  bool smart_;
  bool shown_ = false;
};

}  // namespace kopt::cli
