#include <cstdio>
#include <exception>

#include "agent/cli/command.h"

int main(int argc, char** argv) {
  try {
    return kopt::cli::run_cli(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kopt: %s\n", e.what());
    return 1;
  }
}
