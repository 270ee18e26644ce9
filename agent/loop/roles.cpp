#include "agent/loop/roles.h"

#include <fmt/format.h>

#include "agent/loop/loop_tools.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace {

PromptValues common_values(const Benchmark& bench, const LoopState& state, const std::vector<std::string>& tools) {
  auto header = read_file(bench.header_path());
  return {{"benchmark", bench.name},
          {"language", to_string(bench.language)},
          {"summary", bench.summary},
          {"size_meaning", bench.size_meaning},
          {"time_size", std::to_string(bench.time_size)},
          {"header", header ? trim(*header) : "(kernel.h unreadable)"},
          {"functions", join(bench.functions, ", ")},
          {"flags", join(bench.flags, " ")},
          {"kernel_file", bench.kernel_file()},
          {"best_label", state.best_id},
          {"best_source", numbered(state.best_source)},
          {"history", history_text(state)},
          {"tools", tools.empty() ? "none" : join(tools, ", ")}};
}

std::string or_none(const std::string& text) { return trim(text).empty() ? "(none)" : tail(text, 4000); }

Turn render_failure(const Error& error) {
  Turn turn;
  turn.stop = Error{"cannot render a prompt: " + error.message};
  return turn;
}

}  // namespace

std::string numbered(const std::string& source) {
  std::string out;
  int line = 0;
  for (const auto& text : split(source, '\n')) out += fmt::format("{:4d}| {}\n", ++line, text);
  return out;
}

Turn run_analyst(LoopServices& s, const Benchmark& bench, const LoopState& state, int iteration) {
  const std::vector<std::string> tools = analyst_tools(*s.registry);
  PromptValues values = common_values(bench, state, tools);
  values["measurements"] = measurements_text(state);
  values["remarks"] = or_none(state.best.remarks);
  values["profile"] = state.profile;
  values["roofline"] = state.roofline;
  auto system = s.prompts->render("analyst.system", values);
  auto user = s.prompts->render("analyst.user", values);
  if (!system) return render_failure(system.error());
  if (!user) return render_failure(user.error());
  Conversation conversation(s, "analyst", iteration, tools, s.config->analyst_tool_rounds);
  return conversation.run(*system, *user);
}

Turn run_optimizer(LoopServices& s, const Benchmark& bench, const LoopState& state, int iteration,
                   const std::string& plan) {
  const std::vector<std::string> tools = optimizer_tools(*s.registry);
  PromptValues values = common_values(bench, state, tools);
  values["plan"] = trim(plan).empty() ? "(the analyst gave no plan: find the biggest inefficiency yourself)" : plan;
  auto system = s.prompts->render("optimizer.system", values);
  auto user = s.prompts->render("optimizer.user", values);
  auto reminder = s.prompts->render("optimizer.no_code", values);
  if (!system) return render_failure(system.error());
  if (!user) return render_failure(user.error());
  if (!reminder) return render_failure(reminder.error());
  Conversation conversation(s, "optimizer", iteration, tools, s.config->optimizer_tool_rounds);
  Turn turn = conversation.run(*system, *user);
  for (int retry = 0; retry < s.config->no_code_retries && !turn.stop; ++retry) {
    if (turn.submitted) break;
    if (auto code = code_in_text(turn.text)) {
      turn.submitted = code;
      break;
    }
    const int calls = turn.tool_calls;
    turn = conversation.follow_up(*reminder);
    turn.tool_calls += calls;
  }
  if (!turn.submitted && !turn.stop)
    if (auto code = code_in_text(turn.text)) turn.submitted = code;
  return turn;
}

}  // namespace kopt
