// The factories of every command; all_commands() in commands.cpp lists them in order.
#pragma once

#include "agent/cli/command.h"

namespace kopt::cli {

CommandSpec list_command();
CommandSpec new_command();
CommandSpec import_polybench_command();
CommandSpec eval_command();
CommandSpec bench_command();
CommandSpec run_command();
CommandSpec resume_command();
CommandSpec runs_command();
CommandSpec show_command();
CommandSpec diff_command();
CommandSpec export_command();
CommandSpec replay_command();
CommandSpec campaign_command();
CommandSpec compare_command();
CommandSpec report_command();
CommandSpec llm_ping_command();
CommandSpec llm_chat_command();
CommandSpec knowledge_command();
CommandSpec machine_command();
CommandSpec profile_command();
CommandSpec roofline_command();
CommandSpec predict_command();

}  // namespace kopt::cli
