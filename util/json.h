// The one place kopt turns JSON into text and text into JSON. Model and compiler output can
// hold invalid UTF-8, so every dump replaces bad bytes instead of throwing.
#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "util/result.h"

namespace kopt {

using Json = nlohmann::json;

/// Serializes compactly (indent < 0) or pretty-printed; invalid UTF-8 is replaced.
std::string dump_json(const Json& value, int indent = -1);

/// The member `key` of `object`, or a null value when it is absent (or `object` is no object).
const Json& json_member(const Json& object, const char* key);

/// The member `key` of `object` when it is a string, else `fallback`: never throws.
std::string json_text(const Json& object, const char* key, const std::string& fallback = "");

/// The member `key` of `object` when it is a number, else `fallback`: never throws.
double json_number(const Json& object, const char* key, double fallback);

/// The deepest nesting of arrays and objects parse_json accepts.
inline constexpr int kMaxJsonDepth = 128;

/// The byte offset where brackets outside strings first nest deeper than kMaxJsonDepth, or npos.
/// Checked before parsing so that no deep structure is ever built (or copied recursively).
size_t json_too_deep_at(const std::string& text);

/// Parses text; a syntax error, a number out of range or nesting deeper than kMaxJsonDepth
/// becomes an Error naming `what` (and the byte where it applies). Never throws.
Result<Json> parse_json(const std::string& text, const std::string& what);

/// Parses text, or returns a discarded value (is_discarded()) where parse_json fails.
Json parse_json_or_discarded(const std::string& text);

/// Reads (read_file: regular files only, bounded size) and parses a JSON file.
Result<Json> read_json_file(const std::filesystem::path& path);

/// Writes pretty-printed JSON atomically (temporary file, then rename).
Status write_json_file(const std::filesystem::path& path, const Json& value);

}  // namespace kopt
