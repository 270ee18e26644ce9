#include "tools/newbench/kernel_text.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "util/files.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

using OrderedJson = nlohmann::ordered_json;

struct Span {
  size_t from = 0, to = 0;
};

// clang's JSON names a location's file only where it differs from the location written before
// (in document order, nested nodes included), so the file of a declaration is the last one
// named up to its own location.
void follow_file(const OrderedJson& node, std::string& file) {
  if (node.is_array()) {
    for (const auto& child : node) follow_file(child, file);
    return;
  }
  if (!node.is_object()) return;
  for (const auto& [key, value] : node.items()) {
    if (key == "file" && value.is_string())
      file = value.get<std::string>();
    else if (key != "includedFrom")
      follow_file(value, file);
  }
}

// Where a location starts in the file, or (`past` set) where its token ends; a location in a
// macro counts where the macro is used.
size_t offset_of(const OrderedJson& location, bool past = false) {
  const OrderedJson& at = location.contains("expansionLoc") ? location["expansionLoc"] : location;
  return at.value("offset", size_t{0}) + (past ? at.value("tokLen", size_t{0}) : 0);
}

bool has_body(const OrderedJson& decl) {
  for (const auto& child : decl.value("inner", OrderedJson::array()))
    if (child.value("kind", "") == "CompoundStmt") return true;
  return false;
}

// The spans of the function definitions of the main file: the kernel's, and the others'.
Result<std::vector<std::pair<std::string, Span>>> definitions(ProcessRunner& runner,
                                                              const SourceFile& source) {
  auto dump = run_clang(runner, source, {"-fsyntax-only", "-Xclang", "-ast-dump=json"});
  if (!dump) return dump.error();
  OrderedJson unit = OrderedJson::parse(*dump, nullptr, false);
  if (unit.is_discarded()) return fail("clang's AST of " + source.path.string() + " is not JSON");
  const std::string main_file = fs::absolute(source.path).string();
  std::vector<std::pair<std::string, Span>> found;
  std::string file;
  for (const auto& decl : unit.value("inner", OrderedJson::array())) {
    follow_file(decl.value("loc", OrderedJson::object()), file);
    const bool in_main = file == main_file;
    follow_file(decl, file);
    if (!in_main || decl.value("kind", "") != "FunctionDecl" || !has_body(decl)) continue;
    const OrderedJson& range = decl["range"];
    found.push_back(
        {decl.value("name", ""), {offset_of(range["begin"]), offset_of(range["end"], true)}});
  }
  return found;
}

// A removed function takes with it the /* comment */ right above it and the blank lines after
// it, so that no orphan comment or gap is left where it was.
Span widened(const std::string& text, Span span) {
  size_t before = span.from;
  while (before > 0 && std::isspace(static_cast<unsigned char>(text[before - 1]))) --before;
  if (before >= 2 && text.compare(before - 2, 2, "*/") == 0) {
    const size_t open = text.rfind("/*", before - 2);
    if (open != std::string::npos && (open == 0 || text[open - 1] == '\n')) span.from = open;
  }
  while (span.to < text.size() && std::isspace(static_cast<unsigned char>(text[span.to])))
    ++span.to;
  return span;
}

}  // namespace

Result<std::string> kernel_file_text(ProcessRunner& runner, const SourceFile& source,
                                     const FunctionAst& kernel, bool extract) {
  auto text = read_file(source.path);
  if (!text || !extract) return text;
  auto spans = definitions(runner, source);
  if (!spans) return spans.error();
  std::sort(spans->begin(), spans->end(),
            [](const auto& a, const auto& b) { return a.second.from > b.second.from; });
  const std::string name = kernel.decl.value("name", "");
  for (const auto& [function, span] : *spans) {
    if (span.to <= span.from || span.to > text->size()) continue;
    if (function != name) {
      const Span cut = widened(*text, span);
      text->erase(cut.from, cut.to - cut.from);
    } else {
      const std::string definition = text->substr(span.from, span.to - span.from);
      text->replace(span.from, span.to - span.from, without_static(definition));
    }
  }
  return text;
}

}  // namespace kopt
