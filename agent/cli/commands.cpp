#include "agent/cli/commands.h"

namespace kopt::cli {

std::vector<CommandSpec> all_commands() {
  return {list_command()};
}

}  // namespace kopt::cli
