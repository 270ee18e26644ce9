#include "tools/newbench/kernel_ast.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

constexpr size_t kAstOutputCap = 256 << 20;

std::vector<std::string> clang_command(const fs::path& file, const std::string& function,
                                       Dialect dialect) {
  std::vector<std::string> argv =
      dialect == Dialect::c ? std::vector<std::string>{"clang", "-x", "c", "-std=gnu17"}
                            : std::vector<std::string>{"clang++", "-x", "c++", "-std=gnu++20"};
  argv.insert(argv.end(), {"-fsyntax-only", "-fopenmp", "-Wno-everything", "-Xclang",
                           "-ast-dump=json", "-Xclang", "-ast-dump-filter=" + function,
                           "-I" + fs::absolute(file).parent_path().string(), file.string()});
  return argv;
}

// clang's first diagnostic that is an error, without the file's path.
std::string first_clang_error(const std::string& output) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);)
    if (line.find("error:") != std::string::npos) return trim(line);
  return trim(tail(output, 300));
}

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
  return trim(text->substr(from, to - from));
}

}  // namespace

Dialect dialect_of(const fs::path& file) {
  return file.extension() == ".c" ? Dialect::c : Dialect::cxx;
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

Result<FunctionAst> read_function_ast(ProcessRunner& runner, const fs::path& file,
                                      const std::string& function) {
  if (!fs::is_regular_file(file)) return fail("no such file: " + file.string());
  FunctionAst ast;
  ast.dialect = dialect_of(file);
  ProcessSpec spec;
  spec.argv = clang_command(file, function, ast.dialect);
  spec.env = {{"PATH", "/usr/bin:/bin"}, {"LC_ALL", "C"}};
  spec.timeout = std::chrono::seconds(120);
  spec.output_cap = kAstOutputCap;
  const ProcessResult parsed = runner.run(spec);
  if (parsed.spawn_failed || parsed.exit_code == 127)
    return fail("clang not found: kopt new reads kernels with clang (apt-get install clang)");
  if (!parsed.succeeded())
    return fail(file.string() + " does not compile: " + first_clang_error(parsed.output));
  std::istringstream stream(parsed.output);
  while (stream >> std::ws && !stream.eof()) {
    Json decl;
    try {
      stream >> decl;
    } catch (const Json::exception&) {
      break;  // Text between the documents (clang's notes): nothing more to read.
    }
    if (kind_of(decl) == "FunctionDecl" && decl.value("name", "") == function && has_body(decl)) {
      if (decl.value("storageClass", "") == "static")
        return fail(function +
                    " is static: kopt calls it from its own driver, so it needs "
                    "external linkage (remove 'static')");
      ast.decl = std::move(decl);
      ast.prototype = prototype_text(ast.decl, file);
      return ast;
    }
  }
  return fail(file.string() + " defines no function '" + function + "' (with a body)");
}

}  // namespace kopt
