// search_knowledge: the loop's access to the technique notes. The model asks with the symptom
// or the technique's name and gets the best notes, each cut to a few hundred words.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tools/knowledge/knowledge_base.h"
#include "tools/registry/tool.h"

namespace kopt {

/// Most notes one call returns.
inline constexpr int kMaxKnowledgeHits = 5;

/// The text a model reads for `hits`: each note's title, id, targets and score, then its body
/// cut at a line end to about `first_words` words for the best note and `other_words` for the
/// rest (0 keeps whole bodies).
std::string format_hits(const std::vector<Hit>& hits, size_t first_words, size_t other_words);

/// Keeps the first lines of `body` holding at most about `max_words` words, marking a cut.
std::string trim_to_words(const std::string& body, size_t max_words);

class KnowledgeTool : public Tool {
 public:
  /// Serves `base`, or answers every call with the reason it could not be loaded.
  explicit KnowledgeTool(Result<KnowledgeBase> base) : base_(std::move(base)) {}

  /// "search_knowledge".
  std::string name() const override { return "search_knowledge"; }
  /// What the notes hold and how to query them.
  std::string description() const override;
  /// {"query": string, "target": "cpu"|"cuda", "k": 1..5}; only the query is required.
  Json schema() const override;
  /// Ranks the notes; the target defaults to the benchmark's (cuda or cpu) when there is one.
  ToolResult call(const Json& arguments, ToolContext& context) override;

 private:
  Result<KnowledgeBase> base_;
};

/// The search_knowledge tool over the notes in `dir` (read once, now).
std::unique_ptr<Tool> make_knowledge_tool(
    const std::filesystem::path& dir = default_knowledge_dir());

}  // namespace kopt
