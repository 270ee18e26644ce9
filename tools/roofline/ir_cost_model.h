// The static roofline's cost model over LLVM IR: operations counted per lane (FMA = 2), each
// weighted by the trip counts of the loops around it (from scalar evolution, the parameters'
// assumed values, or a default), and DRAM bytes estimated as the compulsory footprint of each
// array: an access sweeps only the loops its address varies in (scalar evolution's loop
// dispositions), limited by the address range it spans, and accesses to the same array are
// merged over the union of their ranges (stencil neighbours, struct fields).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tools/roofline/counters.h"
#include "tools/roofline/ir_values.h"
#include "tools/roofline/llvm_ir.h"

namespace kopt {

/// A loop and the trip count the model gave it.
struct LoopTrips {
  std::string function;
  std::string header;
  int depth = 1;
  double trips = 0;
  std::string backedge_count;  ///< What scalar evolution said; empty when unpredictable.
  bool assumed = false;        ///< True when the default was used.
};

/// The static estimate of one kernel.
struct StaticCounts {
  std::vector<LoopTrips> trips;  ///< Every loop costed.
  KernelCounters counters;       ///< seconds stays 0.
  double special_calls = 0;      ///< Calls to exp, sqrt, pow, ... (not counted as flops).
  double executed_bytes = 0;     ///< Bytes of every load and store executed (cache traffic).
  double instructions = 0;  ///< Instructions executed that take an issue slot (vector ones once).
  double divides = 0;       ///< Divisions and square roots executed (instructions or calls).
  double square_roots = 0;  ///< Square roots per lane (also among special_calls).
  double chain_steps = 0;   ///< Steps of loop-carried floating-point dependence chains.
  int loops = 0;
  int unknown_trip_loops = 0;  ///< Loops that got the default trip count.
  std::vector<std::string> notes;
};

/// Costs the functions named in `entries` (plain names; C++ mangling is matched), following
/// calls into other functions of the module.
StaticCounts cost_module(const std::vector<IrFunction>& functions,
                         const std::map<std::string, ScevFacts>& facts,
                         const std::vector<std::string>& entries, const TripAssumptions& assume);

/// True when a mangled (or plain) IR function name is the function `name`.
bool names_function(const std::string& ir_name, const std::string& name);

}  // namespace kopt
