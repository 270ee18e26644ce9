#include "agent/llm/exec_backend.h"

#include <nlohmann/json.hpp>

#include "agent/llm/chat_json.h"
#include "agent/llm/guarded_backend.h"
#include "util/files.h"
#include "util/json.h"
#include "util/strings.h"

namespace kopt::llm {

namespace {

constexpr uint64_t kMaxFileBytes = 64 << 20;

}  // namespace

ExecBackend::ExecBackend(ExecConfig config) : config_(std::move(config)) {
  if (!config_.runner) config_.runner = std::make_shared<LocalProcessRunner>();
}

Error ExecBackend::failed(const std::string& why) const {
  return fail("exec backend `" + config_.command + "` " + why);
}

Result<ChatResponse> ExecBackend::chat(const ChatRequest& request, const ChatOptions& options) {
  TempDir scratch("kopt-exec-");
  const auto errors = scratch.path() / "stderr";
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", "exec 2>\"$KOPT_EXEC_STDERR\"\n" + config_.command};
  spec.env = current_environment();
  spec.env["KOPT_EXEC_STDERR"] = errors.string();
  spec.input = dump_json(to_json(request)) + "\n";
  spec.timeout = config_.timeout;
  spec.output_cap = answer_wire_cap(request.max_tokens);
  spec.limits.file_size_bytes = kMaxFileBytes;  // Its standard error file among them.
  const ProcessResult result = config_.runner->run(spec);
  const auto stderr_file = read_file(errors);
  const std::string stderr_text = stderr_file.ok() ? *stderr_file : "";
  if (!result.succeeded()) {
    const std::string said = trim(tail(stderr_text.empty() ? result.output : stderr_text, 600));
    return failed("failed (" + result.describe() + ")" + (said.empty() ? "" : ": " + said));
  }
  if (result.output_truncated)
    return failed("replied with more than " + std::to_string(spec.output_cap) + " bytes");
  const std::string reply = trim(result.output);
  if (reply.empty()) return failed("replied with nothing on its standard output");
  auto json = parse_json(reply, "its reply");
  if (!json)
    return failed("replied with something that is not JSON: '" + one_line_excerpt(reply, 120) +
                  "'");
  auto response = response_from_json(*json);
  if (!response) return failed("replied with a bad response: " + response.error().message);
  response->latency_seconds = result.wall_seconds;
  if (response->model.empty()) response->model = "exec";
  if (options.on_text && !response->text.empty()) options.on_text(response->text);
  return response;
}

}  // namespace kopt::llm
