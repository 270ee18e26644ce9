// What `kopt run --verbose` shows while a model writes: its answer as it streams, whole lines
// above the status line, each answer under a line naming its role; and on the status line how
// much of the answer has come and how fast.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "agent/cli/status_line.h"

namespace kopt::cli {

class ModelTextPrinter {
 public:
  explicit ModelTextPrinter(StatusLine& status) : status_(status) {}
  ~ModelTextPrinter();
  ModelTextPrinter(const ModelTextPrinter&) = delete;
  ModelTextPrinter& operator=(const ModelTextPrinter&) = delete;

  /// An empty `delta` starts an answer of `role`, or ends the answer when `role` is empty too;
  /// anything else continues it.
  void operator()(const std::string& role, std::string_view delta);

 private:
  void print_whole_lines();
  void finish_answer();

  StatusLine& status_;
  std::string pending_;  // Text after the last newline, not printed yet.
  size_t chars_ = 0;     // Of the current answer.
  std::string role_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace kopt::cli
