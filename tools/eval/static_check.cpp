#include "tools/eval/static_check_link.h"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string_view>

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
       {"clock_gettime",
        "__clock_gettime",
        "clock_settime",
        "gettimeofday",
        "settimeofday",
        "clock",
        "times",
        "timespec_get",
        "timer_create",
        "setitimer",
        "alarm",
        "time",
        "ftime",
        "clock_getcpuclockid",
        "pthread_getcpuclockid",
        "getrusage",
        "getitimer",
        "timer_gettime",
        "timerfd_gettime",
        "omp_get_wtime",
        "omp_get_wtick"}},
      {"signal",
       "kernels may not install signal handlers or send signals",
       {"signal", "sigaction", "raise", "kill", "tgkill", "pthread_kill", "ssignal", "gsignal",
        "bsd_signal", "sysv_signal", "__sysv_signal", "sigset", "sigvec", "sigqueue",
        "pthread_sigqueue", "killpg", "sigprocmask", "pthread_sigmask", "sigaltstack"}},
      {"system",
       "kernels may not make raw system calls or load code at run time",
       {"syscall", "dlopen", "dlsym", "dlvsym", "dlmopen", "dladdr", "dl_iterate_phdr", "ptrace",
        "prctl", "setrlimit", "prlimit", "prlimit64", "mprotect", "personality", "seccomp"}},
      {"exit", "kernels may not end the process", {"exit", "_exit", "_Exit", "quick_exit"}},
      {"outside-window",
       "kernels may not run code after the measured window (exit handlers, destructors of "
       "static objects)",
       {"atexit", "__cxa_atexit", "at_quick_exit", "on_exit", "__cxa_thread_atexit",
        "__cxa_thread_atexit_impl"}},
      {"flags",
       "kernels may not change the floating-point environment the manifest's flags fix",
       {"fesetround", "fesetenv", "feupdateenv", "feenableexcept", "fedisableexcept", "fesetmode"}},
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
    // The pre-C++11 ABI's clock, still exported by libstdc++ (red team 21).
    {"clock", "kernels may not read or alter the clock the harness times them with",
     "std::chrono::system_clock::now"},
};

std::string strip_version(const std::string& symbol) {
  auto at = symbol.find('@');
  return at == std::string::npos ? symbol : symbol.substr(0, at);
}

bool is_import_kind(char kind) {
  return kind == 'U' || kind == 'w' || kind == 'v';
}

bool is_global_definition_kind(char kind) {
  return std::string_view("TDBRGSCWVui").find(kind) != std::string_view::npos;
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

bool is_allowed(const std::string& readable, const std::vector<std::string>& allowed) {
  const std::string name = base_name(readable);
  for (const auto& ok : allowed)
    if (name == ok) return true;
  return false;
}

Finding interposition(const std::string& readable, const std::string& why) {
  return {"interposition", readable,
          "defines '" + readable + "', " + why +
              ": a kernel may define only its interface functions (make helpers static or put "
              "them in an anonymous namespace)"};
}

// Every kind of global definition: strong, weak (W, V), unique (u), indirect (i).
std::optional<Finding> check_definition(const ObjectSymbols::Definition& d,
                                        const std::vector<std::string>& allowed,
                                        const ObjectSymbols& driver) {
  const std::string readable = demangle(d.name);
  if (d.kind == 'i')
    return Finding{"outside-window", readable,
                   "defines '" + readable +
                       "' as an indirect function (ifunc, target_clones): its resolver runs "
                       "before main, outside the measured window"};
  if (is_allowed(readable, allowed)) return std::nullopt;
  if (starts_with(d.name, "DW.ref.")) return std::nullopt;  // The compiler's personality cell.
  if (driver.imports_symbol(d.name))
    return interposition(readable,
                         "which the harness calls (it would replace the harness's "
                         "clock, allocator or library function)");
  if (readable.rfind("kopt_bench::", 0) == 0)
    return interposition(readable, "a function of the harness");
  if (readable.rfind("operator new", 0) == 0 || readable.rfind("operator delete", 0) == 0)
    return interposition(readable, "the allocator the whole process uses");
  if (readable == d.name && !starts_with(d.name, "_Z"))
    return interposition(readable, "which could replace a library or harness function");
  if (std::isupper(static_cast<unsigned char>(d.kind)) && d.kind != 'W' && d.kind != 'V')
    return Finding{"interface", readable,
                   "defines the global symbol '" + readable +
                       "', which is not part of the kernel interface (" + join(allowed, ", ") +
                       "); make helpers static or put them in an anonymous namespace"};
  return std::nullopt;  // An inline function or template instance: made local by the build.
}

}  // namespace

