#include "tools/newbench/array_extent.h"

#include <algorithm>
#include <cctype>

#include "tools/newbench/param_types.h"
#include "util/strings.h"

namespace kopt {

namespace {

std::string factor(const std::string& text) {
  for (char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return "(" + text + ")";
  return text;
}

bool is_number(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

// The largest of several lengths: the one at least as large as every other at a few scales,
// or, when none is, their sum (a bound: the elements past the largest length are never
// touched, and the array is then classified in/out, so they compare equal).
std::string largest(const KernelSignature& sig, const std::vector<std::string>& lengths) {
  if (lengths.size() == 1) return lengths.front();
  for (const auto& candidate : lengths) {
    bool dominates = true;
    for (long n : {1L, 7L, 64L, 1000L}) {
      auto values = parameter_values(sig, n);
      if (!values) return "";
      const double mine = evaluate_expression(candidate, *values).value_or(-1);
      for (const auto& other : lengths)
        if (evaluate_expression(other, *values).value_or(1e300) > mine) dominates = false;
    }
    if (dominates) return candidate;
  }
  std::vector<std::string> factors;
  for (const auto& length : lengths) factors.push_back(factor(length));
  return join(factors, " + ");
}

Error unknown_length(const KernelParam& p, const std::string& because) {
  return fail("cannot tell how many elements '" + p.name + "' has: " + because +
              "; say it with --extent " + p.name + "=EXPR (e.g. --extent " + p.name + "=n*m)");
}

// The first dimension's length from the accesses; empty (with the reason) when unknown.
Result<std::string> first_length(const KernelSignature& sig, const KernelParam& p,
                                 const std::vector<const Access*>& accesses) {
  std::vector<std::string> lengths;
  for (const Access* a : accesses) {
    if (a->indices.size() != p.inner_dims.size() + 1)
      return unknown_length(p, "it is used as a row or pointer, not only element by element");
    if (!a->indices[0])
      return unknown_length(p, "an index is not made of loop counters, sizes and constants");
    const std::string length = (a->indices[0]->hi + Sym::number(1)).text();
    if (std::find(lengths.begin(), lengths.end(), length) == lengths.end())
      lengths.push_back(length);
  }
  return largest(sig, lengths);
}

// True when the store reaches every element: each index from 0 to the dimension's end.
bool covers(const Access& store, const std::vector<std::string>& dims) {
  for (size_t d = 0; d < store.indices.size() && d < dims.size(); ++d) {
    const auto& range = store.indices[d];
    if (!range || range->lo.text() != "0" || (range->hi + Sym::number(1)).text() != dims[d])
      return false;
  }
  return true;
}

// A role and the reason for it, in the words kernel.h's comment uses.
struct RoleReading {
  Role role;
  const char* why;
};

RoleReading infer_role(const KernelParam& p, const std::vector<const Access*>& accesses,
                       bool escaped, const std::vector<std::string>& dims) {
  const bool stored =
      std::any_of(accesses.begin(), accesses.end(), [](const Access* a) { return a->store; });
  if (p.is_const) return {Role::in, "const: read only"};
  if (escaped) return {Role::inout, "passed on or used through another pointer: read and written"};
  if (!stored) return {Role::in, "never stored to: read only"};
  const Access* first =
      *std::min_element(accesses.begin(), accesses.end(),
                        [](const Access* a, const Access* b) { return a->order < b->order; });
  if (first->load) return {Role::inout, "read before it is written: updated in place"};
  for (const Access* a : accesses)
    if (a->store && covers(*a, dims))
      return {Role::out, "written before it is read, every element"};
  return {Role::inout, "written only in part: the rest keeps its input"};
}

void note_limits(KernelSignature& sig, const KernelParam& p,
                 const std::vector<const Access*>& accesses) {
  for (const Access* a : accesses)
    for (size_t d = 1; d < a->indices.size() && d - 1 < p.inner_dims.size(); ++d)
      if (a->indices[d] && is_number(p.inner_dims[d - 1]))
        sig.limits.push_back(
            {(a->indices[d]->hi + Sym::number(1)).text(), std::stol(p.inner_dims[d - 1])});
}

}  // namespace

Status size_and_role(KernelSignature& sig, KernelParam& p, const AccessFacts& facts,
                     const ParamOverrides& overrides) {
  std::vector<const Access*> accesses;
  for (const auto& a : facts.accesses)
    if (a.param == p.name) accesses.push_back(&a);
  const bool escaped = facts.escaped.count(p.name) > 0;
  std::string length_why;
  std::vector<std::string> dims;
  if (auto given = overrides.extents.find(p.name); given != overrides.extents.end()) {
    p.extent = given->second;
    dims = {p.extent};
    length_why = "length given with --extent";
  } else if (escaped) {
    return unknown_length(p, "it is passed on or used through another pointer");
  } else if (accesses.empty()) {
    p.extent = "1";
    length_why = "never used by the kernel";
  } else {
    auto first = first_length(sig, p, accesses);
    if (!first) return first.error();
    p.extent = *first;
    for (const auto& dim : p.inner_dims) p.extent = factor(p.extent) + "*" + factor(dim);
    note_limits(sig, p, accesses);
    dims = {*first};
    dims.insert(dims.end(), p.inner_dims.begin(), p.inner_dims.end());
    length_why = "length from the largest index its loops reach";
  }
  const RoleReading reading = accesses.empty() && !escaped ? RoleReading{Role::in, "never used"}
                                                           : infer_role(p, accesses, escaped, dims);
  p.role = reading.role;
  p.why = reading.why;
  if (auto role = overrides.roles.find(p.name); role != overrides.roles.end()) {
    if (p.is_const && role->second != Role::in)
      return fail("'" + p.name + "' is const: the kernel cannot write it (--role " + p.name + "=" +
                  to_string(role->second) + ")");
    p.role = role->second;
    p.why = "role given with --role";
  }
  if (!is_comparable_type(p.element) && p.role != Role::in)
    return fail("'" + p.name + "' holds '" + p.element +
                "', which kopt cannot compare; outputs hold float, double, int, unsigned int, "
                "long, unsigned long or unsigned char");
  p.why += "; " + length_why;
  return {};
}

}  // namespace kopt
