// The static half of the verifier: what a candidate's object file imports and defines. A
// kernel computes on its arguments; it has no business opening files or sockets, starting
// processes or threads outside OpenMP, reading the clock or replacing library functions.
#pragma once

#include <string>
#include <vector>

namespace kopt {

/// One violation found in a candidate's object file.
struct Finding {
  std::string category;  ///< "file-access", "network", "process", "thread", "clock", ...
  std::string symbol;    ///< The offending symbol or instruction, demangled.
  std::string message;   ///< One line naming the cheat, for the user and the model.
};

/// Checks `nm -P` output of the candidate object: imports against the deny list, and strong
/// global definitions against `allowed` (the manifest's functions, by unqualified name).
std::vector<Finding> check_symbols(const std::string& nm_output,
                                   const std::vector<std::string>& allowed);

/// Checks `objdump -d` output for raw system calls and time-stamp counter reads.
std::vector<Finding> check_instructions(const std::string& disassembly);

/// Demangles a C++ symbol; returns it unchanged when it is not mangled.
std::string demangle(const std::string& symbol);

/// "f" from "ns::f(int, double)" or "f".
std::string base_name(const std::string& demangled);

}  // namespace kopt
