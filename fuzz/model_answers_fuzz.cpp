// What a model answers to the predictors (a class for the roofline, a time for kopt predict)
// and the per-machine calibration document kopt predict reads back from its cache.
#include "fuzz/fuzz_input.h"
#include "tools/predict/calibration.h"
#include "tools/predict/llm_time.h"
#include "tools/roofline/llm_prompt.h"
#include "util/json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = kopt::fuzz::text_of(data, size);
  (void)kopt::parse_roofline_answer(text);
  (void)kopt::parse_time_answer(text);
  if (auto doc = kopt::parse_json(text, "calibration"))
    if (auto calibration = kopt::calibration_from_json(*doc)) (void)kopt::describe(*calibration);
  return 0;
}
