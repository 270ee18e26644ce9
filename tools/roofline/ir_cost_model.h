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
#include "tools/roofline/llvm_ir.h"

namespace kopt {

/// What kopt assumes where the code does not say.
struct TripAssumptions {
  double size = 1000;         ///< Value of 64-bit integer parameters (the problem size n).
  double default_trips = 16;  ///< Trip count of a loop whose count is unknown, and value of
                              ///< 32-bit integer parameters nobody gave.
  /// Values of the entry functions' parameters by position, where known (from the driver).
  std::vector<std::optional<double>> arguments;
};

/// The static estimate of one kernel.
struct StaticCounts {
  KernelCounters counters;    ///< seconds stays 0.
  double special_calls = 0;   ///< Calls to exp, sqrt, pow, ... (not counted as flops).
  double executed_bytes = 0;  ///< Bytes of every load and store executed (cache traffic).
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
