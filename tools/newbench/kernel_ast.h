// Reading one function of a user's source file with clang: its JSON AST (clang -Xclang
// -ast-dump=json -Xclang -ast-dump-filter=F -fsyntax-only), never a parser of our own.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "sandbox/process.h"
#include "tools/benchmark/benchmark.h"
#include "tools/newbench/source_file.h"
#include "util/json.h"
#include "util/result.h"

namespace kopt {

/// The definition of one function as clang sees it.
struct FunctionAst {
  Json decl;              ///< clang's FunctionDecl: its ParmVarDecls and its body.
  std::string prototype;  ///< The definition's text up to its body; empty when not plain text.
  Dialect dialect = Dialect::cxx;
  bool is_static = false;  ///< Declared `static`: only a copy without it can be called.
};

/// Parses the file with clang (source_file.h) and returns the definition of `function`. Errors
/// say, in one line, that the file does not compile (with clang's first error), that it defines
/// no such function, or that clang is missing.
Result<FunctionAst> read_function_ast(ProcessRunner& runner, const SourceFile& source,
                                      const std::string& function);

/// The definition's text without a leading `static` (and the space after it).
std::string without_static(const std::string& definition);

/// Skips implicit casts and parentheses.
const Json& strip_casts(const Json& node);

/// The children of an AST node (an empty array for none).
const Json& children(const Json& node);

/// The node's kind ("ForStmt", "DeclRefExpr", ...); empty for a null child.
std::string kind_of(const Json& node);

}  // namespace kopt
