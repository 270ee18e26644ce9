// The static half of the verifier: what a candidate's object file imports, defines and runs
// outside its calls, and which optimization or floating-point settings its source changes. A
// kernel computes on its arguments; it has no business opening files or sockets, starting
// processes or threads outside OpenMP, reading the clock, replacing library or harness
// functions, running code before main or after the measured window, or overriding the
// manifest's flags. These checks give the early, readable reason; the guarantees are built in
// elsewhere (the kernel's other symbols are made local and the driver is linked first, see
// build.cpp; the driver runs the kernel under a seccomp filter, see seccomp_filter.h).
#pragma once

#include <string>
#include <vector>

namespace kopt {

/// One violation found in a candidate's object file or source.
struct Finding {
  std::string category;  ///< "file-access", "interposition", "outside-window", "flags", ...
  std::string symbol;    ///< The offending symbol, section, pragma or instruction, demangled.
  std::string message;   ///< One line naming the cheat, for the user and the model.
};

/// Symbols of an object file, read from `nm -P` output.
struct ObjectSymbols {
  std::vector<std::string> imports;  ///< Undefined, strong or weak (U, w, v).
  struct Definition {
    std::string name;
    char kind;  ///< nm's letter: T D B R G S C W V u i (global), lowercase when local.
  };
  std::vector<Definition> definitions;

  bool imports_symbol(const std::string& name) const;
  bool defines_globally(const std::string& name) const;
};

ObjectSymbols parse_nm(const std::string& nm_output);

/// Checks the kernel object's imports against the deny list (weak imports included) and its
/// global definitions of every kind against `allowed` (the manifest's functions, by unqualified
/// name) and against what the driver object (`driver`) imports or defines.
std::vector<Finding> check_symbols(const ObjectSymbols& kernel,
                                   const std::vector<std::string>& allowed,
                                   const ObjectSymbols& driver = {});

/// Convenience for `nm -P` text.
std::vector<Finding> check_symbols(const std::string& nm_output,
                                   const std::vector<std::string>& allowed);

/// The kernel's global definitions that must become local before linking: all but the
/// manifest's functions and those the driver also defines (the driver, linked first, keeps
/// its own copy of a shared inline function or template instance).
std::vector<std::string> symbols_to_localize(const ObjectSymbols& kernel,
                                             const std::vector<std::string>& allowed,
                                             const ObjectSymbols& driver);

/// Checks `readelf -SW` output for sections that run code before main or after the measured
/// window (.init_array, .ctors, .preinit_array, .fini_array, .dtors, .init, .fini).
std::vector<Finding> check_sections(const std::string& section_headers);

/// Checks `objdump -d` output for raw system calls, time-stamp counter reads and writes to the
/// floating-point control registers.
std::vector<Finding> check_instructions(const std::string& disassembly);

/// Checks the candidate's source and its preprocessed text (`g++ -E`) for pragmas and
/// attributes that change optimization or floating-point semantics (`#pragma GCC optimize`,
/// `__attribute__((optimize))`, `#pragma STDC FP_CONTRACT`, `#pragma clang fp`, ...), except
/// those `allowed` names (the manifest's "allow_pragmas", e.g. "GCC target").
std::vector<Finding> check_flags(const std::string& source, const std::string& preprocessed,
                                 const std::vector<std::string>& allowed);

/// Demangles a C++ symbol; returns it unchanged when it is not mangled.
std::string demangle(const std::string& symbol);

/// "f" from "ns::f(int, double)" or "f".
std::string base_name(const std::string& demangled);

}  // namespace kopt
