#include "tools/newbench/new_manifest.h"

#include <nlohmann/json.hpp>

#include "tools/newbench/driver_writer.h"
#include "tools/newbench/param_types.h"
#include "util/strings.h"

namespace kopt {

namespace {

// A float output needs a float's tolerance; doubles a double's; integers match exactly.
Json tolerance(const KernelSignature& sig) {
  bool any_float = sig.return_type == "float", any_double = sig.return_type == "double";
  for (const auto& p : sig.params)
    if (p.kind == ParamKind::array && p.role != Role::in) {
      any_float = any_float || p.element == "float";
      any_double = any_double || p.element == "double";
    }
  if (any_float) return {{"rtol", 1e-4}, {"atol", 1e-6}};
  if (any_double) return {{"rtol", 1e-10}, {"atol", 1e-12}};
  return {{"rtol", 0}, {"atol", 0}};
}

std::string size_meaning(const KernelSignature& sig) {
  std::vector<std::string> parts;
  for (const auto& p : sig.params)
    if (p.kind == ParamKind::size && p.name == "n") parts.push_back("n");
  for (const auto& s : sig.named_sizes) parts.push_back(s.name + " = " + s.expression);
  for (const auto& p : sig.params)
    if (p.kind == ParamKind::count || p.kind == ParamKind::integer)
      parts.push_back(p.name + " = " + std::to_string(p.value));
  return parts.empty() ? "n (the kernel takes no size)" : join(parts, ", ");
}

std::string domain_inputs(const KernelSignature& sig) {
  std::vector<std::string> arrays;
  for (const auto& p : sig.params)
    if (p.kind == ParamKind::array) arrays.push_back(p.name + " (" + to_string(p.role) + ")");
  return "any sizes >= 1 and any values the driver draws: " + join(arrays, ", ") +
         " hold values in [-1, 1) (integers in [0, 99]), scalars in [0.5, 1.5) (made by kopt new: "
         "say here what kernel.h promises)";
}

}  // namespace

size_t element_bytes(const std::string& element) {
  if (element == "double" || element == "long" || element == "unsigned long" ||
      element == "long long" || element == "unsigned long long")
    return 8;
  if (element == "short" || element == "unsigned short") return 2;
  if (element == "char" || element == "signed char" || element == "unsigned char") return 1;
  return 4;
}

Json new_manifest(const KernelSignature& sig, const ManifestChoices& c) {
  Json size = {{"meaning", size_meaning(sig)}, {"check", c.check_sizes}, {"time", c.time_size}};
  if (!c.time_note.empty()) size["time_note"] = c.time_note;
  if (c.max_size > 0) size["max"] = c.max_size;
  if (!sig.named_sizes.empty()) {
    Json names = Json::object();
    for (const auto& s : sig.named_sizes) names[s.name] = s.expression;
    size["names"] = names;
  }
  std::vector<std::string> flags = {"-std=c++20", "-O3", "-march=native"};
  if (c.language == Language::openmp) flags.push_back("-fopenmp");
  for (const auto& define : c.defines) flags.push_back("-D" + define);
  Json manifest = {
      {"format", "kopt-benchmark/1"},
      {"name", c.name},
      {"language", to_string(c.language)},
      {"summary", sig.function + " from " + c.source_name +
                      " (made by kopt new: say in one line what it computes)"},
      {"functions", {sig.function}},
      {"size", size},
      {"seeds", 5},
      {"tolerance", tolerance(sig)},
      {"flags", flags},
      {"work", {{"flops", c.work.flops}, {"bytes", c.work.bytes}, {"source", c.work.source}}},
      {"domain", {{"inputs", domain_inputs(sig)}, {"edges", driver_edge_cases(sig)}}}};
  if (sig.dialect == Dialect::c) manifest["dialect"] = "c";
  if (!c.headers.empty()) manifest["headers"] = c.headers;
  return manifest;
}

}  // namespace kopt
