#include <cstdio>
#include <exception>
#include <string>

#include "agent/cli/command.h"
#include "agent/llm/secrets.h"

int main(int argc, char** argv) {
  try {
    return kopt::cli::run_cli(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kopt: %s\n", kopt::llm::redact_secrets(std::string(e.what())).c_str());
    return 1;
  }
}
