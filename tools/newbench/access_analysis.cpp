#include "tools/newbench/access_analysis.h"

#include <nlohmann/json.hpp>

#include "tools/newbench/kernel_ast.h"

namespace kopt {

namespace {

std::string opcode(const Json& node) {
  return node.is_object() ? node.value("opcode", "") : "";
}

std::string referenced(const Json& node) {
  const Json& ref = strip_casts(node);
  if (kind_of(ref) != "DeclRefExpr" || !ref.contains("referencedDecl")) return {};
  return ref["referencedDecl"].value("name", "");
}

// A loop's counter and the interval it runs over.
struct Counter {
  std::string name;
  std::optional<Interval> range;
};

class Walker {
 public:
  Walker(const std::set<std::string>& pointers, const std::set<std::string>& integers)
      : pointers_(pointers), integers_(integers) {}

  void walk(const Json& node) {
    const std::string kind = kind_of(node);
    if (kind == "ForStmt") return loop(node);
    const Json& inner = children(node);
    // An OpenMP region: its body is the CapturedDecl; the captured variables listed after it
    // and the clauses are not uses.
    if (kind == "CapturedStmt") {
      for (const auto& child : inner)
        if (kind_of(child) == "CapturedDecl") walk(child);
      return;
    }
    if (kind.rfind("OMP", 0) == 0 && kind.ends_with("Clause")) return;
    if (kind == "BinaryOperator" && opcode(node) == "=" && inner.size() == 2) {
      walk(inner[1]);
      return target(inner[0], false);
    }
    if (kind == "CompoundAssignOperator" && inner.size() == 2) {
      walk(inner[1]);
      return target(inner[0], true);
    }
    if (kind == "UnaryOperator" && !inner.empty()) {
      const std::string op = opcode(node);
      if (op == "++" || op == "--") return target(inner[0], true);
      if (op == "&") return escape_or_walk(inner[0]);
    }
    if ((kind == "ArraySubscriptExpr" || (kind == "UnaryOperator" && opcode(node) == "*")) &&
        record(node, true, false))
      return;
    if (kind == "DeclRefExpr" && pointers_.count(referenced(node))) {
      facts_.escaped.insert(referenced(node));
      return;
    }
    for (const auto& child : inner) walk(child);
  }

  AccessFacts take() { return std::move(facts_); }

 private:
  // The left-hand side of an assignment: a store (and a load for +=, ++).
  void target(const Json& lhs, bool also_load) {
    if (record(lhs, also_load, true)) return;
    if (kind_of(strip_casts(lhs)) == "DeclRefExpr") return;  // A local or a parameter itself.
    walk(lhs);
  }

  void escape_or_walk(const Json& operand) {
    Access probe;
    if (resolve(operand, probe)) {
      facts_.escaped.insert(probe.param);
      return;
    }
    walk(operand);
  }

  // An element of a pointer parameter: A[i][j], *p, *(p + i). False for anything else.
  bool resolve(const Json& expr, Access& access) {
    const Json* at = &strip_casts(expr);
    std::vector<const Json*> index_nodes;
    if (kind_of(*at) == "UnaryOperator" && opcode(*at) == "*") {
      if (children(*at).empty()) return false;
      const Json& pointer = strip_casts(children(*at)[0]);
      if (kind_of(pointer) == "BinaryOperator" && opcode(pointer) == "+" &&
          pointers_.count(referenced(children(pointer)[0]))) {
        access.param = referenced(children(pointer)[0]);
        access.indices.push_back(interval(children(pointer)[1]));
        walk(children(pointer)[1]);
        return true;
      }
      if (!pointers_.count(referenced(pointer))) return false;
      access.param = referenced(pointer);
      access.indices.push_back(Interval::point(Sym::number(0)));
      return true;
    }
    while (kind_of(*at) == "ArraySubscriptExpr" && children(*at).size() == 2) {
      index_nodes.insert(index_nodes.begin(), &children(*at)[1]);
      at = &strip_casts(children(*at)[0]);
    }
    if (index_nodes.empty() || !pointers_.count(referenced(*at))) return false;
    access.param = referenced(*at);
    for (const Json* index : index_nodes) {
      access.indices.push_back(interval(*index));
      walk(*index);
    }
    return true;
  }

  bool record(const Json& expr, bool load, bool store) {
    Access access;
    if (!resolve(expr, access)) return false;
    access.load = load;
    access.store = store;
    access.order = next_order_++;
    facts_.accesses.push_back(std::move(access));
    return true;
  }

