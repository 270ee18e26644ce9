// The `llm` roofline method, without the model call: the seed paper's zero-shot setup (machine
// specifications plus the kernel's source, asked for compute- or bandwidth-bound) rendered
// from prompts/roofline/, and the parser of the model's answer. The caller sends the prompt
// through an LLM backend (tools/ does not depend on agent/).
#pragma once

#include <string>

#include "tools/benchmark/benchmark.h"
#include "tools/roofline/counters.h"
#include "util/result.h"

namespace kopt {

/// A rendered prompt.
struct RooflinePrompt {
  std::string system;
  std::string user;
  std::string hash;  ///< Of both templates, for records.
};

/// Renders prompts/roofline/zero_shot.{system,user}.md for a variant and a machine.
Result<RooflinePrompt> roofline_prompt(const Benchmark& bench, const std::string& source,
                                       const std::string& machine_description, const Peaks& peaks);

/// Fills {{name}} placeholders; an unfilled placeholder is an Error naming it.
Result<std::string> fill_template(const std::string& text,
                                  const std::vector<std::pair<std::string, std::string>>& values);

/// The class the answer ends with ("Answer: compute-bound"), else the last class it names.
Result<BoundClass> parse_roofline_answer(const std::string& answer);

}  // namespace kopt
