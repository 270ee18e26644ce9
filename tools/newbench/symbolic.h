// Bounds of index expressions as text in the kernel's size parameters: what `kopt new` derives
// from a loop nest to size an array ("(m - 1)*n + n" for A[i*n + j], 0 <= i < m, 0 <= j < n).
// The text is C (and kopt's work-expression syntax): names, integers, + - * /, parentheses.
#pragma once

#include <optional>
#include <string>

namespace kopt {

/// A symbolic value: `term` (text; empty for none) plus a whole-number `constant`.
struct Sym {
  std::string term;
  long constant = 0;

  static Sym number(long value) { return {"", value}; }
  static Sym name(const std::string& identifier) { return {identifier, 0}; }
  bool is_constant() const { return term.empty(); }
  /// "n - 1", "(m - 1)*n + n", "4".
  std::string text() const;
};

Sym operator+(const Sym& a, const Sym& b);
Sym operator-(const Sym& a, const Sym& b);
Sym operator*(const Sym& a, const Sym& b);
/// Whole-number division by a positive constant.
Sym divide(const Sym& a, long divisor);

/// The values an expression can take inside a loop nest, [lo, hi]; nullopt where unknown.
/// Products assume non-negative operands (loop counters and sizes), as index arithmetic has.
struct Interval {
  Sym lo;
  Sym hi;
  static Interval point(const Sym& s) { return {s, s}; }
};

std::optional<Interval> add(const std::optional<Interval>& a, const std::optional<Interval>& b);
std::optional<Interval> subtract(const std::optional<Interval>& a,
                                 const std::optional<Interval>& b);
std::optional<Interval> multiply(const std::optional<Interval>& a,
                                 const std::optional<Interval>& b);
std::optional<Interval> divide(const std::optional<Interval>& a, const std::optional<Interval>& b);

}  // namespace kopt
