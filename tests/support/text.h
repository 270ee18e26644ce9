// Small helpers the tests share for what a command prints: its lines, its words, and a shell
// command's exit status and output.
#pragma once

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>

namespace kopt::test {

inline int count_lines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

inline size_t word_count(const std::string& text) {
  std::istringstream in(text);
  size_t words = 0;
  for (std::string word; in >> word;) ++words;
  return words;
}

struct ShellResult {
  int status = -1;     // the exit status; -1 when the command did not exit normally
  std::string output;  // stdout and stderr together
};

// Runs `command` through /bin/sh with its stderr joined to its stdout.
inline ShellResult shell(const std::string& command) {
  ShellResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  while (size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe))
    result.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace kopt::test
