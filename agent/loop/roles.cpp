#include "agent/loop/roles.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "agent/loop/edits.h"
#include "agent/loop/loop_tools.h"
#include "agent/loop/remarks.h"
#include "tools/eval/drawn_sizes.h"
#include "tools/knowledge/knowledge_base.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace {

// What "correct" means for this benchmark, as the check applies it.
std::string correctness_text(const Benchmark& bench, bool drawn_sizes) {
  std::vector<std::string> sizes;
  for (long n : bench.check_sizes) sizes.push_back(std::to_string(n));
  if (std::find(bench.check_sizes.begin(), bench.check_sizes.end(), bench.time_size) ==
      bench.check_sizes.end())
    sizes.push_back(std::to_string(bench.time_size));
  std::string text = fmt::format(
      "Correct means every output element within |got - want| <= {:.3g} + {:.3g} |want| of the "
      "original's (integers exactly; NaN never), at n = {}, on {} fresh random inputs per size",
      bench.atol, bench.rtol, join(sizes, ", "), bench.seeds);
  if (drawn_sizes && bench.draw_sizes && !bench.check_sizes.empty())
    text += fmt::format(
        ", at {} more sizes from 2 to {} drawn anew at each evaluation (one of each remainder "
        "modulo 8), at {} more drawn between that and the time size (likewise) and one above "
        "the time size, all calls at a size one after another in one process (one of them a "
        "second call on refilled buffers){}",
        kDrawnSizes, *std::max_element(bench.check_sizes.begin(), bench.check_sizes.end()),
        kDrawnSizes,
        bench.language == Language::openmp
            ? ", and again with 1 OpenMP thread and with more threads than the machine has"
            : "");
  if (!bench.edge_cases.empty()) text += ", on these edge cases: " + join(bench.edge_cases, "; ");
  text += ", and on every timed call.";
  if (!bench.domain.empty()) text += " Inputs kernel.h allows: " + bench.domain + ".";
  if (drawn_sizes) text += " Every size is at least 1 (no call has an empty input).";
  return text;
}

// How much of the run is left: iterations, and the budget where one is set.
std::string remaining_text(const LoopServices& s, int iteration) {
  const int total = s.config ? s.config->iterations : iteration;
  std::string text = fmt::format("This is iteration {} of at most {}.", iteration, total);
  if (s.budget && s.ledger) {
    const llm::BudgetLimits& limits = s.budget->limits();
    if (auto left = s.budget->tokens_left(*s.ledger))
      text += fmt::format(" {} of the run's {} tokens are left.", *left, limits.max_tokens);
    if (limits.max_cost_usd > 0)
      text += fmt::format(" ${:.2f} of the run's ${:.2f} are spent.", s.ledger->cost_usd(),
                          limits.max_cost_usd);
  }
  return text;
}

// "cpp", "openmp", "cuda"; a C kernel file says so, since the model writes the whole file.
std::string language_text(const Benchmark& bench) {
  const std::string language = to_string(bench.language);
  return bench.dialect == Dialect::c ? language + ", kernel file in C (compiled as C)" : language;
}

// What "correct" means for a whole program, and how its files are handed in.
std::string program_correctness_text(const Benchmark& bench) {
  const ProgramSpec& p = bench.program;
  std::string text = "Correct means the program builds with `" + p.build + "`, its run `" + p.run +
                     "` exits with status 0";
  if (!p.check.pass_regex.empty())
    text += ", a line of its output matches the PASS regex `" + p.check.pass_regex + "`";
  if (!p.check.compare.empty())
    text += ", and the compare command `" + p.check.compare +
            "` accepts its output against the original's";
  text += "; every timed run is checked again. The time is the wall time of whole runs. ";
  return text + "The editable files are " + join(p.editable, ", ") +
         "; everything else is fixed. Hand them in as one text: each file after a line `" +
         kBundleMarker + "NAME`; a file you leave out stays as it is.";
}

// The fixed text files of a program (not its manifest, not its editable files), as a bundle:
// what "kernel.h" is for a function.
std::string fixed_program_files(const Benchmark& bench) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& entry : std::filesystem::directory_iterator(bench.dir)) {
    const std::string name = entry.path().filename().string();
    const auto& editable = bench.program.editable;
    if (!entry.is_regular_file() || name == "benchmark.json" ||
        std::find(editable.begin(), editable.end(), name) != editable.end())
      continue;
    if (auto text = read_file(entry.path(), 16 * 1024)) files.emplace_back(name, *text);
  }
  std::sort(files.begin(), files.end());
  return "// The program's fixed files (not editable):\n" + make_bundle(files);
}

