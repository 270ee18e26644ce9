// Arithmetic expressions of the problem size, as the manifests write work per call:
// "2*n^3", "8*n*n + 16*n", "n*log2(n)". Numbers, n, + - * / ^, parentheses, log2, sqrt.
#pragma once

#include <cstddef>
#include <string>

#include "util/result.h"

namespace kopt {

/// The longest expression and the deepest nesting (parentheses, functions, signs, powers)
/// evaluate_expression accepts; past either it returns an error, never overflows the stack.
inline constexpr size_t kMaxExpressionLength = 4096;
inline constexpr int kMaxExpressionDepth = 200;

/// Evaluates `text` with the variable n; a syntax error names the position.
Result<double> evaluate_expression(const std::string& text, double n);

}  // namespace kopt
