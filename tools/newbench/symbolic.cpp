#include "tools/newbench/symbolic.h"

#include <cctype>

namespace kopt {

namespace {

bool is_simple(const std::string& text) {
  for (char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

std::string wrapped(const std::string& text) {
  return is_simple(text) ? text : "(" + text + ")";
}

// k * s for a constant k.
Sym scale(const Sym& s, long k) {
  if (k == 0) return Sym::number(0);
  if (k == 1 || s.is_constant()) return {k == 1 ? s.term : "", s.constant * k};
  return {std::to_string(k) + "*" + wrapped(s.term), s.constant * k};
}

}  // namespace

std::string Sym::text() const {
  if (term.empty()) return std::to_string(constant);
  if (constant == 0) return term;
  return term + (constant > 0 ? " + " : " - ") +
         std::to_string(constant > 0 ? constant : -constant);
}

Sym operator+(const Sym& a, const Sym& b) {
  if (a.term.empty() || b.term.empty())
    return {a.term.empty() ? b.term : a.term, a.constant + b.constant};
  return {a.term + " + " + b.term, a.constant + b.constant};
}

Sym operator-(const Sym& a, const Sym& b) {
  if (b.term.empty()) return {a.term, a.constant - b.constant};
  if (a.term == b.term) return Sym::number(a.constant - b.constant);
  const std::string left = a.term.empty() ? "" : a.term + " ";
  return {left + "- " + wrapped(b.term), a.constant - b.constant};
}

Sym operator*(const Sym& a, const Sym& b) {
  if (a.is_constant()) return scale(b, a.constant);
  if (b.is_constant()) return scale(a, b.constant);
  return {wrapped(a.text()) + "*" + wrapped(b.text()), 0};
}

Sym divide(const Sym& a, long divisor) {
  if (divisor == 1) return a;
  if (a.is_constant()) return Sym::number(a.constant / divisor);
  return {wrapped(a.text()) + "/" + std::to_string(divisor), 0};
}

std::optional<Interval> add(const std::optional<Interval>& a, const std::optional<Interval>& b) {
  if (!a || !b) return std::nullopt;
  return Interval{a->lo + b->lo, a->hi + b->hi};
}

std::optional<Interval> subtract(const std::optional<Interval>& a,
                                 const std::optional<Interval>& b) {
  if (!a || !b) return std::nullopt;
  return Interval{a->lo - b->hi, a->hi - b->lo};
}

std::optional<Interval> multiply(const std::optional<Interval>& a,
                                 const std::optional<Interval>& b) {
  if (!a || !b) return std::nullopt;
  for (const auto& [k, other] : {std::pair{*a, *b}, std::pair{*b, *a}}) {
    if (!k.lo.is_constant() || k.lo.constant != k.hi.constant || !k.hi.is_constant()) continue;
    const long c = k.lo.constant;
    if (c >= 0) return Interval{other.lo * k.lo, other.hi * k.lo};
    return Interval{other.hi * k.lo, other.lo * k.lo};
  }
  return Interval{a->lo * b->lo, a->hi * b->hi};
}

std::optional<Interval> divide(const std::optional<Interval>& a, const std::optional<Interval>& b) {
  if (!a || !b || !b->lo.is_constant() || !b->hi.is_constant() || b->lo.constant <= 0 ||
      b->lo.constant != b->hi.constant)
    return std::nullopt;
  return Interval{divide(a->lo, b->lo.constant), divide(a->hi, b->lo.constant)};
}

}  // namespace kopt
