#include "tools/benchmark/expression.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace kopt {

namespace {

// Recursive descent: sum := product (('+'|'-') product)*; product := power (('*'|'/') power)*;
// power := unary ('^' power)?; unary := '-' unary | atom; atom := number | name | f(sum) | (sum).
class Parser {
 public:
  Parser(const std::string& text, const Variables& variables)
      : text_(text), variables_(variables) {}

  Result<double> parse() {
    double value = sum();
    skip_space();
    if (error_.empty() && pos_ != text_.size())
      error_ = "unexpected '" + text_.substr(pos_, 1) + "'";
    if (!error_.empty()) return fail(error_ + " at position " + std::to_string(pos_));
    return value;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  double sum() {
    double value = product();
    while (error_.empty()) {
      if (accept('+'))
        value += product();
      else if (accept('-'))
        value -= product();
      else
        break;
    }
    return value;
  }
  double product() {
    double value = power();
    while (error_.empty()) {
      if (accept('*'))
        value *= power();
      else if (accept('/'))
        value /= power();
      else
        break;
    }
    return value;
  }
  double power() {
    double base = unary();
    if (!accept('^')) return base;
    if (!deeper()) return 0;  // '^' is right-associative: each one nests a level.
    const double exponent = power();
    --depth_;
    return std::pow(base, exponent);
  }
  // Counts a level of nesting; false (with the error set) past the bound, so that the depth is
  // bounded here instead of by the stack.
  bool deeper() {
    if (error_.empty() && ++depth_ > kMaxExpressionDepth)
      error_ = "nested deeper than " + std::to_string(kMaxExpressionDepth) + " levels";
    return error_.empty();
  }
  // Every '(', f( and unary '-' passes through here.
  double unary() {
    if (!deeper()) return 0;
    const double value = accept('-') ? -unary() : atom();
    --depth_;
    return value;
  }
  double atom() {
    skip_space();
    if (accept('(')) {
      double value = sum();
      if (!accept(')') && error_.empty()) error_ = "missing ')'";
      return value;
    }
    if (pos_ < text_.size() &&
        (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.')) {
      char* end = nullptr;
      double value = std::strtod(text_.c_str() + pos_, &end);
      pos_ = static_cast<size_t>(end - text_.c_str());
      return value;
    }
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    std::string word = text_.substr(start, pos_ - start);
    if (word == "log2" || word == "sqrt") {
      if (!accept('(')) {
        error_ = "expected '(' after " + word;
        return 0;
      }
      double arg = sum();
      if (!accept(')') && error_.empty()) error_ = "missing ')'";
      return word == "log2" ? std::log2(arg) : std::sqrt(arg);
    }
    if (auto it = variables_.find(word); it != variables_.end()) return it->second;
    error_ = word.empty() ? "expected a number, a name or '('" : "unknown name '" + word + "'";
    return 0;
  }

  const std::string& text_;
  const Variables& variables_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::string error_;
};

}  // namespace

Result<double> evaluate_expression(const std::string& text, double n) {
  return evaluate_expression(text, Variables{{"n", n}});
}

Result<double> evaluate_expression(const std::string& text, const Variables& variables) {
  if (text.size() > kMaxExpressionLength)
    return fail("longer than " + std::to_string(kMaxExpressionLength) + " characters");
  return Parser(text, variables).parse();
}

}  // namespace kopt
