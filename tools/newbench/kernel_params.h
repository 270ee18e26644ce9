// The parameters of a kernel as `kopt new` understands them: arrays (with their element type,
// their role and their length), sizes, loop counts and scalars, classified from the signature
// (const) and from what the body does (access_analysis.h); the user's --role and --extent win.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/newbench/kernel_ast.h"
#include "util/result.h"

namespace kopt {

enum class ParamKind {
  array,    ///< A pointer (or array) parameter: a buffer the driver fills.
  size,     ///< An integer that sizes arrays: one of the benchmark's sizes.
  count,    ///< An integer that bounds loops only (time steps, sweeps): fixed, edge cases vary it.
  integer,  ///< Any other integer: a fixed value.
  scalar,   ///< A floating-point value: drawn per seed.
};

enum class Role { in, out, inout };

/// The value the driver gives count and integer parameters unless --value says otherwise.
inline constexpr long kFixedCount = 4;

/// "in", "out" or "inout".
std::string to_string(Role role);

/// One parameter of the kernel.
struct KernelParam {
  std::string name;
  std::string type;  ///< As clang writes it: "double (*)[n]", "const float *", "int".
  ParamKind kind = ParamKind::scalar;
  std::string element;  ///< The element (or scalar) type: "double", "unsigned int", ...
  bool is_const = false;
  Role role = Role::in;
  std::vector<std::string> inner_dims;  ///< double (*)[n][m]: "n", "m".
  /// Elements, as a C expression of the size parameters; empty when unknown.
  std::string extent;
  std::string why;           ///< How the role and the extent were found, for kernel.h's comment.
  long value = kFixedCount;  ///< A count's or an integer's fixed value.
};

/// A limit a constant array dimension sets: `expression` (of the sizes) must stay <= `limit`.
struct SizeLimit {
  std::string expression;
  long limit = 0;
};

/// The whole signature.
struct KernelSignature {
  std::string function;
  std::string prototype;  ///< The definition's own text up to its body (may be empty).
  /// "void", or the type of the value it returns, which the driver keeps as the output
  /// "result" (one element).
  std::string return_type = "void";
  Dialect dialect = Dialect::cxx;
  std::vector<KernelParam> params;
  /// The sizes other than n, as expressions of the scale n; n itself is the parameter named
  /// "n", if there is one.
  std::vector<NamedSize> named_sizes;
  std::vector<SizeLimit> limits;
  /// The scale n where --value gives the value of the size it stands for (the time size); 0
  /// when none does.
  long typical_scale = 0;
};

/// What the user says instead of the analysis: --role A=inout, --extent A=n*m, --value nj=1100.
struct ParamOverrides {
  std::map<std::string, Role> roles;
  std::map<std::string, std::string> extents;
  /// Typical values of integer parameters: a size's value at the time size (the other sizes
  /// keep their proportion to it), a count's or an integer's fixed value.
  std::map<std::string, long> values;
};

/// Classifies every parameter. Errors name the parameter and what to do: an unsupported type,
/// an array whose length cannot be told (use --extent), an override naming no parameter.
Result<KernelSignature> classify_parameters(const FunctionAst& ast,
                                            const ParamOverrides& overrides);

/// The value of every size, count and integer parameter at scale n.
Result<Variables> parameter_values(const KernelSignature& signature, long n);

}  // namespace kopt
