// One writer per run: the process that creates or resumes a run holds its lock until it ends.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include "agent/record/run_record.h"
#include "util/files.h"

namespace kopt {

namespace {

const Json kInfo = {{"benchmark", {{"name", "licm"}}}, {"config", {{"llm", "local"}}}};

}  // namespace

TEST(RunLockTest, ARunBeingWrittenRefusesASecondWriterNamingThePid) {
  TempDir runs("kopt-run-lock-");
  auto record = RunRecord::create(runs.path(), "licm", kInfo);
  ASSERT_TRUE(record.ok()) << record.error().message;
  const auto dir = record->dir();
  const pid_t pid = ::fork();
  if (pid == 0) {  // Another process tries to resume it.
    auto other = RunRecord::open(dir);
    if (!other) std::_Exit(2);
    auto refused = other->lock_for_writing("kopt resume");
    const bool named =
        !refused && refused.error().message.find("held by pid " + std::to_string(::getppid()) +
                                                 ": kopt run") != std::string::npos;
    std::_Exit(named ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(RunLockTest, ARunIsFreeOnceItsWriterIsGone) {
  TempDir runs("kopt-run-lock-");
  std::filesystem::path dir;
  {
    auto record = RunRecord::create(runs.path(), "licm", kInfo);
    ASSERT_TRUE(record.ok());
    dir = record->dir();
  }
  auto reopened = RunRecord::open(dir);
  ASSERT_TRUE(reopened.ok()) << reopened.error().message;
  EXPECT_TRUE(reopened->lock_for_writing("kopt resume").ok());
}

}  // namespace kopt