PromptValues program_values(const Benchmark& bench, const LoopState& state,
                            const std::vector<std::string>& tools) {
  return {{"benchmark", bench.name},
          {"language", "a whole program, " + to_string(bench.language)},
          {"summary", bench.summary},
          {"size_meaning", "one run of `" + bench.program.run + "`"},
          {"time_size", "the program's own size"},
          {"correctness", program_correctness_text(bench)},
          {"header", fixed_program_files(bench)},
          {"functions", "the functions main.cpp and the fixed files call"},
          {"flags", "the program's build command: " + bench.program.build},
          {"kernel_file", "editable files (" + join(bench.program.editable, ", ") + ")"},
          {"best_label", state.best_id},
          {"best_source", numbered(state.best_source)},
          {"history", history_text(state)},
          {"tools", tools.empty() ? "none" : join(tools, ", ")}};
}

PromptValues common_values(const Benchmark& bench, const LoopState& state,
                           const std::vector<std::string>& tools, const RunConfig& config) {
  if (bench.is_program()) return program_values(bench, state, tools);
  auto header = read_file(bench.header_path());
  return {{"benchmark", bench.name},
          {"language", language_text(bench)},
          {"summary", bench.summary},
          {"size_meaning", bench.size_meaning},
          {"time_size", std::to_string(bench.time_size)},
          {"correctness", correctness_text(bench, config.drawn_sizes)},
          {"header", header ? trim(*header) : "(kernel.h unreadable)"},
          {"functions", join(bench.functions, ", ")},
          {"flags", join(bench.flags, " ")},
          {"kernel_file", bench.kernel_file()},
          {"best_label", state.best_id},
          {"best_source", numbered(state.best_source)},
          {"history", history_text(state)},
          {"tools", tools.empty() ? "none" : join(tools, ", ")}};
}

// The host line after the correctness line; nothing in records made before runs kept it.
std::string host_value(const LoopServices& s) {
  return s.host.empty() ? "" : "\n" + s.host;
}

std::string or_none(const std::string& text) {
  return trim(text).empty() ? "(none)" : tail(text, 4000);
}

Turn render_failure(const Error& error) {
  Turn turn;
  turn.stop = Error{"cannot render a prompt: " + error.message};
  turn.stop_rule = "error";
  return turn;
}

// The note's title and prose, without its code examples: small models copy an example's
// names and functions into a kernel that has neither.
std::string note_text(const Hit& hit) {
  static const std::regex code(R"(```[^\n]*\n[\s\S]*?```\n?)");
  return "### " + hit.title + "\n" + trim(std::regex_replace(hit.body, code, ""));
}

}  // namespace

Techniques techniques_for(const Benchmark& bench, const LoopState& state, int iteration) {
  static const Result<KnowledgeBase> base = KnowledgeBase::load(default_knowledge_dir());
  if (!base) return {"(the knowledge base could not be read: " + base.error().message + ")", ""};
  const std::string target = bench.language == Language::cuda ? "cuda" : "cpu";
  const std::vector<Hit> hits =
      base->search(bench.summary + "\n" + state.best_source, kGuidedTechniques, target);
  if (hits.empty()) return {"(no technique of the knowledge base matches this kernel)", ""};
  // A technique is done once an iteration applied it correctly (a win or not); until then it is
  // asked for again: a small model that got it wrong once often gets it right the next time.
  size_t applied = 0;
  for (int earlier = 1; earlier < iteration; ++earlier)
    applied += std::any_of(state.attempts.begin(), state.attempts.end(), [&](const Attempt& a) {
      return a.iteration == earlier && a.verdict.correct();
    });
  const size_t given = applied % hits.size();
  std::vector<std::string> others;
  for (size_t i = 0; i < hits.size(); ++i)
    if (i != given) others.push_back(hits[i].title);
  return {note_text(hits[given]), others.empty() ? "(none)" : join(others, "; ")};
}

std::string numbered(const std::string& source) {
  std::string out;
  int line = 0;
  for (const auto& text : split(source, '\n')) out += fmt::format("{:4d}| {}\n", ++line, text);
  return out;
}

