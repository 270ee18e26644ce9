#include "agent/cli/one_question.h"

#include "agent/llm/backend_factory.h"

namespace kopt::cli {

Result<Answer> ask_one_question(const std::string& spec, const std::string& system,
                                const std::string& user) {
  auto backend = llm::make_backend(spec);
  if (!backend) return backend.error();
  llm::ChatRequest request;
  request.system = system;
  request.messages.push_back(llm::user_message(user));
  request.temperature = 0.0;
  request.max_tokens = 4096;
  auto response = (*backend)->chat(request);
  if (!response) return response.error();
  return Answer{response->text, (*backend)->name()};
}

}  // namespace kopt::cli
