#include "agent/cluster/slurm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "sandbox/process.h"
#include "util/files.h"

namespace kopt {
namespace {

// Runs `script` with bash, `srun` being a stand-in on the PATH that logs its arguments and runs
// the command after them: what the batch script does with the commands, without a cluster.
ProcessResult run_script_with_logging_srun(const TempDir& dir, const std::string& script) {
  const std::string srun =
      "#!/bin/bash\n"
      "args=()\n"
      "while [ $# -gt 0 ] && [ \"${1#--}\" != \"$1\" ]; do args+=(\"$1\"); shift; done\n"
      "echo \"srun ${args[*]} :: $*\" >> " +
      (dir.path() / "steps.log").string() +
      "\n"
      "exec \"$@\"\n";
  EXPECT_TRUE(write_file(dir.path() / "bin" / "srun", srun));
  std::filesystem::permissions(dir.path() / "bin" / "srun", std::filesystem::perms::owner_all);
  EXPECT_TRUE(write_file(dir.path() / "batch.sh", script));
  ProcessSpec spec;
  spec.argv = {"/bin/bash", (dir.path() / "batch.sh").string()};
  spec.env = {{"PATH", (dir.path() / "bin").string() + ":/usr/bin:/bin"}, {"SLURM_JOB_ID", "7"}};
  spec.timeout = std::chrono::seconds(30);
  return LocalProcessRunner().run(spec);
}

TEST(SlurmTest, TheBatchScriptRunsEveryCommandAsAStepWithItsLogAndQuotesWords) {
  TempDir dir("kopt-slurm-test-");
  SlurmOptions options;
  options.runs_at_once = 2;
  options.cpus_per_run = 3;
  const std::string odd = "it's \"quoted\" $HOME `x` ; rm";
  std::vector<std::vector<std::string>> commands;
  std::vector<std::filesystem::path> logs;
  for (int i = 0; i < 5; ++i) {
    const auto out = dir.path() / ("out" + std::to_string(i));
    commands.push_back({"/bin/sh", "-c", "printf '%s' \"$1\" > " + out.string(), "sh", odd});
    logs.push_back(dir.path() / ("step " + std::to_string(i) + ".log"));
  }
  ProcessResult r = run_script_with_logging_srun(dir, slurm_batch_script(options, commands, logs));
  ASSERT_TRUE(r.succeeded()) << r.output;
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(read_file(dir.path() / ("out" + std::to_string(i))).value(), odd) << i;
  const std::string steps = read_file(dir.path() / "steps.log").value();
  for (const char* want :
       {"--exact", "--ntasks=1", "--cpus-per-task=3", "--open-mode=append", "--output="})
    EXPECT_NE(steps.find(want), std::string::npos) << want << "\n" << steps;
  EXPECT_NE(steps.find("step 4.log"), std::string::npos) << steps;
  EXPECT_EQ(steps.find("--gpus-per-task"), std::string::npos) << "no GPU asked, none given";
  options.gpus = "2";
  EXPECT_NE(slurm_batch_script(options, commands, logs).find("--gpus-per-task=1"),
            std::string::npos)
      << "with --exact, a step gets a GPU only when it asks for one";
  EXPECT_NE(r.output.find("allocation 7"), std::string::npos) << r.output;
}

TEST(SlurmTest, TheBatchScriptRunsAtMostRunsAtOnceStepsAtATime) {
  TempDir dir("kopt-slurm-test-");
  SlurmOptions options;
  options.runs_at_once = 2;
  std::vector<std::vector<std::string>> commands;
  std::vector<std::filesystem::path> logs;
  const std::string count = (dir.path() / "running").string();
  // Each step adds itself to a count of running steps, records the count, waits, leaves.
  const std::string step = "flock " + count + ".lock sh -c 'n=$(cat " + count +
                           " 2>/dev/null || echo 0); echo $((n+1)) > " + count +
                           "; echo $((n+1)) >> " + count + ".seen'; sleep 0.3; flock " + count +
                           ".lock sh -c 'n=$(cat " + count + "); echo $((n-1)) > " + count + "'";
  for (int i = 0; i < 6; ++i) {
    commands.push_back({"/bin/sh", "-c", step});
    logs.push_back(dir.path() / ("step" + std::to_string(i) + ".log"));
  }
  ProcessResult r = run_script_with_logging_srun(dir, slurm_batch_script(options, commands, logs));
  ASSERT_TRUE(r.succeeded()) << r.output;
  const std::string seen = read_file(dir.path() / "running.seen").value_or("");
  EXPECT_EQ(std::count(seen.begin(), seen.end(), '\n'), 6) << seen;
  EXPECT_NE(seen.find('2'), std::string::npos) << "two steps never ran at once:\n" << seen;
  EXPECT_EQ(seen.find('3'), std::string::npos) << "more than two steps ran at once:\n" << seen;
}

TEST(SlurmTest, SbatchGetsTheAllocationAndEveryOptionPassedThrough) {
  SlurmOptions o;
  o.partition = "gpu";
  o.account = "proj42";
  o.time = "1:30:00";
  o.gpus = "2";
  o.sbatch_args = {"--qos=high", "--constraint=h100"};
  o.runs_at_once = 4;
  o.cpus_per_run = 8;
  const auto command = sbatch_command(o, "/c/slurm/a.sh", "/c/slurm/a.out");
  const std::vector<std::string> want = {"sbatch",
                                         "--parsable",
                                         "--job-name=kopt-campaign",
                                         "--ntasks=4",
                                         "--cpus-per-task=8",
                                         "--open-mode=append",
                                         "--no-requeue",
                                         "--output=/c/slurm/a.out",
                                         "--partition=gpu",
                                         "--account=proj42",
                                         "--time=1:30:00",
                                         "--gpus=2",
                                         "--qos=high",
                                         "--constraint=h100",
                                         "/c/slurm/a.sh"};
  EXPECT_EQ(command, want);
  const auto plain = sbatch_command(SlurmOptions{}, "s.sh", "s.out");
  EXPECT_EQ(plain.size(), 9u) << "no empty option reaches sbatch";
  const auto odd = sbatch_command(SlurmOptions{}, "/c/50%/a.sh", "/c/50%/a.out");
  EXPECT_NE(std::find(odd.begin(), odd.end(), "--output=/c/50%%/a.out"), odd.end())
      << "a '%' in a path is not one of Slurm's patterns";
}

TEST(SlurmTest, StatesTheClusterCausedAreResubmittedOthersAreNot) {
  for (const char* live : {"PENDING", "RUNNING", "COMPLETING", "CONFIGURING", "SUSPENDED"})
    EXPECT_FALSE(slurm_state_is_final(live)) << live;
  for (const char* final : {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
                            "OUT_OF_MEMORY", "UNKNOWN"})
    EXPECT_TRUE(slurm_state_is_final(final)) << final;
  for (const char* again : {"TIMEOUT", "PREEMPTED", "NODE_FAIL", "BOOT_FAIL", "DEADLINE"})
    EXPECT_TRUE(slurm_state_is_resubmittable(again)) << again;
  for (const char* not_again : {"CANCELLED", "COMPLETED", "FAILED", "OUT_OF_MEMORY", "UNKNOWN"})
    EXPECT_FALSE(slurm_state_is_resubmittable(not_again)) << not_again;
}

TEST(SlurmTest, ASubmissionThatSbatchRefusesIsAnErrorWithItsMessage) {
  auto job =
      submit_slurm_job({"/bin/sh", "-c", "echo 'sbatch: error: invalid partition' >&2; exit 1"});
  ASSERT_FALSE(job.ok());
  EXPECT_NE(job.error().message.find("invalid partition"), std::string::npos)
      << job.error().message;
  auto odd = submit_slurm_job({"/bin/echo", "Submitted batch job"});
  EXPECT_FALSE(odd.ok()) << "a reply without a job id is refused";
  auto ok = submit_slurm_job({"/bin/echo", "4242;cluster"});
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(*ok, "4242");
  // A site's warning before the id (stderr and stdout come together) is not the id.
  auto warned = submit_slurm_job(
      {"/bin/sh", "-c", "echo 'sbatch: warning: 12 is the default partition limit' >&2; echo 77"});
  ASSERT_TRUE(warned.ok()) << warned.error().message;
  EXPECT_EQ(*warned, "77");
}

}  // namespace
}  // namespace kopt
