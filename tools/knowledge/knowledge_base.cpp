#include "tools/knowledge/knowledge_base.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "tools/knowledge/tokenizer.h"
#include "util/paths.h"
#include "util/strings.h"

namespace kopt {

std::filesystem::path default_knowledge_dir() {
  return kopt_home() / "prompts" / "knowledge";
}

Result<KnowledgeBase> KnowledgeBase::load(const std::filesystem::path& dir) {
  Result<std::vector<Note>> notes = load_notes(dir);
  if (!notes) return notes.error();
  return from_notes(std::move(*notes));
}

KnowledgeBase KnowledgeBase::from_notes(std::vector<Note> notes) {
  std::sort(notes.begin(), notes.end(), [](const Note& a, const Note& b) { return a.id < b.id; });
  KnowledgeBase base;
  base.notes_ = std::move(notes);
  std::array<double, 3> total_length{};
  for (const Note& note : base.notes_) {
    const std::array<std::vector<std::string>, 3> terms = {
        tokenize(note.title), tokenize(join(note.tags, " ")), tokenize(note.body)};
    Fields fields;
    std::set<std::string> distinct;
    for (size_t f = 0; f < fields.size(); ++f) {
      for (const auto& term : terms[f]) {
        ++fields[f].counts[term];
        distinct.insert(term);
      }
      fields[f].length = terms[f].size();
      total_length[f] += static_cast<double>(terms[f].size());
    }
    for (const auto& term : distinct) ++base.document_frequency_[term];
    base.fields_.push_back(std::move(fields));
  }
  const double count = std::max<double>(1.0, static_cast<double>(base.notes_.size()));
  for (size_t f = 0; f < total_length.size(); ++f)
    base.average_length_[f] = std::max(1.0, total_length[f] / count);
  return base;
}

// BM25F: field counts are length-normalized and weighted, then saturated once.
double KnowledgeBase::score(const Fields& fields, const std::string& term, double idf) const {
  double weighted = 0;
  for (size_t f = 0; f < fields.size(); ++f) {
    const auto it = fields[f].counts.find(term);
    if (it == fields[f].counts.end()) continue;
    const double norm =
        1 - kBm25B + kBm25B * static_cast<double>(fields[f].length) / average_length_[f];
    weighted += kFieldWeights[f] * it->second / norm;
  }
  return weighted > 0 ? idf * weighted * (kBm25K1 + 1) / (kBm25K1 + weighted) : 0;
}

std::vector<Hit> KnowledgeBase::search(const std::string& query, size_t k,
                                       const std::optional<std::string>& target) const {
  const std::vector<std::string> tokens = tokenize(query);
  const std::set<std::string> terms(tokens.begin(), tokens.end());
  const double n = static_cast<double>(notes_.size());
  std::vector<Hit> hits;
  for (size_t d = 0; d < notes_.size(); ++d) {
    if (target && !notes_[d].applies(*target)) continue;
    double total = 0;
    for (const auto& term : terms) {
      const auto df = document_frequency_.find(term);
      if (df == document_frequency_.end()) continue;
      const double idf = std::log(1 + (n - df->second + 0.5) / (df->second + 0.5));
      total += score(fields_[d], term, idf);
    }
    if (total > 0)
      hits.push_back({notes_[d].id, notes_[d].title, total, notes_[d].applies_to, notes_[d].body});
  }
  std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) {
    return a.score != b.score ? a.score > b.score : a.id < b.id;
  });
  if (hits.size() > k) hits.resize(k);
  return hits;
}

}  // namespace kopt
