#include "agent/loop/conversation.h"

#include <fmt/format.h>

#include "agent/llm/accounting.h"
#include "agent/llm/chat_json.h"
#include "agent/llm/text_tools.h"
#include "agent/loop/edits.h"
#include "agent/loop/loop_tools.h"
#include "util/strings.h"

namespace kopt {

namespace {

constexpr int kMaxInvalidCalls = 3;
// The tool calls of one answer that are run; the rest are answered without running them (each
// may be a build and a timing: one answer of thousands of calls took hours).
constexpr int kMaxCallsPerAnswer = 16;
constexpr size_t kToolTextCap = 12000;

}  // namespace

std::optional<std::string> code_in_text(const std::string& text) {
  auto code = llm::extract_code(text);
  if (!code || trim(*code).empty()) return std::nullopt;
  return without_listing_numbers(*code);
}

Conversation::Conversation(LoopServices& services, std::string role, int iteration,
                           std::vector<std::string> tools, int max_rounds)
    : s_(services),
      role_(std::move(role)),
      iteration_(iteration),
      tools_(std::move(tools)),
      max_rounds_(max_rounds) {
  request_.temperature = s_.config->temperature;
  request_.max_tokens = s_.config->max_tokens;
  for (const auto& name : tools_) {
    Tool* tool = s_.registry->find(name);
    request_.tools.push_back({tool->name(), tool->description(), dump_json(tool->schema())});
  }
}

Turn Conversation::run(const std::string& system, const std::string& user) {
  request_.system = system;
  request_.messages = {llm::user_message(user)};
  return exchange();
}

Turn Conversation::follow_up(const std::string& user) {
  request_.messages.push_back(llm::user_message(user));
  request_.tool_choice = "auto";
  return exchange();
}

std::optional<Error> Conversation::call_model(llm::ChatResponse& response, std::string& rule) {
  if (auto within = s_.budget->check(*s_.ledger); !within) {
    rule = "budget";
    return within.error();
  }
  request_.seed = static_cast<int64_t>(s_.config->seed) + s_.model_calls;
  const int64_t seq = ++s_.model_calls;
  s_.progress(role_);
  auto answer = s_.effects->chat(role_, request_);
  rule = "error";
  if (!answer) {
    Json event = {{"type", "model_error"},
                  {"seq", seq},
                  {"role", role_},
                  {"iteration", iteration_},
                  {"request_hash", llm::request_hash(request_)},
                  {"error", answer.error().message},
                  {"permanent", answer.error().permanent}};
    if (auto st = s_.events->emit(event); !st) return st.error();
    rule = answer.error().permanent ? "failed" : "interrupted";
    return answer.error();
  }
  response = std::move(*answer);
  Json event = llm::model_call_event(seq, role_, request_, response);
  event["iteration"] = iteration_;
  if (auto st = s_.events->emit(event); !st) return st.error();
  s_.ledger->record(role_, response, &request_);
  return std::nullopt;
}

Turn Conversation::exchange() {
  Turn turn;
  for (int round = 0; round <= max_rounds_; ++round) {
    if (round == max_rounds_ && !tools_.empty()) {
      request_.tool_choice = "none";
      request_.messages.push_back(llm::user_message(
          "You have used all your tool calls. Give your final answer now, without calling tools."));
    }
    llm::ChatResponse response;
    if (auto error = call_model(response, turn.stop_rule)) {
      turn.stop = error;
      return turn;
    }
    turn.text = response.text;
    request_.messages.push_back(llm::assistant_message(response.text, response.tool_calls));
    if (response.tool_calls.empty() || !handle_calls(response, turn)) return turn;
    if (turn.stop || turn.invalid_calls >= kMaxInvalidCalls) return turn;
  }
  return turn;
}

// Answers every call of the response; returns false when the conversation is over (submit).
bool Conversation::handle_calls(const llm::ChatResponse& response, Turn& turn) {
  int calls = 0;
  for (const auto& call : response.tool_calls) {
    if (call.name == kSubmitTool && std::count(tools_.begin(), tools_.end(), kSubmitTool)) {
      auto args = llm::parse_arguments(call);
      if (args && args->contains("source") && (*args)["source"].is_string() &&
          !trim((*args)["source"].get<std::string>()).empty()) {
        turn.submitted = (*args)["source"].get<std::string>();
        turn.summary = json_text(*args, "summary");  // One of another type reads as none.
        request_.messages.push_back(llm::tool_message(call, "received"));
        return false;
      }
    }
    request_.messages.push_back(llm::tool_message(
        call, ++calls <= kMaxCallsPerAnswer
                  ? dispatch(call, turn)
                  : fmt::format("error: not run: an answer's first {} tool calls are run, the "
                                "rest are not; call it again in your next answer",
                                kMaxCallsPerAnswer)));
  }
  return true;
}

namespace {

// One line for the analyst of a tool call the optimizer made: what it asked, what came back.
std::string compact_result(const std::string& name, const Json& args, const ToolResult& result) {
  std::string asked;
  for (const char* key : {"path", "variant", "query"})
    if (args.contains(key) && args[key].is_string()) asked = args[key].get<std::string>();
  if (args.contains("source")) asked = "a kernel file";
  std::string lines;
  for (const auto& line : split(result.text, '\n')) {
    if (trim(line).empty()) continue;
    if (!lines.empty()) lines += "; ";
    lines += trim(line);
    if (lines.size() > 240 || name == "read_file") break;
  }
  return fmt::format("- {}({}): {}", name, asked, lines.substr(0, 300));
}

}  // namespace

std::string Conversation::dispatch(const llm::ToolCall& call, Turn& turn) {
  auto refuse = [&](const std::string& why) {
    ++turn.invalid_calls;
    return "error: " + why + " (" + std::to_string(kMaxInvalidCalls - turn.invalid_calls) +
           " invalid calls left)";
  };
  if (std::find(tools_.begin(), tools_.end(), call.name) == tools_.end())
    return refuse("there is no tool '" + call.name + "' here; the tools are " + join(tools_, ", "));
  auto args = llm::parse_arguments(call);
  if (!args)
    return refuse("the arguments of " + call.name +
                  " are not a JSON object: " + args.error().message);
  Tool* tool = s_.registry->find(call.name);
  if (auto valid = validate_arguments(tool->schema(), *args); !valid)
    return refuse(call.name + ": " + valid.error().message);
  ++turn.tool_calls;
  s_.progress(role_ + ": " + call.name);
  ToolResult result = s_.effects->tool(role_, call.name, *args, *s_.tool_context);
  if (role_ == "optimizer")
    s_.optimizer_results.push_back(compact_result(call.name, *args, result));
  if (auto st = s_.events->emit(tool_call_event(role_, iteration_, call.name, *args, result));
      !st) {
    turn.stop = st.error();
    turn.stop_rule = "error";
  }
  return result.text.size() > kToolTextCap ? tail(result.text, kToolTextCap) : result.text;
}

}  // namespace kopt
