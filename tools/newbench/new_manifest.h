// The manifest (benchmark.json) `kopt new` writes, with its defaults: check sizes, seeds, a
// tolerance by element type, flags by language, the named sizes, the edge cases.
#pragma once

#include <string>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/newbench/kernel_params.h"
#include "tools/newbench/work_fit.h"
#include "util/json.h"

namespace kopt {

/// What the manifest says beyond the signature.
struct ManifestChoices {
  std::string name;
  Language language = Language::cpp;
  std::string source_name;  ///< The kernel's file, for the summary.
  std::vector<long> check_sizes;
  long time_size = 0;
  std::string time_note;  ///< How the time size was found.
  long max_size = 0;      ///< The largest n the kernel's limits allow, when under 2x the time size.
  WorkProposal work;
  std::vector<std::string> defines;  ///< Macros the kernel is built with ("NAME", "NAME=VALUE").
  std::vector<std::string> headers;  ///< The kernel file's own headers, copied into the folder.
};

/// The manifest for the signature and the choices.
Json new_manifest(const KernelSignature& sig, const ManifestChoices& choices);

/// The check sizes kopt new proposes (1, 2, 3, 17, 65), those that `allowed` keeps.
template <class Allowed>
std::vector<long> default_check_sizes(const Allowed& allowed) {
  std::vector<long> sizes;
  for (long n : {1L, 2L, 3L, 17L, 65L})
    if (allowed(n)) sizes.push_back(n);
  return sizes;
}

/// Bytes of one element of a kopt-new element type ("double": 8).
size_t element_bytes(const std::string& element);

}  // namespace kopt
