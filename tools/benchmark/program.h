// A whole program as a benchmark (manifest "kind": "program"): a folder with a build command, a
// run command, a correctness check on the run's output and a time. The candidate replaces the
// manifest's editable files; everything else in the folder is fixed. Its verdict is weaker than
// a function's (no per-call timing, no poisoned outputs, the program's own check): DESIGN.md.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "util/json.h"
#include "util/result.h"

namespace kopt {

/// What makes a program's run correct: its output matches `pass_regex`, and/or `compare` (a shell
/// command run in the sandbox with both sides' outputs) exits 0. At least one is set.
struct ProgramCheck {
  std::string pass_regex;
  std::string compare;
};

/// A program benchmark's commands and rules (manifest fields of "kind": "program").
struct ProgramSpec {
  std::vector<std::string> editable;  ///< Files (relative to the folder) a candidate may replace.
  std::string build;                  ///< Shell command run in a fresh copy of the folder.
  int build_timeout = 300;            ///< Seconds.
  std::string run;                    ///< Shell command whose wall time is measured.
  int run_timeout = 60;               ///< Seconds.
  ProgramCheck check;
  /// Empty: kopt's wall time of the run only. Else a regex whose first group is a time the
  /// program prints (second group a unit: s, ms, us, ns); recorded, never the verdict's basis.
  std::string region_regex;
};

/// Why kopt neither profiles a program nor places it on the roofline: what the prompts say in
/// their place and what the profile and roofline tools answer for a program.
inline constexpr const char* kNoProgramEvidence =
    "(not available for a whole program: kopt has no kernel function to call, time per call or "
    "profile by line, and no analytic work per call to place on the roofline; the verdict is the "
    "wall time of whole runs)";

/// Reads the program fields of a manifest; an Error names the field.
Status read_program_spec(const Json& manifest, ProgramSpec& spec);

/// The line that opens each file of a bundle: "//// file: solver.cpp".
inline constexpr const char* kBundleMarker = "//// file: ";

/// Several files as one text, each after its marker line, in the given order: how a program
/// candidate travels through the loop, its records, hashes, diffs and edits as a single source.
std::string make_bundle(const std::vector<std::pair<std::string, std::string>>& files);

/// The files of a bundle by name. A text without any marker is the one file of a program with a
/// single editable file. A name that is not editable, or given twice, is an Error naming it.
/// Files the bundle leaves out are not in the map (they stay as the original has them).
Result<std::map<std::string, std::string>> parse_bundle(const std::string& text,
                                                        const std::vector<std::string>& editable);

}  // namespace kopt
