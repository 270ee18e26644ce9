#include "util/json.h"

#include <nlohmann/json.hpp>

#include "util/files.h"

namespace kopt {

std::string dump_json(const Json& value, int indent) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

size_t json_too_deep_at(const std::string& text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string::npos;
}

Result<Json> parse_json(const std::string& text, const std::string& what) {
  if (const size_t at = json_too_deep_at(text); at != std::string::npos)
    return fail(what + " nests arrays or objects deeper than " + std::to_string(kMaxJsonDepth) +
                " (byte " + std::to_string(at) + ")");
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    return fail(what + " is not valid JSON (byte " + std::to_string(e.byte) + ")");
  } catch (const Json::exception& e) {  // A number out of range, for one.
    return fail(what + " is not valid JSON: " + e.what());
  }
}

Json parse_json_or_discarded(const std::string& text) {
  if (json_too_deep_at(text) != std::string::npos) return Json::value_t::discarded;
  return Json::parse(text, nullptr, false);
}

Result<Json> read_json_file(const std::filesystem::path& path) {
  auto text = read_file(path);
  if (!text) return text.error();
  return parse_json(*text, path.string());
}

Status write_json_file(const std::filesystem::path& path, const Json& value) {
  return write_file_atomic(path, dump_json(value, 2) + "\n");
}

const Json& json_member(const Json& object, const char* key) {
  static const Json empty;
  if (!object.is_object()) return empty;
  auto it = object.find(key);
  return it == object.end() ? empty : *it;
}

std::string json_text(const Json& object, const char* key, const std::string& fallback) {
  const Json& member = json_member(object, key);
  return member.is_string() ? member.get<std::string>() : fallback;
}

double json_number(const Json& object, const char* key, double fallback) {
  const Json& value = json_member(object, key);
  return value.is_number() ? value.get<double>() : fallback;
}

}  // namespace kopt
