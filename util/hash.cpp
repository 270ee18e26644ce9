#include "util/hash.h"

#include <xxhash.h>

#include <cstdio>

#include "util/files.h"

namespace kopt {

Hasher::Hasher() : state_(XXH3_createState()) {
  XXH3_128bits_reset(static_cast<XXH3_state_t*>(state_));
}

Hasher::~Hasher() {
  XXH3_freeState(static_cast<XXH3_state_t*>(state_));
}

Hasher& Hasher::add(std::string_view field) {
  auto* state = static_cast<XXH3_state_t*>(state_);
  const unsigned long long size = field.size();
  XXH3_128bits_update(state, &size, sizeof size);
  XXH3_128bits_update(state, field.data(), field.size());
  return *this;
}

Hasher& Hasher::add_file(const std::filesystem::path& path) {
  add(path.filename().string());
  auto content = read_file(path);
  return add(content ? *content : std::string("\0missing", 8));
}

std::string Hasher::hex() const {
  XXH128_hash_t digest = XXH3_128bits_digest(static_cast<XXH3_state_t*>(state_));
  char text[33];
  std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(digest.high64),
                static_cast<unsigned long long>(digest.low64));
  return text;
}

std::string hash_hex(std::string_view data) {
  return Hasher().add(data).hex();
}

}  // namespace kopt
