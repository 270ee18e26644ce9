// Campaigns on Slurm. A campaign's pending runs go to the cluster as one batch job: an
// allocation of `runs_at_once` tasks whose script starts each run as a job step (`srun --exact`,
// one task of `cpus_per_run` CPUs), at most `runs_at_once` at a time. A whole run is one step,
// so the loop (model calls included) runs on a compute node and every A/B timing of an
// evaluation stays on that node. Each step is a one-run `kopt campaign` appending its own line to
// the campaign's index (no database); kopt follows the job with squeue, then sacct or scontrol.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "util/result.h"

namespace kopt {

struct SlurmOptions {
  std::string partition, account, time, gpus;  ///< Empty: the cluster's defaults.
  std::vector<std::string> sbatch_args;        ///< Passed to sbatch as given.
  int runs_at_once = 1;                        ///< The allocation's tasks.
  int cpus_per_run = 1;
  std::string job_name = "kopt-campaign";
};

/// The batch script that runs each command (argv) as a job step, its output appended to the
/// log of the same index.
std::string slurm_batch_script(const SlurmOptions& options,
                               const std::vector<std::vector<std::string>>& commands,
                               const std::vector<std::filesystem::path>& logs);

/// sbatch's command line for `script`, the job's own output going to `output`.
std::vector<std::string> sbatch_command(const SlurmOptions& options,
                                        const std::filesystem::path& script,
                                        const std::filesystem::path& output);

/// Submits with `command` (sbatch_command's); the job's id, or an Error with sbatch's message.
Result<std::string> submit_slurm_job(const std::vector<std::string>& command);

/// The job's state as Slurm names it (PENDING, RUNNING, COMPLETED, CANCELLED, TIMEOUT, ...):
/// squeue's while the job is queued or running, then sacct's (accounting) or scontrol's (a
/// recently ended job); "UNKNOWN" when none of them knows the job any more.
std::string slurm_job_state(const std::string& job);

/// True for the states of a job that will not run again by itself.
bool slurm_state_is_final(const std::string& state);

/// True for the states of an allocation ended by the cluster rather than its work or its user
/// (time limit, preemption, a node's failure): the campaign submits its unfinished runs again.
bool slurm_state_is_resubmittable(const std::string& state);

/// Runs `commands` (argv, each with its log) on Slurm and waits for them: follows a job that an
/// earlier kopt submitted for this campaign folder and that is still queued or running, else
/// submits one (its script, output and id under FOLDER/slurm). When the allocation ends with runs
/// unfinished (`unfinished` gives their indexes) in a state the cluster caused (time limit,
/// preemption, node failure), submits those again, at most `resubmits` times. Returns the final
/// state of the last job; an Error when sbatch refuses.
Result<std::string> run_on_slurm(const SlurmOptions& options, int resubmits,
                                 const std::filesystem::path& folder,
                                 const std::vector<std::vector<std::string>>& commands,
                                 const std::vector<std::filesystem::path>& logs,
                                 const std::function<std::vector<size_t>()>& unfinished);

/// `text` quoted for bash.
std::string shell_quote(const std::string& text);

}  // namespace kopt
