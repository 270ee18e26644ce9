#include "tools/knowledge/knowledge_tool.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "tools/knowledge/tokenizer.h"
#include "tools/registry/registry.h"
#include "util/strings.h"

namespace kopt {

namespace {

// The best note comes whole (notes are at most 400 words); the others share what is left of
// about 900 words, at least 150 words each.
constexpr size_t kWordBudget = 900, kMinWordsPerNote = 150, kMaxWordsPerNote = 400;

size_t count_words(const std::string& line) {
  size_t words = 0;
  bool in_word = false;
  for (char c : line) {
    const bool space = c == ' ' || c == '\t';
    words += !space && !in_word;
    in_word = !space;
  }
  return words;
}

// True when the lines leave a ``` code block open.
bool open_block(const std::vector<std::string>& lines) {
  const auto fences = std::count_if(lines.begin(), lines.end(), [](const std::string& line) {
    return starts_with(trim(line), "```");
  });
  return fences % 2 == 1;
}

std::optional<std::string> default_target(const ToolContext& context) {
  if (!context.benchmark) return std::nullopt;
  return context.benchmark->language == Language::cuda ? "cuda" : "cpu";
}

// What the model reads: a one-line summary, then the best note whole and the others cut.
std::string answer_text(const std::string& query, const std::optional<std::string>& target,
                        const std::vector<Hit>& hits) {
  const std::string scope = target ? " (target " + *target + ")" : "";
  if (hits.empty())
    return "No note matches '" + query + "'" + scope +
           ". Try the technique's name or other words of the symptom (for example "
           "'vectorization', 'false sharing', 'coalescing').";
  const size_t others = hits.size() > 1 ? (kWordBudget - kMaxWordsPerNote) / (hits.size() - 1) : 0;
  std::string text =
      fmt::format("{} note{} for '{}'{}, best first:\n\n", hits.size(), hits.size() == 1 ? "" : "s",
                  query, scope) +
      format_hits(hits, kMaxWordsPerNote, std::clamp(others, kMinWordsPerNote, kMaxWordsPerNote));
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

}  // namespace

std::string trim_to_words(const std::string& body, size_t max_words) {
  if (max_words == 0) return body;
  std::vector<std::string> kept;
  size_t words = 0;
  bool cut = false;
  for (const auto& line : split(body, '\n')) {
    const size_t line_words = count_words(line);
    if (words + line_words > max_words && !kept.empty()) {
      cut = true;
      break;
    }
    kept.push_back(line);
    words += line_words;
  }
  if (!cut) return join(kept, "\n");
  // No dangling heading, blank line or opening fence before the mark; an open block is closed.
  while (kept.size() > 1) {
    const std::string last = trim(kept.back());
    const bool opens_block = starts_with(last, "```") && open_block(kept);
    if (!last.empty() && last[0] != '#' && !opens_block) break;
    kept.pop_back();
  }
  if (open_block(kept)) kept.push_back("```");
  kept.push_back("[...]");
  return join(kept, "\n");
}

std::string format_hits(const std::vector<Hit>& hits, size_t first_words, size_t other_words) {
  std::string text;
  for (const Hit& hit : hits) {
    const size_t words = &hit == &hits.front() ? first_words : other_words;
    text += fmt::format("# {}\n[id {}; {}; score {:.2f}]\n{}\n\n", hit.title, hit.id,
                        join(hit.applies_to, ", "), hit.score, trim_to_words(hit.body, words));
  }
  return text;
}

std::string KnowledgeTool::description() const {
  return "Search kopt's notes on optimization techniques for CPU (C++/OpenMP) and CUDA kernels. "
         "Each note says when a technique applies (profile shape, compiler remark, roofline "
         "class), "
         "how to apply it, its pitfalls and how to check the gain. Query with the symptom or the "
         "technique, e.g. a compiler remark ('statement clobbers memory exp'), a profile finding "
         "('uncoalesced global loads', 'critical section histogram') or a name ('loop tiling').";
}

Json KnowledgeTool::schema() const {
  return {
      {"type", "object"},
      {"properties",
       {{"query",
         {{"type", "string"}, {"description", "Symptom, compiler remark or technique to look up"}}},
        {"target",
         {{"type", "string"},
          {"enum", {"cpu", "cuda"}},
          {"description", "Only notes for this target (default: the benchmark's)"}}},
        {"k",
         {{"type", "integer"},
          {"minimum", 1},
          {"maximum", kMaxKnowledgeHits},
          {"description", "How many notes to return (default 3)"}}}}},
      {"required", {"query"}},
      {"additionalProperties", false}};
}

ToolResult KnowledgeTool::call(const Json& arguments, ToolContext& context) {
  if (!base_) return tool_error("the knowledge base could not be loaded: " + base_.error().message);
  if (Status valid = validate_arguments(schema(), arguments); !valid)
    return tool_error(valid.error().message);
  const std::string query = arguments["query"].get<std::string>();
  if (tokenize(query).empty())
    return tool_error("query '" + query +
                      "' has no searchable words; name a symptom or a technique");
  const long k = arguments.contains("k") ? arguments["k"].get<long>() : 3;
  if (k < 1 || k > kMaxKnowledgeHits)
    return tool_error(fmt::format("k must be between 1 and {}, not {}", kMaxKnowledgeHits, k));
  const std::optional<std::string> target =
      arguments.contains("target") ? std::optional(arguments["target"].get<std::string>())
                                   : default_target(context);

  const std::vector<Hit> hits = base_->search(query, static_cast<size_t>(k), target);
  ToolResult result;
  result.data = {{"query", query},
                 {"target", target ? Json(*target) : Json()},
                 {"k", k},
                 {"hits", Json::array()}};
  for (const Hit& hit : hits)
    result.data["hits"].push_back({{"id", hit.id}, {"title", hit.title}, {"score", hit.score}});
  result.text = answer_text(query, target, hits);
  return result;
}

std::unique_ptr<Tool> make_knowledge_tool(const std::filesystem::path& dir) {
  return std::make_unique<KnowledgeTool>(KnowledgeBase::load(dir));
}

}  // namespace kopt
