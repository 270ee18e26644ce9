#include "tools/roofline/scev.h"

#include <cctype>
#include <cmath>

namespace kopt {

namespace {

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  std::optional<ScevPtr> parse() {
    auto node = expression();
    skip_space();
    if (!node || pos_ != text_.size()) return std::nullopt;
    return node;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }
  bool eat(const std::string& token) {
    skip_space();
    if (text_.compare(pos_, token.size(), token) != 0) return false;
    pos_ += token.size();
    return true;
  }
  // Skips "<nsw>", "<nuw>", "<nw>" and returns a loop tag "<%name>" if one follows.
  std::string flags() {
    std::string loop;
    while (pos_ < text_.size() && text_[pos_] == '<') {
      const auto close = text_.find('>', pos_);
      if (close == std::string::npos) break;
      const std::string tag = text_.substr(pos_ + 1, close - pos_ - 1);
      if (!tag.empty() && tag[0] == '%') loop = tag;
      pos_ = close + 1;
    }
    return loop;
  }
  std::string word() {
    skip_space();
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != ' ' && text_[pos_] != ')' && text_[pos_] != ',' &&
           text_[pos_] != '}' && text_[pos_] != '<') {
      if (text_[pos_] == '"')
        pos_ = std::min(text_.find('"', pos_ + 1), text_.size() - 1);  // %"a b"
      ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }

  ScevPtr make(Scev::Kind kind) {
    auto node = std::make_shared<Scev>();
    node->kind = kind;
    return node;
  }

  // Every nesting ({...}, (...)) passes through here, so its depth is bounded here.
  ScevPtr expression() {
    if (++depth_ > kMaxScevDepth) return nullptr;
    auto node = term();
    --depth_;
    return node;
  }

  ScevPtr term() {
    skip_space();
    if (eat("***COULDNOTCOMPUTE***")) return make(Scev::Kind::not_computable);
    if (eat("{")) return recurrence();
    if (eat("(")) return group();
    const std::string token = word();
    if (token.empty()) return nullptr;
    ScevPtr node;
    if (token[0] == '%' || token[0] == '@') {
      node = make(Scev::Kind::unknown);
      node->name = token;
    } else {
      char* end = nullptr;
      const double v = std::strtod(token.c_str(), &end);
      if (*end != '\0') return nullptr;
      node = make(Scev::Kind::constant);
      node->value = v;
    }
    flags();
    return node;
  }

  ScevPtr recurrence() {
    auto node = make(Scev::Kind::addrec);
    do {
      auto operand = expression();
      if (!operand) return nullptr;
      node->operands.push_back(operand);
    } while (eat(",+,"));
    if (!eat("}")) return nullptr;
    node->name = flags();
    return node;
  }

  // "(zext i32 X to i64)", "(A + B)", "(A * B)", "(A /u B)", "(A smax B)".
  ScevPtr group() {
    for (const char* cast : {"zext ", "sext ", "trunc ", "ptrtoint "}) {
      if (!eat(cast)) continue;
      word();  // the source type
      auto node = make(Scev::Kind::cast);
      auto operand = expression();
      if (!operand || !eat("to")) return nullptr;
      word();
      node->operands.push_back(operand);
      return close(node);
    }
    auto first = expression();
    if (!first) return nullptr;
    ScevPtr node;
    static const std::pair<const char*, Scev::Kind> kOps[] = {
        {"+", Scev::Kind::add},    {"*", Scev::Kind::mul},       {"/u", Scev::Kind::udiv},
        {"smax", Scev::Kind::max}, {"umax", Scev::Kind::max},    {"smin", Scev::Kind::min},
        {"umin", Scev::Kind::min}, {"umin_seq", Scev::Kind::min}};
    while (!eat(")")) {
      bool matched = false;
      for (const auto& [op, kind] : kOps) {
        if (!eat(std::string(" ") + op + " ") && !eat(std::string(op) + " ")) continue;
        if (!node) node = make(kind), node->operands.push_back(first);
        auto operand = expression();
        if (!operand) return nullptr;
        node->operands.push_back(operand);
        matched = true;
        break;
      }
      if (!matched) return nullptr;
    }
    flags();
    return node ? node : first;
  }

  ScevPtr close(ScevPtr node) {
    if (!eat(")")) return nullptr;
    flags();
    return node;
  }

  const std::string& text_;
  size_t pos_ = 0;
  int depth_ = 0;
};

std::optional<double> fold(const Scev& s, const ScevEnvironment& env) {
  std::optional<double> acc;
  for (const auto& op : s.operands) {
    auto v = evaluate(*op, env);
    if (!v) return std::nullopt;
    if (!acc)
      acc = *v;
    else if (s.kind == Scev::Kind::add)
      *acc += *v;
    else if (s.kind == Scev::Kind::mul)
      *acc *= *v;
    else if (s.kind == Scev::Kind::udiv)
      acc = *v != 0 ? std::floor(*acc / *v) : 0;
    else if (s.kind == Scev::Kind::max)
      acc = std::max(*acc, *v);
    else
      acc = std::min(*acc, *v);
  }
  return acc;
}

}  // namespace

std::optional<ScevPtr> parse_scev(const std::string& text) {
  if (text.size() > kMaxScevLength) return std::nullopt;
  return Parser(text).parse();
}

std::optional<double> evaluate(const Scev& s, const ScevEnvironment& env) {
  switch (s.kind) {
    case Scev::Kind::constant:
      return s.value;
    case Scev::Kind::unknown:
      return env.value ? env.value(s.name) : std::nullopt;
    case Scev::Kind::cast:
      return evaluate(*s.operands.front(), env);
    case Scev::Kind::addrec: {
      auto start = evaluate(*s.operands.front(), env);
      auto step = s.operands.size() > 1 ? evaluate(*s.operands[1], env) : std::optional<double>(0);
      auto trips = env.trips ? env.trips(s.name) : std::nullopt;
      if (!start || !step || !trips) return std::nullopt;
      return *start + *step * (*trips - 1) / 2;
    }
    case Scev::Kind::not_computable:
      return std::nullopt;
    default:
      return fold(s, env);
  }
}

std::optional<double> span(const Scev& s, const ScevEnvironment& env) {
  if (s.kind == Scev::Kind::cast) return span(*s.operands.front(), env);
  if (s.kind == Scev::Kind::add) {
    double total = 0;
    for (const auto& op : s.operands) {
      auto part = span(*op, env);
      if (!part) return std::nullopt;
      total += *part;
    }
    return total;
  }
  if (s.kind == Scev::Kind::not_computable) return std::nullopt;
  if (s.kind != Scev::Kind::addrec) {
    if (recurrence_loops(s).empty()) return 0.0;  // a loop-invariant offset
    return std::nullopt;
  }
  auto inner = span(*s.operands.front(), env);
  auto step = s.operands.size() > 1 ? evaluate(*s.operands[1], env) : std::nullopt;
  auto trips = env.trips ? env.trips(s.name) : std::nullopt;
  if (!inner || !step || !trips) return std::nullopt;
  return *inner + std::abs(*step) * std::max(0.0, *trips - 1);
}

std::vector<std::string> recurrence_loops(const Scev& s) {
  std::vector<std::string> loops;
  if (s.kind == Scev::Kind::addrec) loops.push_back(s.name);
  for (const auto& op : s.operands)
    for (auto& loop : recurrence_loops(*op)) loops.push_back(loop);
  return loops;
}

}  // namespace kopt
