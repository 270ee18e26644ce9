#include "tools/roofline/llm_prompt.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "util/files.h"
#include "util/hash.h"
#include "util/paths.h"
#include "util/strings.h"

namespace kopt {

namespace {

// The position after the last "answer:" and the class word that follows it, if any.
std::optional<BoundClass> final_answer(const std::string& text) {
  const auto at = text.rfind("answer:");
  if (at == std::string::npos) return std::nullopt;
  std::string rest = text.substr(at + 7);
  rest.erase(0, rest.find_first_not_of(" *_`\t"));
  BoundClass cls;
  if (parse_bound_class(rest, cls)) return cls;
  return std::nullopt;
}

}  // namespace

Result<std::string> fill_template(const std::string& text,
                                  const std::vector<std::pair<std::string, std::string>>& values) {
  std::string out;
  size_t pos = 0;
  for (auto open = text.find("{{"); open != std::string::npos; open = text.find("{{", pos)) {
    const auto close = text.find("}}", open);
    if (close == std::string::npos) break;
    const std::string name = text.substr(open + 2, close - open - 2);
    auto it =
        std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == name; });
    if (it == values.end()) return fail("the prompt template has no value for {{" + name + "}}");
    out.append(text, pos, open - pos).append(it->second);
    pos = close + 2;
  }
  return out.append(text, pos, std::string::npos);
}

Result<RooflinePrompt> roofline_prompt(const Benchmark& bench, const std::string& source,
                                       const std::string& machine_description, const Peaks& peaks) {
  const auto dir = kopt_home() / "prompts" / "roofline";
  auto system = read_file(dir / "zero_shot.system.md");
  auto user = read_file(dir / "zero_shot.user.md");
  if (!system) return system.error();
  if (!user) return user.error();
  const Intensities b = balance_points(peaks);
  auto filled =
      fill_template(*user, {{"hardware", machine_description},
                            {"balance", fmt::format("single {:.3g}, double {:.3g}, integer {:.3g}",
                                                    b.fp32, b.fp64, b.int_ops)},
                            {"language", to_string(bench.language)},
                            {"time_size", std::to_string(bench.time_size)},
                            {"size_meaning", bench.size_meaning},
                            {"source", source}});
  if (!filled) return filled.error();
  Hasher hasher;
  hasher.add(*system).add(*user);
  return RooflinePrompt{*system, *filled, hasher.hex()};
}

Result<BoundClass> parse_roofline_answer(const std::string& answer) {
  const std::string text = to_lower(answer);
  if (auto cls = final_answer(text)) return *cls;
  const auto compute = text.rfind("compute-bound"), bandwidth = text.rfind("bandwidth-bound"),
             memory = text.rfind("memory-bound");
  auto last = [](size_t a) { return a == std::string::npos ? -1L : static_cast<long>(a); };
  const long c = last(compute), m = std::max(last(bandwidth), last(memory));
  if (c < 0 && m < 0) return fail("the answer names neither compute-bound nor bandwidth-bound");
  return c > m ? BoundClass::compute : BoundClass::bandwidth;
}

}  // namespace kopt
