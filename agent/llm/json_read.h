// Defensive reading of JSON that came from outside (a provider, a file, a command): a missing
// member or one of the wrong type reads as empty instead of throwing. For .cpp files only: it
// needs the full nlohmann header.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "util/json.h"

namespace kopt::llm {

/// The member `key` of `object`, or nullptr when `object` is no object or lacks it.
inline const Json* member(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

/// The string member `key`, or "" when absent or not a string.
inline std::string string_at(const Json& object, const char* key) {
  const Json* value = member(object, key);
  return value && value->is_string() ? value->get<std::string>() : std::string();
}

/// The integer member `key`, or `fallback` when absent, not a number or out of int64's range.
inline int64_t int_at(const Json& object, const char* key, int64_t fallback = 0) {
  const Json* value = member(object, key);
  if (!value || !value->is_number()) return fallback;
  if (!value->is_number_float()) return value->get<int64_t>();
  const double number = value->get<double>();
  // A float past int64's range (or NaN) has no integer value: converting it is undefined.
  if (!(number > -9.2e18 && number < 9.2e18)) return fallback;
  return static_cast<int64_t>(number);
}

/// The token count `key` as a backend reported it: a number from 0 to 1e12, else `fallback`. A
/// server's -9e18 or 2^64-1 would slip past a token budget or overflow the run's sum.
inline int64_t token_count_at(const Json& object, const char* key, int64_t fallback = 0) {
  const Json* value = member(object, key);
  if (!value || !value->is_number()) return fallback;
  const double count = value->get<double>();
  return count >= 0 && count <= 1e12 ? static_cast<int64_t>(count) : fallback;
}

/// The array member `key`, or an empty array when absent or not an array.
inline const Json& array_at(const Json& object, const char* key) {
  static const Json empty = Json::array();
  const Json* value = member(object, key);
  return value && value->is_array() ? *value : empty;
}

/// The object member `key`, or an empty object when absent or not an object.
inline const Json& object_at(const Json& object, const char* key) {
  static const Json empty = Json::object();
  const Json* value = member(object, key);
  return value && value->is_object() ? *value : empty;
}

}  // namespace kopt::llm
