#include "agent/llm/replay_backend.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "agent/llm/chat_json.h"
#include "agent/llm/json_read.h"
#include "agent/llm/request_diff.h"
#include "util/files.h"

namespace kopt::llm {

ReplayBackend::ReplayBackend(std::filesystem::path run_dir) : run_dir_(std::move(run_dir)) {}

Status ReplayBackend::prepare() {
  if (!prepared_) {
    loaded_ = load();
    prepared_ = true;
  }
  return loaded_;
}

Status ReplayBackend::load() {
  const auto path = run_dir_ / "events.jsonl";
  auto content = read_file(path);
  if (!content)
    return fail("replay: " + content.error().message + " (is " + run_dir_.string() + " a run?)");
  std::istringstream in(*content);
  std::string text;
  for (size_t number = 1; std::getline(in, text); ++number) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = path.string() + " line " + std::to_string(number);
    Json event = parse_json_or_discarded(text);
    if (event.is_discarded()) return fail("replay: " + where + " is not valid JSON");
    if (string_at(event, "type") != "model_call") continue;
    auto request = request_from_json(object_at(event, "request"));
    if (!request) return fail("replay: " + where + ": " + request.error().message);
    auto response = response_from_json(object_at(event, "response"));
    if (!response) return fail("replay: " + where + ": " + response.error().message);
    const std::string hash = request_hash(*request);
    unused_[hash].push_back(calls_.size());
    all_[hash].push_back(calls_.size());
    calls_.push_back({std::move(*request), std::move(*response), number});
  }
  return {};
}

Result<ChatResponse> ReplayBackend::chat(const ChatRequest& request, const ChatOptions& options) {
  if (auto status = prepare(); !status) return status.error();
  const std::string hash = request_hash(request);
  auto it = unused_.find(hash);
  if (it == unused_.end() || it->second.empty()) return not_recorded(request, hash);
  const Recorded& recorded = calls_[it->second.front()];
  it->second.pop_front();
  if (options.on_text && !recorded.response.text.empty()) options.on_text(recorded.response.text);
  return recorded.response;
}

Error ReplayBackend::not_recorded(const ChatRequest& request, const std::string& hash) const {
  const std::string source = (run_dir_ / "events.jsonl").string();
  if (auto seen = all_.find(hash); seen != all_.end())
    return fail("replay: this request was recorded " + std::to_string(seen->second.size()) +
                " time(s) in " + source + " and every recorded answer has been used");
  if (calls_.empty()) return fail("replay: " + source + " holds no model calls");
  size_t best = 0, best_score = 0;
  for (size_t i = 0; i < calls_.size(); ++i) {
    const size_t score = similarity(calls_[i].request, request);
    if (score > best_score) best = i, best_score = score;
  }
  return fail("replay: request not recorded in " + source + "; nearest is line " +
              std::to_string(calls_[best].line) + ": " +
              first_difference(calls_[best].request, request));
}

}  // namespace kopt::llm
