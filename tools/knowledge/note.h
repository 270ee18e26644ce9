// A technique note of the knowledge base (prompts/knowledge/): a Markdown file that opens with
// a small header between '---' lines (title, applies_to, tags) followed by the body.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "util/result.h"

namespace kopt {

/// One technique note: its header fields and its Markdown body.
struct Note {
  std::string id;                       ///< The file stem ("loop_interchange").
  std::string title;                    ///< One line, from the header.
  std::vector<std::string> applies_to;  ///< "cpu", "cuda" or both.
  std::vector<std::string> tags;        ///< Extra search words.
  std::string body;                     ///< Everything after the header, trimmed.

  /// True when the note is about `target` ("cpu" or "cuda").
  bool applies(const std::string& target) const;
};

/// Parses a note's text; errors name `source` (usually the path) and the header line.
Result<Note> parse_note(const std::string& text, const std::string& id, const std::string& source);

/// Reads every *.md note in `dir` (README.md excepted), sorted by id; the first bad note, an
/// unreadable folder or an empty one is an Error.
Result<std::vector<Note>> load_notes(const std::filesystem::path& dir);

}  // namespace kopt
