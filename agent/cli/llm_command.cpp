// kopt llm ping / kopt llm chat: talk to a backend directly, to check a setup before a run.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>

#include "agent/cli/commands.h"
#include "agent/llm/accounting.h"
#include "agent/llm/backend_factory.h"
#include "agent/llm/chat_json.h"

namespace kopt::cli {

namespace {

using namespace kopt::llm;
using Clock = std::chrono::steady_clock;

const OptionSpec kLlmOption{"--llm",
                            "Backend: openai:MODEL, anthropic:MODEL, local, replay:RUN_DIR, "
                            "exec:COMMAND or manual",
                            "local",
                            false,
                            false,
                            "KOPT_LLM"};

// Interactive checks should fail fast: two retries, short waits.
BackendOptions cli_options() {
  BackendOptions options;
  options.retry.max_attempts = 3;
  options.retry.base_delay = std::chrono::milliseconds(500);
  return options;
}

int report_failure(const std::string& command, const Error& error) {
  std::fprintf(stderr, "kopt llm %s: %s\n", command.c_str(), error.message.c_str());
  return 1;
}

std::string cost_text(const ChatResponse& response) {
  auto prices = PriceTable::load_default();
  if (!prices) return "";
  auto cost = prices->cost(response.model, response.usage);
  return cost ? fmt::format(", ~${:.5f}", *cost) : "";
}

std::string call_summary(const ChatResponse& response) {
  return fmt::format("{:.2f} s, {} in + {} out tokens{}", response.latency_seconds,
                     response.usage.input_tokens, response.usage.output_tokens,
                     cost_text(response));
}

// Asks the model to call a trivial tool and says whether it did.
std::string probe_tools(LlmBackend& backend) {
  ChatRequest request;
  request.messages = {
      user_message("Call the tool `echo` with the argument text set to \"hello\".")};
  request.tools = {
      {"echo", "Echoes a text back.",
       R"({"type":"object","properties":{"text":{"type":"string"}},"required":["text"]})"}};
  request.temperature = 0;
  request.max_tokens = 128;
  auto response = backend.chat(request);
  const std::string how = backend.native_tools() ? "native" : "through text";
  if (!response) return "failed: " + response.error().message;
  for (const auto& call : response->tool_calls)
    if (call.name == "echo")
      return fmt::format("{}, called echo({}) ({})", how, call.arguments, call_summary(*response));
  return fmt::format("{}, but the model did not call the tool (it said: {:.60})", how,
                     response->text);
}

int run_ping(const Args& args) {
  auto backend = make_backend(args.get("llm"), cli_options());
  if (!backend) return report_failure("ping", backend.error());
  fmt::print("backend   {}\n", (*backend)->name());
  const auto start = Clock::now();
  if (auto ready = (*backend)->prepare(); !ready) return report_failure("ping", ready.error());
  const double ready_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (ready_seconds > 0.05) fmt::print("ready     in {:.1f} s\n", ready_seconds);
  if (parse_backend_spec(args.get("llm"))->kind == "replay") {
    fmt::print("replay    serves recorded answers only; nothing to ping\n");
    return 0;
  }
  ChatRequest request;
  request.messages = {user_message("Reply with the single word: pong")};
  request.temperature = 0;
  request.max_tokens = 16;
  auto response = (*backend)->chat(request);
  if (!response) return report_failure("ping", response.error());
  fmt::print("model     {}\n", response->model);
  fmt::print("reply     \"{}\" ({})\n", response->text, call_summary(*response));
  if (!args.flag("no-tools")) fmt::print("tools     {}\n", probe_tools(**backend));
  return 0;
}

void print_tool_calls(const ChatResponse& response) {
  for (const auto& call : response.tool_calls) {
    fmt::print("tool call {}({}){}\n", call.name, call.arguments,
               call.arguments_error.empty() ? "" : " [" + call.arguments_error + "]");
  }
}

int run_chat(const Args& args) {
  auto backend = make_backend(args.get("llm"), cli_options());
  if (!backend) return report_failure("chat", backend.error());
  ChatRequest request;
  request.system = args.get("system");
  request.messages = {user_message(args.get("prompt"))};
  request.max_tokens = static_cast<int>(args.get_int("max-tokens", 1, 1000000));
  if (args.has("temperature")) request.temperature = args.get_double("temperature", 0, 2);
  ChatOptions options;
  options.stream = args.flag("stream");
  if (options.stream) {
    options.on_text = [](std::string_view delta) {
      std::fwrite(delta.data(), 1, delta.size(), stdout);
      std::fflush(stdout);
    };
  }
  auto response = (*backend)->chat(request, options);
  if (!response) return report_failure("chat", response.error());
  if (!options.stream) std::fputs(response->text.c_str(), stdout);
  std::fputs("\n", stdout);
  print_tool_calls(*response);
  std::fflush(stdout);
  std::fprintf(stderr, "(%s, %s, finish %s)\n", response->model.c_str(),
               call_summary(*response).c_str(), to_string(response->finish_reason).c_str());
  return 0;
}

}  // namespace

CommandSpec llm_ping_command() {
  return {"llm ping",
          "Check that a model backend answers: model, latency, tokens, tool support",
          {kLlmOption,
           {"--no-tools", "Skip the tool-calling probe (one call fewer)", "", true, false, ""}},
          run_ping};
}

CommandSpec llm_chat_command() {
  return {"llm chat",
          "Send one prompt to a model backend and print the answer",
          {kLlmOption,
           {"--system", "System prompt", "", false, false, ""},
           {"--stream", "Print the answer as it arrives", "", true, false, ""},
           {"--max-tokens", "Most tokens to generate", "1024", false, false, ""},
           {"--temperature", "Sampling temperature (the backend's default when absent)", "", false,
            false, ""},
           {"PROMPT", "What to ask", "", false, true, ""}},
          run_chat};
}

}  // namespace kopt::cli
