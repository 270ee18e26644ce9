// The technique knowledge base: the notes of prompts/knowledge/ indexed for BM25 retrieval
// over three fields (title and tags boosted, body), with an optional cpu/cuda filter.
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "tools/knowledge/note.h"
#include "util/result.h"

namespace kopt {

/// BM25 term-frequency saturation.
inline constexpr double kBm25K1 = 1.2;
/// BM25 length normalization.
inline constexpr double kBm25B = 0.75;
/// Weights of a term occurrence in the title, the tags and the body (BM25F).
inline constexpr std::array<double, 3> kFieldWeights = {3.0, 2.0, 1.0};

/// One ranked note.
struct Hit {
  std::string id;                       ///< The note's file stem.
  std::string title;                    ///< The note's title.
  double score = 0;                     ///< BM25F score; higher is better, always > 0.
  std::vector<std::string> applies_to;  ///< "cpu", "cuda" or both.
  std::string body;                     ///< The whole body; callers trim it.
};

/// The folder of kopt's own notes: kopt_home()/prompts/knowledge.
std::filesystem::path default_knowledge_dir();

class KnowledgeBase {
 public:
  /// Reads and indexes every note in `dir`; a bad note is an Error naming its file.
  static Result<KnowledgeBase> load(const std::filesystem::path& dir);
  /// Indexes notes already in memory.
  static KnowledgeBase from_notes(std::vector<Note> notes);

  /// The k best notes for `query` (only those applying to `target` when given), best first,
  /// ties broken by id; notes sharing no term with the query are never returned.
  std::vector<Hit> search(const std::string& query, size_t k,
                          const std::optional<std::string>& target = std::nullopt) const;
  /// Every note, sorted by id.
  const std::vector<Note>& notes() const { return notes_; }

 private:
  /// Term counts and length of one field of one note.
  struct Field {
    std::unordered_map<std::string, int> counts;
    size_t length = 0;
  };
  using Fields = std::array<Field, 3>;

  double score(const Fields& fields, const std::string& term, double idf) const;

  std::vector<Note> notes_;
  std::vector<Fields> fields_;
  std::array<double, 3> average_length_{};
  std::unordered_map<std::string, int> document_frequency_;
};

}  // namespace kopt