  std::optional<Interval> interval(const Json& expr) {
    const Json& e = strip_casts(expr);
    const std::string kind = kind_of(e);
    if (kind == "IntegerLiteral")
      return Interval::point(Sym::number(std::stol(e.value("value", "0"))));
    if (kind == "DeclRefExpr") {
      const std::string name = referenced(e);
      for (auto it = counters_.rbegin(); it != counters_.rend(); ++it)
        if (it->name == name) return it->range;
      if (integers_.count(name)) return Interval::point(Sym::name(name));
      return std::nullopt;
    }
    const Json& inner = children(e);
    if (kind == "UnaryOperator" && inner.size() == 1) {
      if (opcode(e) == "-") return subtract(Interval::point(Sym::number(0)), interval(inner[0]));
      if (opcode(e) == "+") return interval(inner[0]);
    }
    if (kind != "BinaryOperator" || inner.size() != 2) return std::nullopt;
    const std::string op = opcode(e);
    const auto a = interval(inner[0]), b = interval(inner[1]);
    if (op == "+") return add(a, b);
    if (op == "-") return subtract(a, b);
    if (op == "*") return multiply(a, b);
    if (op == "/") return divide(a, b);
    return std::nullopt;
  }

  void note_bounds(const Json& node) {
    if (kind_of(node) == "DeclRefExpr" && integers_.count(referenced(node)))
      facts_.loop_bounds.insert(referenced(node));
    for (const auto& child : children(node)) note_bounds(child);
  }

  Counter counter_of(const Json& init, const Json& cond, const Json& inc);

  void loop(const Json& node) {
    const Json& inner = children(node);
    if (inner.size() != 5) {
      for (const auto& child : inner) walk(child);
      return;
    }
    walk(inner[0]);
    note_bounds(inner[2]);
    counters_.push_back(counter_of(inner[0], inner[2], inner[3]));
    walk(inner[2]);
    walk(inner[4]);
    walk(inner[3]);
    counters_.pop_back();
  }

  const std::set<std::string>& pointers_;
  const std::set<std::string>& integers_;
  std::vector<Counter> counters_;
  AccessFacts facts_;
  int next_order_ = 0;
};

// The counter's name and first value, from `int i = a` or `i = a`.
bool counter_start(const Json& init, std::string& name, const Json*& start) {
  if (kind_of(init) == "DeclStmt" && !children(init).empty()) {
    const Json& var = children(init)[0];
    if (kind_of(var) != "VarDecl" || children(var).empty()) return false;
    name = var.value("name", "");
    start = &children(var)[0];
    return true;
  }
  if (kind_of(init) == "BinaryOperator" && opcode(init) == "=" && children(init).size() == 2) {
    name = referenced(children(init)[0]);
    start = &children(init)[1];
    return !name.empty();
  }
  return false;
}

// +1 for a counter that grows (i++, ++i, i += c), -1 for one that shrinks, 0 when unclear.
int counter_step(const Json& inc, const std::string& name) {
  const std::string op = opcode(inc);
  if (children(inc).empty() || referenced(children(inc)[0]) != name) return 0;
  if (op == "++" || op == "+=") return 1;
  if (op == "--" || op == "-=") return -1;
  return 0;
}

Counter Walker::counter_of(const Json& init, const Json& cond, const Json& inc) {
  Counter counter;
  const Json* start = nullptr;
  if (!counter_start(init, counter.name, start)) return counter;
  const int step = counter_step(inc, counter.name);
  if (kind_of(cond) != "BinaryOperator" || children(cond).size() != 2 || step == 0) return counter;
  std::string op = opcode(cond);
  const Json* bound = &children(cond)[1];
  if (referenced(children(cond)[0]) != counter.name) {
    if (referenced(children(cond)[1]) != counter.name) return counter;
    bound = &children(cond)[0];
    op = op == "<" ? ">" : op == ">" ? "<" : op == "<=" ? ">=" : op == ">=" ? "<=" : op;
  }
  const auto first = interval(*start), limit = interval(*bound);
  if (!first || !limit) return counter;
  const Sym one = Sym::number(1);
  if (step > 0 && (op == "<" || op == "!="))
    counter.range = Interval{first->lo, limit->hi - one};
  else if (step > 0 && op == "<=")
    counter.range = Interval{first->lo, limit->hi};
  else if (step < 0 && op == ">=")
    counter.range = Interval{limit->lo, first->hi};
  else if (step < 0 && op == ">")
    counter.range = Interval{limit->lo + one, first->hi};
  return counter;
}

}  // namespace

AccessFacts analyze_accesses(const Json& function_decl, const std::set<std::string>& pointers,
                             const std::set<std::string>& integers) {
  Walker walker(pointers, integers);
  for (const auto& child : children(function_decl))
    if (kind_of(child) == "CompoundStmt") walker.walk(child);
  return walker.take();
}

}  // namespace kopt
