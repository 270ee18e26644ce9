#include "agent/loop/prompts.h"

#include "util/files.h"
#include "util/hash.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

Result<PromptSet> PromptSet::load(const fs::path& dir) {
  PromptSet set;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".md") continue;
    auto text = read_file(entry.path());
    if (!text) return text.error();
    set.templates_[entry.path().stem().string()] = *text;
  }
  if (set.templates_.empty()) return fail("no prompt templates in " + dir.string());
  return set;
}

Result<std::string> fill_placeholders(const std::string& text, const PromptValues& values) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t open = text.find("{{", pos);
    if (open == std::string::npos) break;
    size_t close = text.find("}}", open);
    if (close == std::string::npos)
      return fail("unclosed '{{' at character " + std::to_string(open));
    out += text.substr(pos, open - pos);
    const std::string key = trim(text.substr(open + 2, close - open - 2));
    auto it = values.find(key);
    if (it == values.end()) return fail("no value for the placeholder {{" + key + "}}");
    out += it->second;
    pos = close + 2;
  }
  return out + text.substr(pos);
}

Result<std::string> PromptSet::render(const std::string& name, const PromptValues& values) const {
  auto it = templates_.find(name);
  if (it == templates_.end()) return fail("no prompt template '" + name + "'");
  auto text = fill_placeholders(it->second, values);
  if (!text) return fail("prompt " + name + ": " + text.error().message);
  return text;
}

Json PromptSet::hashes() const {
  Json hashes = Json::object();
  for (const auto& [name, text] : templates_) hashes[name] = hash_hex(text);
  return hashes;
}

}  // namespace kopt
