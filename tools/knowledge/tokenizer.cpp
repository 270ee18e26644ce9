#include "tools/knowledge/tokenizer.h"

#include <algorithm>
#include <array>

namespace kopt {

namespace {

constexpr std::array<std::string_view, 74> kStopWords = {
    "about", "after", "all",   "also", "an",    "and",    "any",  "are",  "as",    "at",   "be",
    "been",  "but",   "by",    "can",  "could", "did",    "do",   "does", "each",  "else", "for",
    "from",  "get",   "had",   "has",  "have",  "how",    "if",   "in",   "into",  "is",   "it",
    "its",   "just",  "may",   "more", "most",  "much",   "my",   "no",   "not",   "of",   "on",
    "one",   "only",  "or",    "our",  "per",   "should", "so",   "some", "such",  "than", "that",
    "the",   "their", "them",  "then", "there", "these",  "they", "this", "those", "to",   "use",
    "used",  "uses",  "using", "was",  "we",    "what",   "when", "with"};

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_vowel(char c) {
  return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
}

// Adds the stem of `word` unless it is a single character or a stop word.
void add_term(std::vector<std::string>& terms, std::string_view word) {
  if (word.size() < 2 || is_stop_word(word)) return;
  terms.push_back(stem(word));
}

// One run of word characters: the identifier without its outer underscores, then its parts.
void add_word(std::vector<std::string>& terms, std::string word) {
  std::transform(word.begin(), word.end(), word.begin(), [](char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  });
  const size_t first = word.find_first_not_of('_');
  if (first == std::string::npos) return;
  const std::string core = word.substr(first, word.find_last_not_of('_') - first + 1);
  add_term(terms, core);
  if (core.find('_') == std::string::npos) return;
  size_t start = 0;
  while (start <= core.size()) {
    const size_t end = std::min(core.find('_', start), core.size());
    if (end > start) add_term(terms, std::string_view(core).substr(start, end - start));
    start = end + 1;
  }
}

}  // namespace

bool is_stop_word(std::string_view word) {
  return std::binary_search(kStopWords.begin(), kStopWords.end(), word);
}

std::string stem(std::string_view text) {
  std::string word(text);
  if (word.size() < 4 ||
      !std::all_of(word.begin(), word.end(), [](char c) { return c >= 'a' && c <= 'z'; }))
    return word;
  if (word.ends_with("ies") && word.size() > 4)
    word.replace(word.size() - 3, 3, "y");
  else if (word.ends_with("sses"))
    word.resize(word.size() - 2);
  else if (word.back() == 's' && !word.ends_with("ss") && !word.ends_with("us") &&
           !word.ends_with("is") && !word.ends_with("as"))
    word.pop_back();
  for (std::string_view suffix : {"ation", "ition", "tion", "ing", "ed"}) {
    if (!word.ends_with(suffix) || word.size() < suffix.size() + 3) continue;
    word.resize(word.size() - suffix.size());
    const char last = word.back();
    const bool doubled = word.size() >= 4 && last == word[word.size() - 2] && !is_vowel(last) &&
                         last != 'l' && last != 's' && last != 'z';
    if (doubled && (suffix == "ing" || suffix == "ed")) word.pop_back();
    break;
  }
  if (word.size() >= 4 && word.back() == 'e') word.pop_back();
  return word;
}

std::vector<std::string> tokenize(std::string_view text) {
  std::vector<std::string> terms;
  size_t i = 0;
  while (i < text.size()) {
    if (!is_word_char(text[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && is_word_char(text[end])) ++end;
    add_word(terms, std::string(text.substr(i, end - i)));
    i = end;
  }
  return terms;
}

}  // namespace kopt
