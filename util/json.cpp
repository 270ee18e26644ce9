#include "util/json.h"

#include <nlohmann/json.hpp>

#include "util/files.h"

namespace kopt {

std::string dump_json(const Json& value, int indent) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

Result<Json> parse_json(const std::string& text, const std::string& what) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    return fail(what + " is not valid JSON (byte " + std::to_string(e.byte) + ")");
  }
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

}  // namespace kopt
