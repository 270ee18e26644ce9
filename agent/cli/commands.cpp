#include "agent/cli/commands.h"

namespace kopt::cli {

std::vector<CommandSpec> all_commands() {
  return {list_command(), eval_command(), bench_command()};
}

}  // namespace kopt::cli
