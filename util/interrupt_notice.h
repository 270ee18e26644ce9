// A line printed when the user stops kopt with Ctrl-C (or a SIGTERM), before the signal ends
// the process as it would have: how to go on from there.
#pragma once

#include <string>

namespace kopt {

/// While alive, SIGINT and SIGTERM print `line` to stderr and then end the process by the same
/// signal. One at a time; the previous handlers come back on destruction.
class InterruptNotice {
 public:
  explicit InterruptNotice(const std::string& line);
  ~InterruptNotice();
  InterruptNotice(const InterruptNotice&) = delete;
  InterruptNotice& operator=(const InterruptNotice&) = delete;
};

}  // namespace kopt
