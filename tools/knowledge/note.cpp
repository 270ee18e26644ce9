#include "tools/knowledge/note.h"

#include <algorithm>
#include <optional>
#include <system_error>

#include "util/files.h"
#include "util/strings.h"

namespace kopt {

bool Note::applies(const std::string& target) const {
  return std::find(applies_to.begin(), applies_to.end(), target) != applies_to.end();
}

namespace {

// "[a, b]" -> {"a", "b"}; a bare "a" -> {"a"}; surrounding quotes are dropped.
std::vector<std::string> parse_list(const std::string& value) {
  std::string inner = value;
  if (inner.size() >= 2 && inner.front() == '[' && inner.back() == ']')
    inner = inner.substr(1, inner.size() - 2);
  std::vector<std::string> items;
  for (const auto& field : split(inner, ',')) {
    std::string item = trim(field);
    if (item.size() >= 2 && (item.front() == '"' || item.front() == '\'') &&
        item.back() == item.front())
      item = item.substr(1, item.size() - 2);
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

std::string unquote(const std::string& value) {
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
      value.back() == value.front())
    return value.substr(1, value.size() - 2);
  return value;
}

// The text split into lines without their '\r'.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines = split(text, '\n');
  for (auto& line : lines)
    if (!line.empty() && line.back() == '\r') line.pop_back();
  return lines;
}

Status check_header(const Note& note, const std::string& source) {
  if (note.title.empty()) return fail(source + ": the header has no title");
  if (note.applies_to.empty())
    return fail(source + ": the header has no applies_to (cpu, cuda or both)");
  for (const auto& target : note.applies_to)
    if (target != "cpu" && target != "cuda")
      return fail(source + ": applies_to lists '" + target + "'; use cpu and/or cuda");
  if (note.body.empty()) return fail(source + ": the note has no body after its header");
  return {};
}

}  // namespace

Result<Note> parse_note(const std::string& text, const std::string& id, const std::string& source) {
  const std::vector<std::string> lines = lines_of(text);
  if (lines.empty() || trim(lines[0]) != "---")
    return fail(source + ": a note must start with a '---' header line");
  Note note;
  note.id = id;
  std::vector<std::string> seen;
  size_t end = 1;
  for (; end < lines.size() && trim(lines[end]) != "---"; ++end) {
    const std::string line = trim(lines[end]);
    if (line.empty()) continue;
    const std::string where = source + ":" + std::to_string(end + 1);
    const size_t colon = line.find(':');
    if (colon == std::string::npos) return fail(where + ": expected 'key: value' in the header");
    const std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      return fail(where + ": header key '" + key + "' given twice");
    seen.push_back(key);
    if (key == "title")
      note.title = unquote(value);
    else if (key == "applies_to")
      note.applies_to = parse_list(value);
    else if (key == "tags")
      note.tags = parse_list(value);
    else
      return fail(where + ": unknown header key '" + key +
                  "' (expected title, applies_to or tags)");
  }
  if (end == lines.size()) return fail(source + ": the header is not closed by a '---' line");
  std::vector<std::string> body(lines.begin() + static_cast<long>(end) + 1, lines.end());
  note.body = trim(join(body, "\n"));
  if (Status status = check_header(note, source); !status) return status.error();
  return note;
}

Result<std::vector<Note>> load_notes(const std::filesystem::path& dir) {
  std::error_code ec;
  std::vector<std::filesystem::path> paths;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".md" &&
        it->path().filename() != "README.md")
      paths.push_back(it->path());
  if (ec) return fail("cannot read the knowledge folder " + dir.string() + ": " + ec.message());
  if (paths.empty()) return fail("the knowledge folder " + dir.string() + " holds no notes (*.md)");
  std::sort(paths.begin(), paths.end());
  std::vector<Note> notes;
  for (const auto& path : paths) {
    Result<std::string> text = read_file(path);
    if (!text) return text.error();
    Result<Note> note = parse_note(*text, path.stem().string(), path.string());
    if (!note) return note.error();
    notes.push_back(std::move(*note));
  }
  return notes;
}

}  // namespace kopt
