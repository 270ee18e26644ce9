#include "agent/cli/commands.h"

namespace kopt::cli {

std::vector<CommandSpec> all_commands() {
  return {list_command(),     new_command(),       import_polybench_command(), eval_command(),
          bench_command(),    run_command(),       resume_command(),           runs_command(),
          show_command(),     diff_command(),      export_command(),           replay_command(),
          campaign_command(), compare_command(),   report_command(),           llm_ping_command(),
          llm_chat_command(), knowledge_command(), machine_command(),          profile_command(),
          roofline_command(), predict_command()};
}

}  // namespace kopt::cli
