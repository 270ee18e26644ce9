#include "tools/newbench/kernel_ast.h"

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "tools/newbench/param_types.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

bool has_body(const Json& decl) {
  for (const auto& child : children(decl))
    if (kind_of(child) == "CompoundStmt") return true;
  return false;
}

// The definition's text from the start of its declaration to its body's '{', when both ends
// are plain offsets into `file` (not inside a macro expansion).
std::string prototype_text(const Json& decl, const fs::path& file) {
  const Json* body = nullptr;
  for (const auto& child : children(decl))
    if (kind_of(child) == "CompoundStmt") body = &child;
  const Json begin = decl.value("range", Json::object()).value("begin", Json::object());
  const Json end =
      body ? body->value("range", Json::object()).value("begin", Json::object()) : Json::object();
  if (!begin.contains("offset") || !end.contains("offset")) return {};
  auto text = read_file(file);
  const size_t from = begin["offset"].get<size_t>(), to = end["offset"].get<size_t>();
  if (!text || to <= from || to > text->size()) return {};
  return without_static(trim(text->substr(from, to - from)));
}

// The JSON documents clang prints for -ast-dump-filter, one per matching declaration.
std::vector<Json> ast_documents(const std::string& dump) {
  std::vector<Json> documents;
  std::istringstream stream(dump);
  while (stream >> std::ws && !stream.eof()) {
    Json decl;
    try {
      stream >> decl;
    } catch (const Json::exception&) {
      break;  // Text between the documents (clang's notes): nothing more to read.
    }
    documents.push_back(std::move(decl));
  }
  return documents;
}

// The type the typedef `name` stands for, as clang prints it; empty when it is no typedef.
std::string typedef_target(ProcessRunner& runner, const SourceFile& source,
                           const std::string& name) {
  auto dump = run_clang(
      runner, source,
      {"-fsyntax-only", "-Xclang", "-ast-dump=json", "-Xclang", "-ast-dump-filter=" + name});
  if (!dump) return {};
  for (const auto& decl : ast_documents(*dump))
    if (kind_of(decl) == "TypedefDecl" && decl.value("name", "") == name) {
      const Json type = decl.value("type", Json::object());
      return type.value("desugaredQualType", type.value("qualType", ""));
    }
  return {};
}

// A parameter whose element type is a typedef (`typedef char base; base seq[n]`) is read as the
// type it names: clang desugars only the outermost type, not a pointer's element.
void resolve_typedefs(ProcessRunner& runner, const SourceFile& source, Json& decl) {
  static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
  for (auto& param : decl["inner"]) {
    if (kind_of(param) != "ParmVarDecl" || !param.contains("type")) continue;
    Json& type = param["type"];
    std::string text = type.value("desugaredQualType", type.value("qualType", ""));
    for (int depth = 0; depth < 4; ++depth) {
      const std::string element = parse_param_type(text).element;
      if (is_integer_type(element) || is_floating_type(element) ||
          !std::regex_match(element, identifier))
        break;
      const std::string target = typedef_target(runner, source, element);
      if (target.empty()) break;
      text = std::regex_replace(text, std::regex("\\b" + element + "\\b"), target);
    }
    type["desugaredQualType"] = text;
  }
}

}  // namespace

std::string without_static(const std::string& definition) {
  static const std::regex leading_static(R"(^static\s+)");
  return std::regex_replace(definition, leading_static, "",
                            std::regex_constants::format_first_only);
}

const Json& strip_casts(const Json& node) {
  const Json* at = &node;
  while (kind_of(*at) == "ImplicitCastExpr" || kind_of(*at) == "ParenExpr" ||
         kind_of(*at) == "ConstantExpr" || kind_of(*at) == "ExprWithCleanups") {
    const Json& inner = children(*at);
    if (inner.empty()) break;
    at = &inner[0];
  }
  return *at;
}

const Json& children(const Json& node) {
  static const Json kNone = Json::array();
  if (!node.is_object() || !node.contains("inner") || !node["inner"].is_array()) return kNone;
  return node["inner"];
}

std::string kind_of(const Json& node) {
  return node.is_object() ? node.value("kind", "") : "";
}

Result<FunctionAst> read_function_ast(ProcessRunner& runner, const SourceFile& source,
                                      const std::string& function) {
  FunctionAst ast;
  ast.dialect = dialect_of(source.path);
  auto dump = run_clang(
      runner, source,
      {"-fsyntax-only", "-Xclang", "-ast-dump=json", "-Xclang", "-ast-dump-filter=" + function});
  if (!dump) return dump.error();
  for (auto& decl : ast_documents(*dump)) {
    if (kind_of(decl) == "FunctionDecl" && decl.value("name", "") == function && has_body(decl)) {
      ast.is_static = decl.value("storageClass", "") == "static";
      resolve_typedefs(runner, source, decl);
      ast.decl = std::move(decl);
      ast.prototype = prototype_text(ast.decl, source.path);
      return ast;
    }
  }
  return fail(source.path.string() + " defines no function '" + function + "' (with a body)");
}

}  // namespace kopt
