// Just enough of LLVM's textual IR and of `opt -passes='print<loops>,print<scalar-evolution>'`
// for the static roofline: each function's instructions with their block, type, pointer
// operand and callee; each function's loops (header, blocks), backedge-taken counts, the SCEV
// of every integer or pointer value and its dispositions in the loops.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kopt {

/// One instruction, reduced to what the cost model reads.
struct IrInstruction {
  std::string block;
  std::string opcode;     ///< "fadd", "load", "store", "call", "icmp", ...
  std::string type;       ///< Operated (or loaded/stored/returned) type: "double", "<8 x float>".
  std::string pointer;    ///< load/store: the pointer operand ("%arrayidx").
  std::string callee;     ///< call: "@llvm.fmuladd.f64", "@exp".
  std::string predicate;  ///< icmp, fcmp: "slt", "ogt", ...
  std::string result;     ///< The value it defines ("%div"), if any.
  /// Integer and floating-point arithmetic, casts, selects and calls: "%sub", "32"; a phi's
  /// incoming values; an alloca's element count when it has one ("%n" for a variable-length
  /// array).
  std::vector<std::string> operands;
};

/// A function definition.
struct IrFunction {
  std::string name;                                         ///< Without '@' (mangled).
  std::vector<std::pair<std::string, std::string>> params;  ///< (type, "%name")
  std::vector<IrInstruction> instructions;
};

/// Parses every `define` of a module.
std::vector<IrFunction> parse_llvm_ir(const std::string& text);

/// A natural loop.
struct IrLoop {
  std::string header;  ///< Its name in SCEV output: "%for.body".
  int depth = 1;
  std::set<std::string> blocks;          ///< Without '%'.
  std::string backedge_count;            ///< SCEV text; empty when unpredictable.
  std::vector<std::string> exit_counts;  ///< Per exit, when the loop has several.
};

/// What opt said about one function.
struct ScevFacts {
  std::vector<IrLoop> loops;
  std::map<std::string, std::string> scev;  ///< "%arrayidx" -> "{%a,+,8}<%for.body>"
  /// "%arrayidx" -> loop -> "Invariant", "Variant" or "Computable".
  std::map<std::string, std::map<std::string, std::string>> dispositions;
};

/// Parses opt's printed loops and scalar evolution, keyed by function name (without '@').
std::map<std::string, ScevFacts> parse_scev_report(const std::string& text);

/// Lanes and bits of one element of an IR type: "double" -> (1, 64), "<4 x float>" -> (4, 32),
/// "i32" -> (1, 32); (0, 0) for anything else.
std::pair<int, int> type_shape(const std::string& type);

}  // namespace kopt
