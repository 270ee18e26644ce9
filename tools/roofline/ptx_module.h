// Just enough of a PTX module for the static roofline: its functions (kernel entries and
// device functions) as flat lists of statements. Nested `{ }` blocks (call sequences, inline
// asm scopes) are read through, statements that span lines are joined, and a call to a device
// function defined in the module is replaced by the callee's body (registers and labels
// renamed per call site, parameters and return values passed by moves), so a kernel's list
// holds everything its threads execute.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace kopt {

/// One PTX statement or label.
struct PtxInstruction {
  std::string opcode;                 ///< "fma.rn.f32", "ld.global.v4.f32"; empty for a label.
  std::vector<std::string> operands;  ///< Destination first; "[%rd5+8]", "{%f1, %f2}".
  std::string guard;                  ///< "%p1" or "!%p1" for a predicated statement.
  std::string label;                  ///< Set for a label line ("$L__BB0_4").
  int inline_depth = 0;               ///< 0 in the kernel itself, 1 in a callee inlined there.
};

/// A function of the module.
struct PtxFunction {
  std::string name;  ///< Mangled: "_Z13haccmk_kerneliiPKf...".
  bool entry = false;
  std::vector<std::string> params;  ///< Parameter names, in order.
  /// Each parameter's PTX type, in order: ".u64", ".f32", or ".b8[24]" for an aggregate.
  std::vector<std::string> param_types;
  std::vector<PtxInstruction> body;
  bool defined = false;  ///< False for a prototype (an external function such as vprintf).
};

/// Parses every function of a module (bodies as written, calls not yet inlined).
std::vector<PtxFunction> parse_ptx_module(const std::string& ptx);

/// The deepest chain of device-function calls inlined; deeper (or recursive) calls stay calls.
inline constexpr int kMaxInlineDepth = 4;

/// `entry`'s body with every call to a function defined in `module` replaced by its body.
/// `calls_left` counts the calls that could not be inlined (external, recursive, too deep).
std::vector<PtxInstruction> inline_calls(const PtxFunction& entry,
                                         const std::vector<PtxFunction>& module, int& calls_left);

/// The registers a statement operand names: "[%rd5+8]" -> {"%rd5"}, "{%f1, %f2}" -> both.
std::vector<std::string> operand_registers(const std::string& operand);

/// True for a PTX special register (%tid.x, %ntid.y, %ctaid.z, %laneid, ...).
bool is_special_register(const std::string& name);

}  // namespace kopt
