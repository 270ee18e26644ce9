#include "agent/cli/commands.h"

namespace kopt::cli {

std::vector<CommandSpec> all_commands() {
  return {list_command(), eval_command(), bench_command(), llm_ping_command(), llm_chat_command(),
          knowledge_command()};
}

}  // namespace kopt::cli
