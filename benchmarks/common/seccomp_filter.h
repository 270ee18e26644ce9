// The second line of defence behind bubblewrap, part of the trusted harness: a seccomp filter
// that the driver installs before the first kernel call. From then on the process may compute,
// manage memory, run OpenMP threads and write to (in a session: read from) the descriptors the
// harness already holds;
// any other system call (open a file, a socket, fork, exec, ptrace, read another process,
// set the clock, signal another process, install a SIGSYS handler) never runs: the harness's
// SIGSYS handler names it on stderr and the process dies of SIGSYS, which kopt reports as
// "the kernel made a forbidden system call: NAME". A system call hidden from any listing of
// the kernel's instructions is caught all the same.
//
// The filter is an allowlist stated as data (kAllowed below, plus the argument rules in
// build_filter). It is applied to every thread of the process (TSYNC) and inherited by every
// thread created later. After install_syscall_filter() the harness itself can no longer open
// files: everything it writes must be open before (see kopt_bench::main).
//
// CPU drivers only: the CUDA driver library opens device files and issues ioctls we cannot
// enumerate, so CUDA benchmarks rely on bubblewrap alone (see DESIGN.md).
#pragma once

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <vector>

/// The end of the program's image (its bss), defined by the linker for every executable.
extern "C" char _end[];

