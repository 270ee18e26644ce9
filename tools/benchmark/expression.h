// Arithmetic expressions of the problem size, as the manifests write work per call:
// "2*n^3", "8*n*n + 16*n", "n*log2(n)", "2*ni*nj*nk". Numbers, variables (n and the manifest's
// named sizes), + - * / ^, parentheses, log2, sqrt.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "util/result.h"

namespace kopt {

/// The longest expression and the deepest nesting (parentheses, functions, signs, powers)
/// evaluate_expression accepts; past either it returns an error, never overflows the stack.
inline constexpr size_t kMaxExpressionLength = 4096;
inline constexpr int kMaxExpressionDepth = 200;

/// Values of the variables an expression may name ("n", "ni", "tsteps", ...).
using Variables = std::map<std::string, double>;

/// Evaluates `text` with the variable n; a syntax error names the position.
Result<double> evaluate_expression(const std::string& text, double n);

/// Evaluates `text` with the given variables; an unknown name is an error.
Result<double> evaluate_expression(const std::string& text, const Variables& variables);

}  // namespace kopt
