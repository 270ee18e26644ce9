// The fixed files `kopt new` writes for a kernel: kernel.h (the signature and what it promises)
// and driver.cpp (a Problem on the shared harness: a fill for every array and scalar, the
// sizes from the harness's Sizes, the arrays registered as outputs or in/out, edge cases).
#pragma once

#include <string>

#include "tools/newbench/kernel_params.h"

namespace kopt {

/// kernel.h for the signature; `source_name` is the file the kernel came from.
std::string write_kernel_header(const KernelSignature& sig, const std::string& source_name);

/// driver.cpp for the signature.
std::string write_driver(const KernelSignature& sig);

/// The driver's edge cases, in the order of its fill_edge (for the manifest's domain.edges).
std::vector<std::string> driver_edge_cases(const KernelSignature& sig);

/// The C++ type a parameter has in kernel.h and the driver's call ("double (*)[100]" stays,
/// restrict becomes __restrict; arrays of a C kernel become plain element pointers).
std::string cxx_param_type(const KernelSignature& sig, const KernelParam& p);

}  // namespace kopt
