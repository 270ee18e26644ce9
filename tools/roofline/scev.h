// LLVM scalar-evolution expressions as `opt -passes=print<scalar-evolution>` prints them:
// "{{%a,+,(8 * %n)}<%outer>,+,8}<nw><%inner>", "(-1 + (zext i32 %d to i64))<nsw>",
// "(%n smax 1)", "***COULDNOTCOMPUTE***". Parsed into a tree and evaluated numerically with
// the values kopt assumes for the function's parameters and loops.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kopt {

/// One node of a SCEV expression.
struct Scev {
  enum class Kind { constant, unknown, add, mul, udiv, max, min, cast, addrec, not_computable };
  Kind kind = Kind::not_computable;
  double value = 0;  ///< constant
  std::string name;  ///< unknown: "%n", "@g"; addrec: the loop ("%for.body")
  std::vector<std::shared_ptr<Scev>> operands;  ///< addrec: start, step, ...
};

using ScevPtr = std::shared_ptr<Scev>;

/// The longest SCEV text and the deepest nesting parse_scev reads (opt prints far less).
inline constexpr size_t kMaxScevLength = 65536;
inline constexpr int kMaxScevDepth = 100;

/// Parses a printed SCEV; nullopt when the text is not one kopt can read or exceeds the limits.
std::optional<ScevPtr> parse_scev(const std::string& text);

/// Values of the names in an expression: parameters ("%n") and loops' trip counts.
struct ScevEnvironment {
  /// The value of an unknown ("%n"); nullopt when unknown.
  std::function<std::optional<double>(const std::string&)> value;
  /// The trip count of a loop ("%for.body"); nullopt when unknown.
  std::function<std::optional<double>(const std::string&)> trips;
};

/// The numeric value; an add recurrence takes its mean over its loop. Nullopt when a name has
/// no value or the expression cannot be computed.
std::optional<double> evaluate(const Scev& scev, const ScevEnvironment& env);

/// The extent in bytes (last minus first address) an address expression sweeps: for each add
/// recurrence |step| x (trips - 1), summed through the nest. Nullopt when not computable.
std::optional<double> span(const Scev& scev, const ScevEnvironment& env);

/// The loops named by the add recurrences in an expression.
std::vector<std::string> recurrence_loops(const Scev& scev);

}  // namespace kopt
