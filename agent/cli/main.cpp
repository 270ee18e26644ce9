#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>

#include "agent/cli/command.h"
#include "agent/llm/secrets.h"
#include "util/files.h"

namespace {

// One line for an error of the filesystem that no command turned into its own message: the
// operating system's reason, then the paths involved.
std::string describe(const std::filesystem::filesystem_error& e) {
  std::string message = e.code().message();
  if (!e.path1().empty()) message += ": " + kopt::quoted_path(e.path1());
  if (!e.path2().empty()) message += " and " + kopt::quoted_path(e.path2());
  return message;
}

void report(const std::string& message) {
  std::fprintf(stderr, "kopt: %s\n", kopt::llm::redact_secrets(message).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return kopt::cli::run_cli(argc, argv);
  } catch (const std::filesystem::filesystem_error& e) {
    report(describe(e));
    return 1;
  } catch (const std::exception& e) {
    report(e.what());
    return 1;
  }
}
