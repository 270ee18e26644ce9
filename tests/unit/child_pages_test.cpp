// What the serving process sees of a stopped block's process (session.h, ChildPages): the first
// byte of an input the child changed, none where it changed nothing or wrote back what was
// there; and the system call filter's refusal of page merging, which would hide a written page.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "benchmarks/common/harness.h"

namespace kopt {

namespace {

using kopt_bench::session::ChildPages;

// Forks a child that runs `act` and stops itself; returns its pid, stopped.
template <class F>
pid_t stopped_child(F act) {
  const pid_t child = fork();
  if (child == 0) {
    act();
    raise(SIGSTOP);
    _exit(0);
  }
  siginfo_t info{};
  waitid(P_PID, static_cast<id_t>(child), &info, WSTOPPED);
  return child;
}

void end(pid_t child) {
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
}

// Four private anonymous pages, every byte 7, unmapped at the end of the test.
struct FilledPages {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t size = 4 * page;
  char* bytes = static_cast<char*>(
      mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  FilledPages() {
    if (bytes != MAP_FAILED) std::memset(bytes, 7, size);
  }
  ~FilledPages() {
    if (bytes != MAP_FAILED) munmap(bytes, size);
  }
};

TEST(ChildPagesTest, FindsTheFirstByteAChildChanged) {
  std::vector<double> input(100000, 1.5);
  const auto* bytes = reinterpret_cast<const char*>(input.data());
  const pid_t child = stopped_child([&] { input[70000] = 2.5; });
  const auto at = ChildPages(child).first_change(bytes, input.size() * sizeof(double));
  ASSERT_TRUE(at.has_value());
  // The first byte that differs between 1.5 and 2.5 in the element's representation.
  EXPECT_GE(*at, 70000 * sizeof(double));
  EXPECT_LT(*at, 70001 * sizeof(double));
  end(child);
}

TEST(ChildPagesTest, SeesNothingWhereTheChildChangedNothing) {
  std::vector<double> input(100000, 1.5), other(1000, 0.0);
  const auto* bytes = reinterpret_cast<const char*>(input.data());
  // The second child writes the input's pages back with what they held: copied, not changed.
  for (bool write_back : {false, true}) {
    const pid_t child = stopped_child([&] {
      other[3] = 4.0;
      if (write_back)
        for (double& v : input) v = 1.5;
    });
    EXPECT_FALSE(ChildPages(child).first_change(bytes, input.size() * sizeof(double)));
    end(child);
  }
}

TEST(ChildPagesTest, SeesAPageTheChildGaveBack) {
  FilledPages pages;
  ASSERT_NE(pages.bytes, MAP_FAILED);
  const size_t page = pages.page;
  char* input = pages.bytes;
  // Advised away, the page reads as zeros: not what was filled.
  const pid_t child = stopped_child([&] { madvise(input + 2 * page, page, MADV_DONTNEED); });
  EXPECT_EQ(ChildPages(child).first_change(input, 4 * page), 2 * page);
  end(child);
}

TEST(ChildPagesTest, SeesWritesToASharedMappingTheChildAliased) {
  // Red team 20: the child replaced the input's pages with a shared mapping of the same
  // contents at the same address, aliased it (mremap of size 0) so that no page was mapped
  // once only, and wrote it. The filter refuses shared mappings too; this is the second line.
  FilledPages pages;
  ASSERT_NE(pages.bytes, MAP_FAILED);
  const size_t page = pages.page;
  char* input = pages.bytes;
  const pid_t child = stopped_child([&] {
    munmap(input, 4 * page);
    void* at = mmap(input, 4 * page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (at != input) _exit(3);
    for (size_t i = 0; i < 4 * page; ++i) input[i] = 7;
    volatile char* alias = static_cast<char*>(mremap(input, 0, 4 * page, MREMAP_MAYMOVE));
    for (size_t o = 0; o < 4 * page; o += page) (void)alias[o];
    input[page + 5] = 9;
  });
  EXPECT_EQ(ChildPages(child).first_change(input, 4 * page), page + 5);
  end(child);
}

// How a child under the system call filter ends after making the call `call`.
template <class F>
int status_under_filter(F call) {
  const pid_t child = fork();
  if (child == 0) {
    kopt_bench::install_syscall_filter({}, {});
    call();
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return status;
}

TEST(SyscallFilterTest, RefusesPageMergingAndAllowsOtherAdvice) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* m = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(m, MAP_FAILED);
  const int merged = status_under_filter([&] { madvise(m, page, MADV_MERGEABLE); });
  // The filter's handler names the call, then dies of SIGSYS (seccomp_filter.h).
  EXPECT_TRUE(WIFSIGNALED(merged) && WTERMSIG(merged) == SIGSYS) << merged;
  const int dropped = status_under_filter([&] { madvise(m, page, MADV_DONTNEED); });
  EXPECT_TRUE(WIFEXITED(dropped) && WEXITSTATUS(dropped) == 0) << dropped;
  // Shared memory of its own could be mapped twice and pass for the serving process's.
  const int shared = status_under_filter(
      [&] { mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0); });
  EXPECT_TRUE(WIFSIGNALED(shared) && WTERMSIG(shared) == SIGSYS) << shared;
  const int own = status_under_filter(
      [&] { mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); });
  EXPECT_TRUE(WIFEXITED(own) && WEXITSTATUS(own) == 0) << own;
  munmap(m, page);
}

}  // namespace

}  // namespace kopt
