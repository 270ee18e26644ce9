// The `llm` time prediction, without the model call (tools/ does not depend on agent/): an
// LLMPerf-style prompt (the kernel's source, its size and build flags, the machine's measured
// figures; asked for the time of one call) rendered from prompts/predict/, and the parser of
// the model's answer.
#pragma once

#include <string>

#include "tools/benchmark/benchmark.h"
#include "util/result.h"

namespace kopt {

struct TimePrompt {
  std::string system;
  std::string user;
  std::string hash;  ///< Of both templates, for records.
};

/// Renders prompts/predict/time.{system,user}.md; `size` 0 is the manifest's time size.
Result<TimePrompt> time_prompt(const Benchmark& bench, const std::string& source, long size,
                               const std::string& machine_description);

/// Seconds from the answer's last "Answer: <number> <unit>" (ms when no unit; s, us and ns
/// understood); an Error when there is none or it is not a positive finite number.
Result<double> parse_time_answer(const std::string& answer);

}  // namespace kopt
