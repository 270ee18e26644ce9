#include "tools/eval/static_check.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "util/strings.h"

namespace kopt {

namespace {

struct DeniedImport {
  const char* category;
  const char* what;  // Completes "calls NAME: ..."
  std::vector<std::string> names;
};

const std::vector<DeniedImport>& denied_imports() {
  static const std::vector<DeniedImport> table = {
      {"file-access",
       "kernels may not read or write files (reference outputs, caches)",
       {"fopen",     "fopen64",  "freopen",  "freopen64",  "fdopen",     "open",      "open64",
        "openat",    "openat64", "__open_2", "__open64_2", "__openat_2", "creat",     "creat64",
        "read",      "pread",    "pread64",  "write",      "pwrite",     "pwrite64",  "unlink",
        "unlinkat",  "remove",   "rename",   "mkdir",      "rmdir",      "truncate",  "ftruncate",
        "stat",      "stat64",   "lstat",    "fstatat",    "__xstat",    "__xstat64", "access",
        "faccessat", "opendir",  "readlink", "chdir",      "mkstemp",    "tmpfile",   "dup2"}},
      {"network",
       "kernels may not use the network",
       {"socket", "connect", "bind", "listen", "accept", "accept4", "getaddrinfo", "gethostbyname",
        "gethostbyname_r", "send", "sendto", "sendmsg", "recv", "recvfrom", "recvmsg",
        "socketpair"}},
      {"process",
       "kernels may not start processes",
       {"fork", "vfork", "_Fork", "clone", "clone3", "execve", "execv", "execvp", "execvpe",
        "execl", "execlp", "execle", "system", "popen", "posix_spawn", "posix_spawnp", "daemon"}},
      {"thread",
       "kernels may not start threads outside OpenMP (they could outlive the call)",
       {"pthread_create", "pthread_detach", "thrd_create"}},
      {"clock",
       "kernels may not read or alter the clock the harness times them with",
       {"clock_gettime", "clock_settime", "gettimeofday", "settimeofday", "clock", "times",
        "timer_create", "setitimer", "alarm"}},
      {"signal",
       "kernels may not install signal handlers or send signals",
       {"signal", "sigaction", "raise", "kill", "tgkill", "pthread_kill"}},
      {"system",
       "kernels may not make raw system calls or load code at run time",
       {"syscall", "dlopen", "dlsym", "dlmopen", "ptrace", "prctl", "setrlimit", "prlimit",
        "prlimit64", "mprotect", "personality", "seccomp"}},
      {"exit", "kernels may not end the process", {"exit", "_exit", "_Exit", "quick_exit"}},
  };
  return table;
}

struct DeniedPattern {
  const char* category;
  const char* what;
  const char* fragment;  // Searched in the demangled name.
};

const DeniedPattern kDeniedPatterns[] = {
    {"thread", "kernels may not start threads outside OpenMP (they could outlive the call)",
     "std::thread::_M_start_thread"},
    {"file-access", "kernels may not read or write files (reference outputs, caches)",
     "basic_ifstream"},
    {"file-access", "kernels may not read or write files (reference outputs, caches)",
     "basic_ofstream"},
    {"file-access", "kernels may not read or write files (reference outputs, caches)",
     "basic_fstream"},
    {"file-access", "kernels may not read or write files (reference outputs, caches)",
     "basic_filebuf"},
    {"file-access", "kernels may not read or write files (reference outputs, caches)",
     "std::filesystem::"},
    {"clock", "kernels may not read or alter the clock the harness times them with",
     "std::chrono::_V2::steady_clock::now"},
    {"clock", "kernels may not read or alter the clock the harness times them with",
     "std::chrono::_V2::system_clock::now"},
};

std::string strip_version(const std::string& symbol) {
  auto at = symbol.find('@');
  return at == std::string::npos ? symbol : symbol.substr(0, at);
}

std::vector<Finding> check_import(const std::string& symbol) {
  std::vector<Finding> found;
  const std::string name = strip_version(symbol);
  for (const auto& entry : denied_imports())
    for (const auto& denied : entry.names)
      if (name == denied)
        found.push_back({entry.category, name, "calls " + name + "(): " + entry.what});
  if (!found.empty()) return found;
  const std::string readable = demangle(name);
  for (const auto& pattern : kDeniedPatterns)
    if (readable.find(pattern.fragment) != std::string::npos)
      return {{pattern.category, readable,
               std::string("uses ") + pattern.fragment + ": " + pattern.what}};
  return found;
}

std::optional<Finding> check_definition(const std::string& symbol,
                                        const std::vector<std::string>& allowed) {
  const std::string readable = demangle(symbol);
  const std::string name = base_name(readable);
  for (const auto& ok : allowed)
    if (name == ok) return std::nullopt;
  if (readable == symbol && !starts_with(symbol, "_Z"))
    return Finding{"interposition", symbol,
                   "defines the global symbol '" + symbol +
                       "', which could replace a library or harness function; only " +
                       join(allowed, ", ") + " may be defined (make helpers static)"};
  return Finding{"interface", readable,
                 "defines the global symbol '" + readable +
                     "', which is not part of the kernel interface (" + join(allowed, ", ") +
                     "); make helpers static or put them in an anonymous namespace"};
}

}  // namespace

std::string demangle(const std::string& symbol) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(
      abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && text ? std::string(text.get()) : symbol;
}

std::string base_name(const std::string& demangled) {
  std::string name = demangled.substr(0, demangled.find('('));
  // Drop template arguments and qualifiers: "ns::f<int>" -> "f".
  if (auto angle = name.find('<'); angle != std::string::npos) name = name.substr(0, angle);
  if (auto colon = name.rfind("::"); colon != std::string::npos) name = name.substr(colon + 2);
  return trim(name);
}

std::vector<Finding> check_symbols(const std::string& nm_output,
                                   const std::vector<std::string>& allowed) {
  std::vector<Finding> findings;
  std::set<std::string> seen;
  std::istringstream lines(nm_output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string symbol, type;
    if (!(fields >> symbol >> type) || type.size() != 1 || !seen.insert(symbol).second) continue;
    const char kind = type[0];
    if (kind == 'U') {
      for (auto& f : check_import(symbol)) findings.push_back(std::move(f));
    } else if (kind == 'T' || kind == 'D' || kind == 'B' || kind == 'R' || kind == 'G' ||
               kind == 'S' || kind == 'C') {
      if (auto f = check_definition(symbol, allowed)) findings.push_back(std::move(*f));
    }
  }
  return findings;
}

std::vector<Finding> check_instructions(const std::string& disassembly) {
  static const std::regex syscall_insn(R"(\t(syscall|sysenter|int\s+\$0x80)\b)");
  static const std::regex tsc_insn(R"(\t(rdtsc|rdtscp|rdpid)\b)");
  std::vector<Finding> findings;
  if (std::regex_search(disassembly, syscall_insn))
    findings.push_back({"system", "syscall",
                        "contains a raw system call instruction: kernels may not bypass the C "
                        "library to reach the operating system"});
  if (std::regex_search(disassembly, tsc_insn))
    findings.push_back({"clock", "rdtsc",
                        "reads the time-stamp counter: kernels may not read the clock the "
                        "harness times them with"});
  return findings;
}

}  // namespace kopt