namespace kopt_bench {

/// Exit status when the filter cannot be installed (the kernel is then never called).
inline constexpr int kExitNoFilter = 87;

namespace seccomp_detail {

#if defined(__x86_64__)
inline constexpr uint32_t kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
inline constexpr uint32_t kArch = AUDIT_ARCH_AARCH64;
#else
#error "kopt's syscall filter knows x86-64 and AArch64 only"
#endif

/// System calls allowed with any arguments: memory, waiting, threads' own bookkeeping, time,
/// and the end of a thread or the process.
inline constexpr long kAllowed[] = {
    SYS_brk,
    SYS_futex,
    SYS_sched_yield,
    SYS_sched_getaffinity,
    SYS_sched_setaffinity,
    SYS_clock_gettime,
    SYS_clock_getres,
    SYS_clock_nanosleep,
    SYS_nanosleep,
    SYS_gettid,
    SYS_getpid,
    SYS_rt_sigreturn,
    SYS_rt_sigprocmask,
    SYS_sigaltstack,
    SYS_set_robust_list,
    SYS_rseq,
    SYS_getrandom,
    SYS_exit,
    SYS_exit_group,
    SYS_close,
    SYS_lseek,
    SYS_getdents64,
    SYS_membarrier,
};

/// Names of the calls an attacker reaches for first, for the verdict; others print a number.
struct SyscallName {
  long number;
  const char* name;
};
inline constexpr SyscallName kNames[] = {
#ifdef SYS_open
    {SYS_open, "open"},
#endif
    {SYS_openat, "openat"},
    {SYS_read, "read"},
    {SYS_pread64, "pread64"},
    {SYS_write, "write"},
    {SYS_socket, "socket"},
    {SYS_connect, "connect"},
    {SYS_clone, "clone"},
#ifdef SYS_fork
    {SYS_fork, "fork"},
    {SYS_vfork, "vfork"},
#endif
    {SYS_execve, "execve"},
    {SYS_execveat, "execveat"},
    {SYS_ptrace, "ptrace"},
    {SYS_process_vm_readv, "process_vm_readv"},
    {SYS_process_vm_writev, "process_vm_writev"},
    {SYS_clock_settime, "clock_settime"},
    {SYS_settimeofday, "settimeofday"},
    {SYS_kill, "kill"},
    {SYS_tgkill, "tgkill"},
    {SYS_rt_sigaction, "rt_sigaction"},
    {SYS_mmap, "mmap"},
    {SYS_mprotect, "mprotect"},
    {SYS_munmap, "munmap"},
    {SYS_mremap, "mremap"},
    {SYS_madvise, "madvise"},
    {SYS_ioctl, "ioctl"},
    {SYS_prctl, "prctl"},
    {SYS_seccomp, "seccomp"},
    {SYS_getppid, "getppid"},
    {SYS_newfstatat, "newfstatat"},
    {SYS_uname, "uname"},
};

/// The first page past the program's own image (code, relocations, data, bss): its linker-made
/// end symbol, rounded up to a page.
inline uint64_t program_image_end() {
  const auto end = reinterpret_cast<uint64_t>(&_end[0]);
  const auto page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return (end + page - 1) / page * page;
}

inline sock_filter stmt(uint16_t code, uint32_t k) {
  return BPF_STMT(code, k);
}
inline sock_filter jump(uint16_t code, uint32_t k, uint8_t jt, uint8_t jf) {
  return BPF_JUMP(code, k, jt, jf);
}

constexpr uint32_t kNr = offsetof(seccomp_data, nr);
constexpr uint32_t kArchOffset = offsetof(seccomp_data, arch);
constexpr uint32_t arg_low(int i) {
  return offsetof(seccomp_data, args) + 8 * i;  // Little-endian: the low 32 bits first.
}
constexpr uint32_t arg_high(int i) {
  return arg_low(i) + 4;
}

/// A program under construction; `allow_if` appends "if nr == N and <test> then ALLOW".
class Program {
 public:
  void load_nr() { code_.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, kNr)); }
  void allow(long nr) {
    code_.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 1));
    code_.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  }
  /// nr == N and (arg & mask) == mask.
  void allow_if_bits_set(long nr, int arg, uint32_t mask) {
    code_.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 5));
    code_.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, arg_low(arg)));
    code_.push_back(stmt(BPF_ALU | BPF_AND | BPF_K, mask));
    code_.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, mask, 0, 1));
    code_.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    load_nr();
  }
  /// nr == N and arg == value (a 32-bit value, upper half zero).
  void allow_if_equal(long nr, int arg, uint32_t value) {
    code_.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 6));
    code_.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, arg_high(arg)));
    code_.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3));
    code_.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, arg_low(arg)));
    code_.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1));
    code_.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    load_nr();
  }
  /// nr == N and arg != value (32-bit comparison: for signal numbers).
  void allow_unless_low_equal(long nr, int arg, uint32_t value) {
    on_low_comparison(nr, arg, value, false, SECCOMP_RET_ALLOW);
  }
  /// nr == N and arg == value (low half) then TRAP, before any rule that would allow the call.
  void refuse_if_low_equal(long nr, int arg, uint32_t value) {
    on_low_comparison(nr, arg, value, true, SECCOMP_RET_TRAP);
  }
  /// nr == N and arg 0 (an address) >= floor and (arg `flag_arg` & mask) == 0 (low half).
  void allow_above(long nr, uint64_t floor, int flag_arg = 0, uint32_t mask = 0) {
    const auto floor_high = static_cast<uint32_t>(floor >> 32);
    const auto floor_low = static_cast<uint32_t>(floor);
    code_.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 8));
    code_.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, arg_low(flag_arg)));
    code_.push_back(jump(BPF_JMP | BPF_JSET | BPF_K, mask, 6, 0));  // A flag: refused.
    code_.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, arg_high(0)));
    code_.push_back(jump(BPF_JMP | BPF_JGT | BPF_K, floor_high, 3, 0));  // Above: allowed.
    code_.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, floor_high, 0, 3));  // Below: refused.
    code_.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, arg_low(0)));
    code_.push_back(jump(BPF_JMP | BPF_JGE | BPF_K, floor_low, 0, 1));
    code_.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    load_nr();
  }
  /// nr == N and (arg a & mask_a) == 0 and (arg b & mask_b) == 0 (low halves).
  void allow_if_both_clear(long nr, int a, uint32_t mask_a, int b, uint32_t mask_b) {
    code_.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 5));
    code_.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, arg_low(a)));
    code_.push_back(jump(BPF_JMP | BPF_JSET | BPF_K, mask_a, 3, 0));
    code_.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, arg_low(b)));
    code_.push_back(jump(BPF_JMP | BPF_JSET | BPF_K, mask_b, 1, 0));
    code_.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    load_nr();
  }
  void push(sock_filter insn) { code_.push_back(insn); }
  std::vector<sock_filter>& code() { return code_; }

 private:
  // nr == N: returns `action` when the argument's low half equals `value` (`when_equal`) or
  // differs from it; every other case goes on to the next rule with the number reloaded.
  void on_low_comparison(long nr, int arg, uint32_t value, bool when_equal, uint32_t action) {
    code_.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 3));
    code_.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, arg_low(arg)));
    code_.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, value, when_equal ? 0 : 1, when_equal ? 1 : 0));
    code_.push_back(stmt(BPF_RET | BPF_K, action));
    load_nr();
  }

  std::vector<sock_filter> code_;
};

