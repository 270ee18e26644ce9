#include "tools/predict/llm_time.h"

#include <cmath>
#include <cstdlib>

#include "tools/roofline/llm_prompt.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/paths.h"
#include "util/strings.h"

namespace kopt {

Result<TimePrompt> time_prompt(const Benchmark& bench, const std::string& source, long size,
                               const std::string& machine_description) {
  const auto dir = kopt_home() / "prompts" / "predict";
  auto system = read_file(dir / "time.system.md");
  auto user = read_file(dir / "time.user.md");
  if (!system) return system.error();
  if (!user) return user.error();
  auto filled = fill_template(*user, {{"hardware", machine_description},
                                      {"language", to_string(bench.language)},
                                      {"flags", join(bench.flags, " ")},
                                      {"size", std::to_string(size > 0 ? size : bench.time_size)},
                                      {"size_meaning", bench.size_meaning},
                                      {"source", source}});
  if (!filled) return filled.error();
  Hasher hasher;
  hasher.add(*system).add(*user);
  return TimePrompt{*system, *filled, hasher.hex()};
}

Result<double> parse_time_answer(const std::string& answer) {
  const std::string text = to_lower(answer);
  const auto at = text.rfind("answer:");
  if (at == std::string::npos) return fail("the answer has no line 'Answer: <time> ms'");
  std::string rest = text.substr(at + 7, 200);
  rest.erase(0, rest.find_first_not_of(" *_`\t~≈"));
  char* end = nullptr;
  const double value = std::strtod(rest.c_str(), &end);
  if (end == rest.c_str() || !std::isfinite(value) || value <= 0)
    return fail("the answer's time is not a positive number: '" + trim(rest.substr(0, 40)) + "'");
  std::string unit = trim(std::string(end));
  unit = unit.substr(0, unit.find_first_of(" \n.*`,;)"));
  if (unit.empty() || unit == "ms" || unit.rfind("millisecond", 0) == 0) return value * 1e-3;
  if (unit == "s" || unit.rfind("second", 0) == 0 || unit == "sec") return value;
  if (unit == "us" || unit == "µs" || unit.rfind("microsecond", 0) == 0) return value * 1e-6;
  if (unit == "ns" || unit.rfind("nanosecond", 0) == 0) return value * 1e-9;
  return fail("the answer's time has a unit kopt does not know: '" + unit + "'");
}

}  // namespace kopt
