// How one PTX statement counts: floating-point operations as Nsight Compute's SASS counters
// count them (add and mul 1, fma 2; divisions, square roots and reciprocals at the FFMA/DFMA
// sequences they compile to), integer instructions (a 64-bit operation is two, an integer
// division a sequence), special-function instructions, and global memory accesses by width.
#pragma once

#include <string>

#include "tools/roofline/ptx_module.h"

namespace kopt {

/// Operations of one execution of a statement.
struct PtxOpCount {
  double fp32 = 0, fp64 = 0, int_ops = 0, special = 0;
};

/// The operations `inst` stands for.
PtxOpCount count_ptx_op(const PtxInstruction& inst);

/// True for a load, store or atomic on global memory (generic addresses count as global).
bool is_global_access(const std::string& opcode);

/// Bytes one execution of a memory statement moves (vector width x element size).
int access_bytes(const std::string& opcode);

}  // namespace kopt
