#include "tools/newbench/driver_writer.h"

#include <fmt/format.h>

#include <regex>

#include "tools/newbench/param_types.h"
#include "util/strings.h"

namespace kopt {

namespace {

std::string class_name(const std::string& function) {
  std::string name;
  bool upper = true;
  for (char c : function) {
    if (c == '_') {
      upper = true;
      continue;
    }
    name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) ? "K" + name : name;
}

std::string declarator(const std::string& type, const std::string& name) {
  if (const size_t star = type.find("(*)"); star != std::string::npos)
    return type.substr(0, star) + "(*" + name + ")" + type.substr(star + 3);
  return type + " " + name;
}

std::string cxx_prototype(const KernelSignature& sig) {
  std::vector<std::string> params;
  for (const auto& p : sig.params) params.push_back(declarator(cxx_param_type(sig, p), p.name));
  return sig.return_type + " " + sig.function + "(" + join(params, ", ") + ")";
}

bool has_counts(const KernelSignature& sig) {
  for (const auto& p : sig.params)
    if (p.kind == ParamKind::count) return true;
  return false;
}

std::string describe(const KernelParam& p) {
  switch (p.kind) {
    case ParamKind::array:
      return fmt::format("{} ({}): {} {} elements; {}", p.name, to_string(p.role), p.extent,
                         p.element, p.why);
    case ParamKind::scalar:
      return fmt::format("{}: any {} in [0.5, 1.5) (the driver draws it per seed)", p.name,
                         p.element);
    default:
      return fmt::format("{}: {}", p.name, p.why);
  }
}

std::string member_type(const KernelParam& p) {
  return p.kind == ParamKind::array ? "kopt_bench::Array<" + p.element + ">" : p.element;
}

std::string call_argument(const KernelSignature& sig, const KernelParam& p) {
  if (p.kind != ParamKind::array) return p.name + "_";
  if (sig.dialect == Dialect::cxx && p.type.find("(*)") != std::string::npos)
    return "reinterpret_cast<" + cxx_param_type(sig, p) + ">(" + p.name + "_.data())";
  return p.name + "_.data()";
}

std::string constructor(const KernelSignature& sig, const std::string& klass) {
  std::vector<std::string> inits, locals, body;
  for (const auto& p : sig.params)
    if (p.kind == ParamKind::size) {
      inits.push_back(fmt::format("{0}_(static_cast<{1}>(sizes[\"{0}\"]))", p.name, p.element));
      locals.push_back(fmt::format("{0} = static_cast<long>({0}_)", p.name));
    }
  std::string text = fmt::format("  explicit {}(const kopt_bench::Sizes& sizes)", klass);
  text += inits.empty() ? " {\n    (void)sizes;\n" : "\n      : " + join(inits, ", ") + " {\n";
  if (!locals.empty()) text += "    const long " + join(locals, ", ") + ";\n";
  for (const auto& p : sig.params)
    if (p.kind == ParamKind::array)
      text += fmt::format("    {}_.resize(static_cast<size_t>(std::max<long>(0, {})));\n", p.name,
                          p.extent);
  for (const auto& p : sig.params)
    if (p.kind == ParamKind::array && p.role != Role::in)
      text += fmt::format("    {}(\"{}\", {}_);\n", p.role == Role::out ? "output" : "inout",
                          p.name, p.name);
  if (sig.return_type != "void") text += "    output(\"result\", result_);\n";
  return text + "  }\n";
}

std::string fill_arrays(const KernelSignature& sig, const std::string& lo, const std::string& hi,
                        const std::string& indent) {
  std::string text;
  for (const auto& p : sig.params)
    if (p.kind == ParamKind::array)
      text += indent + (is_floating_type(p.element)
                            ? fmt::format("rng.fill({}_, {}, {});\n", p.name, lo, hi)
                            : fmt::format("rng.fill({}_, 0, 99);\n", p.name));
  return text;
}

std::string fill(const KernelSignature& sig) {
  std::string text =
      "  void fill(kopt_bench::Rng& rng) override {\n" + fill_arrays(sig, "-1.0", "1.0", "    ");
  for (const auto& p : sig.params) {
    if (p.kind == ParamKind::scalar)
      text += fmt::format("    {}_ = static_cast<{}>(rng.uniform(0.5, 1.5));\n", p.name, p.element);
    if (p.kind == ParamKind::count || p.kind == ParamKind::integer)
      text += fmt::format("    {}_ = {};\n", p.name, p.value);
  }
  return text + "  }\n";
}

std::string edges(const KernelSignature& sig) {
  const int count = static_cast<int>(driver_edge_cases(sig).size());
  std::string text = fmt::format("  int edge_cases() const override {{ return {}; }}\n", count);
  text += "  void fill_edge(kopt_bench::Rng& rng, int k) override {\n    fill(rng);\n";
  text += "    if (k == 0) {\n" + fill_arrays(sig, "0.0", "1.0", "      ") + "    }\n";
  for (int value : {0, 1}) {
    if (!has_counts(sig)) break;
    text += fmt::format("    if (k == {}) {{\n", value + 1);
    for (const auto& p : sig.params)
      if (p.kind == ParamKind::count) text += fmt::format("      {}_ = {};\n", p.name, value);
    text += "    }\n";
  }
  return text + "  }\n";
}

}  // namespace

std::string cxx_param_type(const KernelSignature& sig, const KernelParam& p) {
  if (p.kind != ParamKind::array) return p.element;
  if (sig.dialect == Dialect::c) return (p.is_const ? "const " : "") + p.element + "*";
  return std::regex_replace(p.type, std::regex("\\brestrict\\b"), "__restrict");
}

std::vector<std::string> driver_edge_cases(const KernelSignature& sig) {
  std::vector<std::string> cases = {"every array filled from [0, 1) instead of [-1, 1): no signs"};
  if (!has_counts(sig)) return cases;
  std::vector<std::string> counts;
  for (const auto& p : sig.params)
    if (p.kind == ParamKind::count) counts.push_back(p.name);
  cases.push_back(join(counts, ", ") + " = 0");
  cases.push_back(join(counts, ", ") + " = 1");
  return cases;
}

std::string write_kernel_header(const KernelSignature& sig, const std::string& source_name) {
  std::string text = fmt::format(
      "// {} from {}, as `kopt new` read it. What the check holds a candidate to: the same\n"
      "// outputs as the original for every input below (edit this comment to promise more).\n",
      sig.function, source_name);
  for (const auto& p : sig.params) text += "//   " + describe(p) + "\n";
  if (sig.return_type != "void")
    text += "//   returns a " + sig.return_type + ": compared as the output 'result'\n";
  text += "#pragma once\n\n";
  if (sig.dialect == Dialect::cxx) return text + cxx_prototype(sig) + ";\n";
  text += "#ifdef __cplusplus\nextern \"C\" " + cxx_prototype(sig) + ";\n";
  if (!sig.prototype.empty()) text += "#else\n" + sig.prototype + ";\n";
  return text + "#endif\n";
}

std::string write_driver(const KernelSignature& sig) {
  const std::string klass = class_name(sig.function);
  std::string text = fmt::format(
      "// Made by `kopt new` for {}: fills every input from the seed, registers what the kernel\n"
      "// writes, calls it once. Fixed: candidates replace only the kernel file.\n"
      "#include <algorithm>\n#include <vector>\n\n#include \"harness.h\"\n#include \"kernel.h\"\n\n"
      "class {} : public kopt_bench::Problem {{\n public:\n",
      sig.function, klass);
  text += constructor(sig, klass) + fill(sig) + edges(sig);
  std::vector<std::string> args;
  for (const auto& p : sig.params) args.push_back(call_argument(sig, p));
  text +=
      fmt::format("  void call() override {{ {}{}({}); }}\n\n private:\n",
                  sig.return_type == "void" ? "" : "result_[0] = ", sig.function, join(args, ", "));
  for (const auto& p : sig.params) text += fmt::format("  {} {}_{{}};\n", member_type(p), p.name);
  if (sig.return_type != "void")
    text += fmt::format("  kopt_bench::Array<{}> result_ = kopt_bench::Array<{}>(1);\n",
                        sig.return_type, sig.return_type);
  text += "};\n\n";
  return text +
         fmt::format(
             "int main(int argc, char** argv) {{ return kopt_bench::main<{}>(argc, argv); }}\n",
             klass);
}

}  // namespace kopt
