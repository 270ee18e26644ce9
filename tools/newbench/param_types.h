// Reading a parameter's type as clang prints it (the canonical, decayed type: "double *restrict",
// "const float *", "double (*)[n]", "int"): pointer or not, the element type and constness,
// and the dimensions of a pointer to arrays. Nothing else of C is read here.
#pragma once

#include <string>
#include <vector>

namespace kopt {

struct ParamType {
  bool pointer = false;
  bool pointer_to_pointer = false;
  std::string element;  ///< Without qualifiers: "double", "unsigned int".
  bool is_const = false;
  std::vector<std::string> inner_dims;  ///< Of a pointer to arrays, outermost first.
};

/// Splits clang's printed type of a parameter.
ParamType parse_param_type(const std::string& type);

/// An integer type a size, a count or an integer parameter can have.
bool is_integer_type(const std::string& element);
/// float or double.
bool is_floating_type(const std::string& element);
/// An element type the harness can compare (float, double, int, unsigned int, long, unsigned
/// long, unsigned char): what an output or in/out array may hold.
bool is_comparable_type(const std::string& element);

/// The identifiers a C expression names ("(m - 1)*n + n": m, n).
std::vector<std::string> identifiers_in(const std::string& expression);

}  // namespace kopt
