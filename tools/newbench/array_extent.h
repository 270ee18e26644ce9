// An array parameter's length and role, from the accesses the kernel's body makes
// (access_analysis.h): the length is one past the largest index any access can reach; the role
// is in (never stored, or const), out (first touched by a store that covers the whole array)
// or in/out (anything else: read before written, partly written, passed on).
#pragma once

#include "tools/newbench/access_analysis.h"
#include "tools/newbench/kernel_params.h"
#include "util/result.h"

namespace kopt {

/// Sets p.extent, p.role and p.why, and adds the limits constant dimensions set to
/// sig.limits. An error names the array and asks for --extent when its length cannot be told.
Status size_and_role(KernelSignature& sig, KernelParam& p, const AccessFacts& facts,
                     const ParamOverrides& overrides);

}  // namespace kopt