Turn run_analyst(LoopServices& s, const Benchmark& bench, const LoopState& state, int iteration) {
  const std::vector<std::string> tools = analyst_tools(*s.registry, *s.config);
  PromptValues values = common_values(bench, state, tools, *s.config);
  values["host"] = host_value(s);
  values["remaining"] = remaining_text(s, iteration);
  values["measurements"] = measurements_text(state);
  values["optimizer_results"] =
      state.optimizer_results.empty() ? "(none)" : join(state.optimizer_results, "\n");
  // While the original is the best, its own remarks, from the run's first evaluation.
  const std::string& remarks =
      state.best_id == "original" ? state.reference.original_remarks : state.best.remarks;
  values["remarks"] = or_none(s.config->remarks == "ranked"
                                  ? ranked_remarks(remarks, state.hot_lines, kRemarksBudget)
                                  : remarks);
  values["profile"] = state.profile;
  values["roofline"] = state.roofline;
  auto system = s.prompts->render("analyst.system", values);
  auto user = s.prompts->render("analyst.user", values);
  if (!system) return render_failure(system.error());
  if (!user) return render_failure(user.error());
  Conversation conversation(s, "analyst", iteration, tools, s.config->analyst_tool_rounds);
  return conversation.run(*system, *user);
}

OptimizerSession::OptimizerSession(LoopServices& s, const Benchmark& bench, const LoopState& state,
                                   int iteration, const std::string& plan)
    : s_(s),
      tools_(s.config->strategy == "marco" ? optimizer_tools(*s.registry)
                                           : std::vector<std::string>{}),
      values_(common_values(bench, state, tools_, *s.config)),
      conversation_(s, "optimizer", iteration, tools_, s.config->optimizer_tool_rounds),
      current_source_(state.best_source),
      repairs_left_(s.config->repair_attempts) {
  // Edits are copied from the listing: show the file as it is, without line numbers.
  if (s.config->edit_format == "edits") values_["best_source"] = state.best_source;
  values_["host"] = host_value(s);
  values_["remaining"] = remaining_text(s, iteration);
  values_["plan"] = trim(plan).empty()
                        ? "(the analyst gave no plan: find the biggest inefficiency yourself)"
                        : plan;
  if (s.config->strategy == "guided") {
    const Techniques techniques = techniques_for(bench, state, iteration);
    values_["technique"] = techniques.given;
    values_["other_techniques"] = techniques.others;
  }
}

Turn OptimizerSession::first() {
  // Without tools there is no submit: a whole file comes as a fenced block.
  const std::string format_name =
      s_.config->edit_format == "file" && tools_.empty() ? "block" : s_.config->edit_format;
  auto format = s_.prompts->render("optimizer.format." + format_name, values_);
  if (!format) return render_failure(format.error());
  values_["answer_format"] = *format;
  const std::string prompt = s_.config->strategy == "marco" ? "optimizer" : s_.config->strategy;
  auto system = s_.prompts->render(prompt + ".system", values_);
  auto user = s_.prompts->render(prompt + ".user", values_);
  if (!system) return render_failure(system.error());
  if (!user) return render_failure(user.error());
  return until_code(conversation_.run(*system, *user));
}

Turn OptimizerSession::repair(const std::string& feedback) {
  --repairs_left_;
  PromptValues values = values_;
  values["feedback"] = feedback;
  auto message = s_.prompts->render("optimizer.repair", values);
  if (!message) return render_failure(message.error());
  return until_code(conversation_.follow_up(*message));
}

std::optional<std::string> OptimizerSession::file_in(const Turn& turn, std::string& problem) const {
  const std::string& text = turn.submitted ? *turn.submitted : turn.text;
  if (has_edit_blocks(text)) {
    auto edited = apply_edit_blocks(current_source_, text);
    if (edited) return *edited;
    problem = edited.error().message;
    return std::nullopt;
  }
  if (turn.submitted) return turn.submitted;
  return code_in_text(turn.text);
}

Turn OptimizerSession::until_code(Turn turn) {
  auto reminder = s_.prompts->render("optimizer.no_code", values_);
  if (!reminder) return render_failure(reminder.error());
  for (int retry = 0; !turn.stop; ++retry) {
    std::string problem;
    turn.submitted = file_in(turn, problem);
    if (turn.submitted || retry >= s_.config->no_code_retries) break;
    PromptValues values = values_;
    values["problem"] = problem;
    auto again = problem.empty() ? reminder : s_.prompts->render("optimizer.edit_failed", values);
    if (!again) return render_failure(again.error());
    const int calls = turn.tool_calls;
    turn = conversation_.follow_up(*again);
    turn.tool_calls += calls;
  }
  if (turn.submitted) current_source_ = *turn.submitted;
  return turn;
}

}  // namespace kopt