/// The whole filter: architecture check, the allowlist, the argument rules, then TRAP.
inline std::vector<sock_filter> build_filter(std::vector<int> writable_fds,
                                             const std::vector<int>& readable_fds) {
  writable_fds.push_back(2);
  Program p;
  p.push(stmt(BPF_LD | BPF_W | BPF_ABS, kArchOffset));
  p.push(jump(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0));
  p.push(stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
  p.load_nr();
#if defined(__x86_64__)
  p.push(jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));  // x32 numbers: never.
  p.push(stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
#endif
  for (long nr : kAllowed) p.allow(nr);
  // New mappings and protections never executable: no code is made at run time. Nothing at or
  // below the end of the program's own image is unmapped, remapped, re-protected or advised
  // away, and no mapping is placed at a fixed address: the driver is linked with full RELRO, so
  // its relocation table, like its code, stays read-only (a kernel cannot redirect the
  // harness's calls into its own code). The heap and every other mapping lie above the image.
  const uint64_t image_end = program_image_end();
  // Nor shared: memory a block's process maps for itself is private, so that a page it maps
  // twice (mremap of a shared mapping) cannot pass for one it still shares with the serving
  // process (session.h, ChildPages; red team 20).
  p.allow_if_both_clear(SYS_mmap, 2, PROT_EXEC, 3, MAP_FIXED | MAP_SHARED);
  p.allow_above(SYS_mprotect, image_end, 2, PROT_EXEC);
  p.allow_above(SYS_munmap, image_end);
  // Never merged with identical pages elsewhere (KSM): a merged page is no longer the
  // process's alone, and the serving process reads only the pages a block's process holds
  // alone when it compares the inputs (session.h, ChildPages).
  p.refuse_if_low_equal(SYS_madvise, 2, MADV_MERGEABLE);
  p.allow_above(SYS_madvise, image_end);
  p.allow_above(SYS_mremap, image_end, 3, MREMAP_FIXED);
  // Threads only for OpenMP's pool (a driver built with -fopenmp), never a new process; a
  // sequential benchmark's kernel has no reason to make a thread, which could only work outside
  // the measured window. clone3 hides its flags in memory, so it answers ENOSYS and the C
  // library falls back to clone.
#ifdef _OPENMP
  p.allow_if_bits_set(SYS_clone, 0, CLONE_THREAD | CLONE_VM);
#endif
  p.push(jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1));
  p.push(stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 38));  // ENOSYS
  p.load_nr();
  // Signals: any handler but SIGSYS's (the harness's reporter); signals only to itself.
  p.allow_unless_low_equal(SYS_rt_sigaction, 0, SIGSYS);
  p.allow_if_equal(SYS_tgkill, 0, static_cast<uint32_t>(getpid()));
  // fstat (glibc's is newfstatat(fd, "", AT_EMPTY_PATH)) and resource queries without a change.
  p.allow_if_equal(SYS_newfstatat, 3, AT_EMPTY_PATH);
  p.allow_if_equal(SYS_prlimit64, 2, 0);
  // Writes only to descriptors the harness holds, and stderr.
  for (int fd : writable_fds) {
    p.allow_if_equal(SYS_write, 0, static_cast<uint32_t>(fd));
    p.allow_if_equal(SYS_writev, 0, static_cast<uint32_t>(fd));
  }
  // Reads only from descriptors the harness holds (the session's command pipe).
  for (int fd : readable_fds) p.allow_if_equal(SYS_read, 0, static_cast<uint32_t>(fd));
  p.push(stmt(BPF_RET | BPF_K, SECCOMP_RET_TRAP));
  return std::move(p.code());
}

inline const char* syscall_name(long nr) {
  for (const auto& entry : kNames)
    if (entry.number == nr) return entry.name;
  return nullptr;
}

/// Appends the decimal digits of `value` at `out`; returns the end.
inline char* put_number(char* out, long value) {
  char digits[24];
  int n = 0;
  unsigned long v = value < 0 ? 0ul - static_cast<unsigned long>(value) : value;
  do digits[n++] = static_cast<char>('0' + v % 10);
  while ((v /= 10) && n < 24);
  if (value < 0) *out++ = '-';
  while (n) *out++ = digits[--n];
  return out;
}

inline char* put_text(char* out, const char* text) {
  while (*text) *out++ = *text++;
  return out;
}

/// The SIGSYS handler: names the call on stderr, then makes a forbidden call while SIGSYS is
/// blocked, which makes the kernel reset SIGSYS to its default and kill the process with it.
inline void on_forbidden_syscall(int, siginfo_t* info, void*) {
  char line[128];
  char* end = put_text(line, "\nkopt-harness: forbidden system call: ");
  if (const char* name = syscall_name(info->si_syscall))
    end = put_text(end, name);
  else
    end = put_number(put_text(end, "#"), info->si_syscall);
  *end++ = '\n';
  (void)!::write(2, line, static_cast<size_t>(end - line));
  ::syscall(SYS_getppid);
  ::_exit(kExitNoFilter);
}

}  // namespace seccomp_detail

/// Installs the filter on every thread of the process; `writable_fds` are the descriptors the
/// harness writes after this point (stderr is always one), `readable_fds` those it reads. Exits
/// with kExitNoFilter when the operating system refuses, so a kernel never runs unfiltered.
inline void install_syscall_filter(std::initializer_list<int> writable_fds,
                                   std::initializer_list<int> readable_fds = {}) {
  struct sigaction action {};
  action.sa_sigaction = seccomp_detail::on_forbidden_syscall;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  std::vector<sock_filter> code =
      seccomp_detail::build_filter(std::vector<int>(writable_fds), std::vector<int>(readable_fds));
  sock_fprog program{static_cast<unsigned short>(code.size()), code.data()};
  if (::sigaction(SIGSYS, &action, nullptr) != 0 || ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program) != 0) {
    static const char message[] = "kopt-harness: cannot install the system call filter\n";
    (void)!::write(2, message, sizeof message - 1);
    ::_exit(kExitNoFilter);
  }
}

}  // namespace kopt_bench
