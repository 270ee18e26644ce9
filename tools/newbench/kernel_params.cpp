#include "tools/newbench/kernel_params.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>

#include "tools/newbench/access_analysis.h"
#include "tools/newbench/array_extent.h"
#include "tools/newbench/param_types.h"

namespace kopt {

namespace {

Result<KernelParam> read_param(const Json& decl, size_t position) {
  KernelParam p;
  p.name = decl.value("name", "");
  const Json type = decl.value("type", Json::object());
  p.type = type.value("desugaredQualType", type.value("qualType", ""));
  if (p.name.empty())
    return fail("parameter " + std::to_string(position + 1) + " has no name; name it");
  const ParamType parsed = parse_param_type(p.type);
  p.element = parsed.element;
  p.is_const = parsed.is_const;
  p.inner_dims = parsed.inner_dims;
  if (parsed.pointer_to_pointer)
    return fail("parameter '" + p.name + "' (" + p.type +
                ") is a pointer to pointers, which kopt new cannot fill: pass one flat array, or "
                "write the driver by hand (docs/benchmarks.md)");
  if (parsed.pointer) {
    p.kind = ParamKind::array;
    if (!is_integer_type(p.element) && !is_floating_type(p.element))
      return fail("parameter '" + p.name + "' points to '" + p.element +
                  "', which kopt new cannot fill (numbers only)");
  } else if (is_integer_type(p.element)) {
    p.kind = ParamKind::integer;
  } else if (is_floating_type(p.element)) {
    p.kind = ParamKind::scalar;
    p.why = "drawn per seed from [0.5, 1.5)";
  } else {
    return fail("parameter '" + p.name + "' has type '" + p.type +
                "', which kopt new cannot make (numbers and pointers to numbers only)");
  }
  return p;
}

Status check_overrides(const std::vector<KernelParam>& params, const ParamOverrides& overrides,
                       const std::string& function) {
  auto is_array = [&](const std::string& name) {
    return std::any_of(params.begin(), params.end(), [&](const KernelParam& p) {
      return p.name == name && p.kind == ParamKind::array;
    });
  };
  for (const auto& [name, role] : overrides.roles)
    if (!is_array(name))
      return fail("--role names no array parameter '" + name + "' of " + function);
  for (const auto& [name, extent] : overrides.extents)
    if (!is_array(name))
      return fail("--extent names no array parameter '" + name + "' of " + function);
  for (const auto& entry : overrides.values) {
    // Named, not a structured binding: Clang 14 cannot capture a binding in a lambda.
    const std::string& name = entry.first;
    const auto value = entry.second;
    const bool integer = std::any_of(params.begin(), params.end(), [&](const KernelParam& p) {
      return p.name == name && p.kind == ParamKind::integer;
    });
    if (!integer) return fail("--value names no integer parameter '" + name + "' of " + function);
    if (value < 0) return fail("--value " + name + " must not be negative");
  }
  return {};
}

// Integers that appear in an index's range, an array's dimensions or a given extent: sizes.
std::set<std::string> size_names(const std::vector<KernelParam>& params, const AccessFacts& facts,
                                 const ParamOverrides& overrides) {
  std::set<std::string> mentioned;
  auto note = [&](const std::string& text) {
    for (const auto& name : identifiers_in(text)) mentioned.insert(name);
  };
  for (const auto& a : facts.accesses)
    for (const auto& index : a.indices)
      if (index) note(index->lo.text() + " " + index->hi.text());
  for (const auto& p : params)
    for (const auto& dim : p.inner_dims) note(dim);
  for (const auto& [name, extent] : overrides.extents) note(extent);
  return mentioned;
}

// The size whose value is the scale n: the parameter n, else the first size.
const KernelParam* scale_param(const std::vector<KernelParam>& params) {
  const KernelParam* first = nullptr;
  for (const auto& p : params) {
    if (p.kind != ParamKind::size) continue;
    if (p.name == "n") return &p;
    if (!first) first = &p;
  }
  return first;
}

// ceil(n * value / scale), as an expression the manifest rounds down: 11*n/10 -> (11*n + 9)/10.
std::string proportional(long value, long scale) {
  const long g = std::gcd(value, scale), p = value / g, q = scale / g;
  const std::string times = p == 1 ? "n" : std::to_string(p) + "*n";
  if (q == 1) return times;
  return "(" + times + " + " + std::to_string(q - 1) + ")/" + std::to_string(q);
}

// The sizes other than the scale as expressions of n: in proportion to the scale where --value
// gives both values, else n + 1, n + 2, ... (different, so that a kernel that swaps two of
// them fails the check).
std::vector<NamedSize> name_sizes(const std::vector<KernelParam>& params,
                                  const ParamOverrides& overrides) {
  const KernelParam* scale = scale_param(params);
  const auto typical = [&](const KernelParam& p) -> long {
    auto it = overrides.values.find(p.name);
    return it == overrides.values.end() ? 0 : std::max(1L, it->second);
  };
  std::vector<NamedSize> named;
  int offset = scale && scale->name == "n" ? 1 : 0;
  for (const auto& p : params) {
    if (p.kind != ParamKind::size || p.name == "n") continue;
    if (scale && &p != scale && typical(*scale) && typical(p)) {
      named.push_back({p.name, proportional(typical(p), typical(*scale))});
      continue;
    }
    named.push_back({p.name, offset == 0 ? "n" : "n + " + std::to_string(offset)});
    ++offset;
  }
  return named;
}

void classify_integers(std::vector<KernelParam>& params, const AccessFacts& facts,
                       const ParamOverrides& overrides) {
  const std::set<std::string> sizes = size_names(params, facts, overrides);
  for (auto& p : params) {
    if (p.kind != ParamKind::integer) continue;
    if (sizes.count(p.name)) {
      p.kind = ParamKind::size;
      p.why = "sizes arrays";
      continue;
    }
    if (auto it = overrides.values.find(p.name); it != overrides.values.end()) p.value = it->second;
    if (facts.loop_bounds.count(p.name)) {
      p.kind = ParamKind::count;
      p.why = "bounds loops only (a count: fixed at " + std::to_string(p.value) +
              ", edge cases 0 and 1)";
    } else {
      p.why = "neither sizes arrays nor bounds loops: fixed at " + std::to_string(p.value);
    }
  }
}

// The type before the parameter list of clang's function type ("double (int, double *)").
Status read_return_type(const Json& decl, KernelSignature& sig) {
  const std::string type = decl.value("type", Json::object()).value("qualType", "void (");
  sig.return_type = type.substr(0, type.find('('));
  while (!sig.return_type.empty() && sig.return_type.back() == ' ') sig.return_type.pop_back();
  if (sig.return_type == "void" || is_comparable_type(sig.return_type)) return {};
  return fail(sig.function + " returns '" + sig.return_type +
              "', which kopt cannot compare: return void, a number, or write to an array");
}

}  // namespace

std::string to_string(Role role) {
  switch (role) {
    case Role::in:
      return "in";
    case Role::out:
      return "out";
    case Role::inout:
      return "inout";
  }
  return "?";
}

Result<Variables> parameter_values(const KernelSignature& signature, long n) {
  Variables values{{"n", static_cast<double>(n)}};
  Benchmark sizes;
  sizes.named_sizes = signature.named_sizes;
  auto named = sizes.variables(n);
  if (!named) return named.error();
  for (const auto& p : signature.params) {
    if (p.kind == ParamKind::size) values[p.name] = named->at(p.name);
    if (p.kind == ParamKind::count || p.kind == ParamKind::integer)
      values[p.name] = static_cast<double>(p.value);
  }
  return values;
}

Result<KernelSignature> classify_parameters(const FunctionAst& ast,
                                            const ParamOverrides& overrides) {
  KernelSignature sig;
  sig.function = ast.decl.value("name", "");
  sig.prototype = ast.prototype;
  sig.dialect = ast.dialect;
  if (auto st = read_return_type(ast.decl, sig); !st) return st.error();
  for (const auto& child : children(ast.decl)) {
    if (kind_of(child) != "ParmVarDecl") continue;
    auto param = read_param(child, sig.params.size());
    if (!param) return param.error();
    sig.params.push_back(std::move(*param));
  }
  if (auto st = check_overrides(sig.params, overrides, sig.function); !st) return st.error();
  std::set<std::string> pointers, integers;
  for (const auto& p : sig.params) {
    if (p.kind == ParamKind::array) pointers.insert(p.name);
    if (p.kind == ParamKind::integer) integers.insert(p.name);
  }
  const AccessFacts facts = analyze_accesses(ast.decl, pointers, integers);
  classify_integers(sig.params, facts, overrides);
  sig.named_sizes = name_sizes(sig.params, overrides);
  if (const KernelParam* scale = scale_param(sig.params))
    if (auto it = overrides.values.find(scale->name); it != overrides.values.end())
      sig.typical_scale = std::max(1L, it->second);
  for (auto& p : sig.params)
    if (p.kind == ParamKind::array)
      if (auto st = size_and_role(sig, p, facts, overrides); !st) return st.error();
  return sig;
}

}  // namespace kopt