bool ObjectSymbols::imports_symbol(const std::string& name) const {
  for (const auto& i : imports)
    if (strip_version(i) == strip_version(name)) return true;
  return false;
}

bool ObjectSymbols::defines_globally(const std::string& name) const {
  for (const auto& d : definitions)
    if (d.name == name && is_global_definition_kind(d.kind)) return true;
  return false;
}

ObjectSymbols parse_nm(const std::string& nm_output) {
  ObjectSymbols symbols;
  std::set<std::string> seen;
  std::istringstream lines(nm_output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string symbol, type;
    if (!(fields >> symbol >> type) || type.size() != 1 || !seen.insert(symbol).second) continue;
    if (is_import_kind(type[0]))
      symbols.imports.push_back(symbol);
    else
      symbols.definitions.push_back({symbol, type[0]});
  }
  return symbols;
}

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

std::vector<Finding> check_symbols(const ObjectSymbols& kernel,
                                   const std::vector<std::string>& allowed,
                                   const ObjectSymbols& driver, bool lifetime_rules) {
  std::vector<Finding> findings;
  for (const auto& d : kernel.definitions)
    if (is_global_definition_kind(d.kind))
      if (auto f = check_definition(d, allowed, driver)) findings.push_back(std::move(*f));
  for (const auto& symbol : kernel.imports)
    for (auto& f : check_import(symbol))
      if (lifetime_rules || f.category != "outside-window") findings.push_back(std::move(f));
  return findings;
}

std::vector<Finding> check_symbols(const std::string& nm_output,
                                   const std::vector<std::string>& allowed) {
  return check_symbols(parse_nm(nm_output), allowed, ObjectSymbols{});
}

std::vector<std::string> symbols_to_localize(const ObjectSymbols& kernel,
                                             const std::vector<std::string>& allowed,
                                             const ObjectSymbols& driver) {
  std::vector<std::string> names;
  for (const auto& d : kernel.definitions)
    if (is_global_definition_kind(d.kind) && !is_allowed(demangle(d.name), allowed) &&
        !driver.defines_globally(d.name))
      names.push_back(d.name);
  return names;
}

std::vector<Finding> check_sections(const std::string& section_headers) {
  static const std::regex section(
      R"(\]\s+(\.(init_array|preinit_array|fini_array|ctors|dtors)\S*|\.init|\.fini)\s)");
  std::vector<Finding> findings;
  for (std::sregex_iterator it(section_headers.begin(), section_headers.end(), section), end;
       it != end; ++it) {
    const std::string name = (*it)[1];
    const bool before = name.find("init") != std::string::npos || name == ".ctors";
    findings.push_back(
        {"outside-window", name,
         "has a " + name + " section: code that runs " + (before ? "before main" : "after main") +
             ", outside the measured window (static constructors or destructors, globals with "
             "non-trivial construction or destruction; with GCC 12, #include <iostream> adds "
             "one)"});
  }
  return findings;
}

std::vector<Finding> check_instructions(const std::string& disassembly) {
  static const std::regex syscall_insn(R"(\t(syscall|sysenter|int\s+\$0x80)\b)");
  static const std::regex tsc_insn(R"(\t(rdtsc|rdtscp|rdpid)\b)");
  static const std::regex control_insn(R"(\t(v?ldmxcsr|fldcw|fldenv|frstor|fxrstor\w*)\b)");
  std::vector<Finding> findings;
  if (std::regex_search(disassembly, syscall_insn))
    findings.push_back({"system", "syscall",
                        "contains a raw system call instruction: kernels may not bypass the C "
                        "library to reach the operating system"});
  if (std::regex_search(disassembly, tsc_insn))
    findings.push_back({"clock", "rdtsc",
                        "reads the time-stamp counter: kernels may not read the clock the "
                        "harness times them with"});
  if (std::regex_search(disassembly, control_insn))
    findings.push_back({"flags", "ldmxcsr",
                        "loads a floating-point control register (flush-to-zero, rounding): "
                        "kernels may not change the floating-point semantics the manifest's "
                        "flags fix"});
  return findings;
}

}  // namespace kopt
