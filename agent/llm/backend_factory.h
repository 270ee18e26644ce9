// Choosing a backend by its spec string, as given to --llm:
//   openai:MODEL     OpenAI-compatible chat completions; OPENAI_BASE_URL (default: the hosted
//                    API, which needs OPENAI_API_KEY), OPENAI_API_KEY (optional elsewhere)
//   anthropic:MODEL  Anthropic Messages; ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL
//   local[:FILE]     the bundled local model (local_backend.h)
//   replay:RUN_DIR   the model calls recorded in a run (replay_backend.h)
//   exec:COMMAND     a command that answers request JSON with response JSON (exec_backend.h)
//   manual[:DIR]     an operator (manual_backend.h; KOPT_MANUAL_DIR)
// Also read: KOPT_LLM_TOOLS=text (tools through text for any backend), KOPT_LLM_TIMEOUT_S
// (wait for the first byte, default 300), KOPT_LLM_STALL_S (silence within an answer, 60),
// KOPT_LLM_DEADLINE_S (a whole call, retries included, 600), KOPT_EXEC_TIMEOUT_S (600).
#pragma once

#include <memory>
#include <string>

#include "agent/llm/backend.h"
#include "agent/llm/environment.h"
#include "agent/llm/http_transport.h"
#include "agent/llm/manual_backend.h"
#include "agent/llm/retry.h"
#include "sandbox/process.h"

namespace kopt::llm {

/// Settings and seams for the backends the factory makes.
struct BackendOptions {
  EnvLookup env = process_environment();
  std::shared_ptr<HttpTransport> transport{};  ///< Null: libcurl.
  std::shared_ptr<Sleeper> sleeper{};          ///< Null: really sleep between retries.
  std::shared_ptr<ProcessRunner> runner{};     ///< Null: LocalProcessRunner (exec:).
  RetryPolicy retry{};
  HttpTimeouts timeouts{};
  ManualConfig manual{};  ///< Its folder is replaced by manual:DIR or $KOPT_MANUAL_DIR.
};

/// A spec split at its first colon: kind "openai", argument "gpt-4o-mini".
struct BackendSpec {
  std::string kind;
  std::string argument;
};

/// Splits and checks a spec; the Error lists the accepted forms.
Result<BackendSpec> parse_backend_spec(const std::string& spec);

/// Makes the backend a spec names. Nothing is contacted or started yet (see prepare()).
Result<std::unique_ptr<LlmBackend>> make_backend(const std::string& spec,
                                                 const BackendOptions& options = {});

}  // namespace kopt::llm
