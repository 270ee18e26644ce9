#include "sandbox/sandbox.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "../support/kopt_cli.h"
#include "util/files.h"

namespace kopt {

namespace {

using test::count_processes;

class SandboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (auto usable = probe_sandbox(); !usable)
      GTEST_SKIP() << "bubblewrap unusable: " << usable.error().message;
    workspace_ = std::make_unique<TempDir>("sandbox-test-", std::filesystem::temp_directory_path());
    share_workspace(workspace_->path(), policy_);
  }

  ProcessResult run(const std::string& script,
                    std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", script};
    spec.env = {{"PATH", "/usr/bin:/bin"}};
    spec.timeout = timeout;
    return LocalProcessRunner().run(confine(spec, workspace_->path(), policy_));
  }

  SandboxPolicy policy_;
  std::unique_ptr<TempDir> workspace_;
};

}  // namespace

TEST_F(SandboxTest, WorkspaceIsWritableAndTheSystemIsNot) {
  ProcessResult r = run(
      "echo hi > out.txt && cat out.txt && touch /usr/kopt-x 2>&1; touch /etc/kopt-x 2>&1; true");
  EXPECT_NE(r.output.find("hi"), std::string::npos);
  EXPECT_NE(r.output.find("Read-only file system"), std::string::npos) << r.output;
  EXPECT_TRUE(std::filesystem::exists(workspace_->path() / "out.txt"));
  EXPECT_FALSE(std::filesystem::exists("/usr/kopt-x"));
}

TEST_F(SandboxTest, UserFilesAreInvisible) {
  const std::string here = std::filesystem::current_path().string();
  ProcessResult r = run("ls " + here + " 2>&1; ls /root 2>&1; ls /home 2>&1; echo done");
  EXPECT_NE(r.output.find("No such file"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("done"), std::string::npos);
}

TEST_F(SandboxTest, TemporaryFolderIsPrivate) {
  const std::filesystem::path marker =
      std::filesystem::temp_directory_path() / "kopt-sandbox-marker";
  ASSERT_TRUE(write_file(marker, "secret"));
  ProcessResult r =
      run("cat " + marker.string() + " 2>&1; echo leaked > /tmp/kopt-from-sandbox; echo done");
  EXPECT_EQ(r.output.find("secret"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists("/tmp/kopt-from-sandbox"));
  std::filesystem::remove(marker);
}

TEST_F(SandboxTest, NoNetworkButLoopback) {
  ProcessResult r = run("cat /proc/net/dev");
  EXPECT_NE(r.output.find("lo:"), std::string::npos);
  int interfaces = 0;
  for (char c : r.output) interfaces += c == ':';
  EXPECT_EQ(interfaces, 1) << r.output;
}

TEST_F(SandboxTest, EnvironmentIsCleared) {
  setenv("OPENAI_API_KEY", "sk-should-not-leak", 1);
  ProcessResult r = run("env");
  EXPECT_EQ(r.output.find("sk-should-not-leak"), std::string::npos);
  EXPECT_NE(r.output.find("PATH="), std::string::npos);
}

TEST_F(SandboxTest, RunsUnprivileged) {
  ProcessResult r = run("id -u; grep CapEff /proc/self/status");
  EXPECT_NE(r.output.find("CapEff:\t0000000000000000"), std::string::npos) << r.output;
}

TEST_F(SandboxTest, ForkBombIsContainedAndLeavesNothingBehind) {
  policy_.limits = candidate_limits(1ull << 30, 30);
  policy_.limits.processes = 64;
  const auto start = std::chrono::steady_clock::now();
  // Keeps forking after fork starts failing (a shell would give up), until the timeout kills it.
  ProcessResult r =
      run("exec perl -e 'while (1) { my $p = fork(); if (defined $p && !$p) { exec(\"sleep\", "
          "\"1234\") } }'",
          std::chrono::seconds(2));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.timed_out) << r.describe() << r.output;
  EXPECT_LT(seconds, 10);
  usleep(300000);
  EXPECT_EQ(count_processes({"sleep", "1234"}), 0);
}

TEST_F(SandboxTest, ReadOnlyFoldersUnderTmpStayVisible) {
  TempDir exposed("sandbox-exposed-", std::filesystem::temp_directory_path());
  ASSERT_TRUE(write_file(exposed.path() / "tool.txt", "visible"));
  std::filesystem::permissions(
      exposed.path(), std::filesystem::perms::others_read | std::filesystem::perms::others_exec,
      std::filesystem::perm_options::add);
  policy_.read_only.push_back(exposed.path());
  ProcessResult r = run("cat " + (exposed.path() / "tool.txt").string());
  EXPECT_EQ(r.output, "visible") << r.output;
}

TEST_F(SandboxTest, TimeoutKillsEverythingInside) {
  ProcessResult r = run("sleep 4321 & sleep 4321", std::chrono::milliseconds(500));
  EXPECT_TRUE(r.timed_out);
  usleep(300000);
  EXPECT_EQ(count_processes({"sleep", "4321"}), 0);
}

TEST(SandboxPolicyTest, DisabledSandboxStillClearsTheEnvironmentAndAppliesLimits) {
  SandboxPolicy policy;
  policy.enabled = false;
  policy.limits.cpu_seconds = 5;
  ProcessSpec spec;
  spec.argv = {"/bin/true"};
  ProcessSpec confined = confine(spec, "/tmp", policy);
  EXPECT_EQ(confined.argv, spec.argv);
  EXPECT_EQ(confined.limits.cpu_seconds, 5u);
  EXPECT_EQ(describe(policy), "none (--no-sandbox)");
}

}  // namespace kopt
