#include "agent/cluster/slurm.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "sandbox/process.h"
#include "util/file_lock.h"
#include "util/files.h"
#include "util/json.h"
#include "util/strings.h"

namespace kopt {

namespace {

// Runs a Slurm client command with this process's environment; its result.
ProcessResult slurm(const std::vector<std::string>& argv) {
  ProcessSpec spec;
  spec.argv = argv;
  spec.env = current_environment();
  spec.timeout = std::chrono::seconds(60);
  return LocalProcessRunner().run(spec);
}

// Slurm's job states: those of a job that will not run again by itself, and the others.
constexpr const char* kFinalStates[] = {"COMPLETED",     "CANCELLED", "FAILED",      "TIMEOUT",
                                        "NODE_FAIL",     "PREEMPTED", "BOOT_FAIL",   "DEADLINE",
                                        "OUT_OF_MEMORY", "REVOKED",   "SPECIAL_EXIT"};
constexpr const char* kLiveStates[] = {"PENDING",   "RUNNING",      "CONFIGURING", "COMPLETING",
                                       "SUSPENDED", "REQUEUED",     "RESIZING",    "SIGNALING",
                                       "STAGE_OUT", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD",
                                       "STOPPED"};

bool one_of(const std::string& word, const auto& words) {
  return std::any_of(std::begin(words), std::end(words), [&](const char* w) { return word == w; });
}

// The first line of a command's output (stdout and stderr together) that is a job state, such
// as "RUNNING" or sacct's "CANCELLED+"/"CANCELLED by 0"; "" when none is: a warning a site
// prints is never taken for a state.
std::string state_in(const std::string& output) {
  for (const auto& line : split(output, '\n')) {
    std::string word = trim(line);
    word = word.substr(0, word.find_first_of(" \t"));
    if (!word.empty() && word.back() == '+') word.pop_back();
    if (one_of(word, kFinalStates) || one_of(word, kLiveStates)) return word;
  }
  return "";
}

// The job id sbatch --parsable printed ("ID" or "ID;CLUSTER" on a line of its own), or "".
std::string job_id_in(const std::string& output) {
  for (const auto& line : split(output, '\n')) {
    const std::string id = trim(line).substr(0, trim(line).find(';'));
    if (!id.empty() && std::all_of(id.begin(), id.end(), ::isdigit)) return id;
  }
  return "";
}

// `path` for an sbatch or srun --output: '%' would start one of Slurm's file name patterns.
std::string slurm_path(const std::filesystem::path& path) {
  std::string out;
  for (char c : path.string()) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

// Seconds between two looks at a job's state ($KOPT_SLURM_POLL_S, else 10).
std::chrono::milliseconds poll_interval() {
  const char* text = std::getenv("KOPT_SLURM_POLL_S");
  const double seconds = text ? std::atof(text) : 10;
  return std::chrono::milliseconds(static_cast<long>(1000 * std::clamp(seconds, 0.1, 600.0)));
}

// The job's state, where a job no command knows is asked about once more, a poll later, before
// it is taken as gone (a controller restarting answers nothing for a moment).
std::string settled_state(const std::string& job) {
  const std::string state = slurm_job_state(job);
  if (state != "UNKNOWN") return state;
  std::this_thread::sleep_for(poll_interval());
  return slurm_job_state(job);
}

// The last job submitted for this campaign, when Slurm still has it queued or running.
std::string live_job(const std::filesystem::path& jobs_file) {
  auto text = read_file(jobs_file);
  if (!text) return "";
  std::string last;
  for (const auto& line : split(*text, '\n')) {
    auto parsed = parse_json(line, jobs_file.string());
    if (parsed && parsed->is_object()) last = parsed->value("job", "");
  }
  return last.empty() || slurm_state_is_final(settled_state(last)) ? "" : last;
}

// Why a pending job waits (squeue's reason: Resources, Priority, JobHeldAdmin, ...), or "".
std::string pending_reason(const std::string& job) {
  ProcessResult r = slurm({"squeue", "-h", "-j", job, "-o", "%r"});
  const std::string reason = r.succeeded() ? trim(r.output.substr(0, r.output.find('\n'))) : "";
  return reason.find(' ') == std::string::npos ? reason : "";  // One word, not a warning.
}

// Waits until the job's state is final, saying each new state and each change of `progress`;
// that state.
std::string wait_for_job(const std::string& job, const std::function<std::string()>& progress) {
  std::string said;
  while (true) {
    const std::string state = settled_state(job);
    std::string reason = state == "PENDING" ? pending_reason(job) : "";
    const std::string now =
        state + (reason.empty() ? "" : " (" + reason + ")") + " · " + progress();
    if (now != said)
      std::fprintf(stderr, "kopt campaign: Slurm job %s %s\n", job.c_str(), now.c_str());
    said = now;
    if (slurm_state_is_final(state)) return state;
    std::this_thread::sleep_for(poll_interval());
  }
}

// Writes the batch script of the runs `todo` and submits it; the job's id.
Result<std::string> submit_runs(const SlurmOptions& options, const std::filesystem::path& dir,
                                const std::vector<std::vector<std::string>>& commands,
                                const std::vector<std::filesystem::path>& logs,
                                const std::vector<size_t>& todo) {
  std::vector<std::vector<std::string>> some;
  std::vector<std::filesystem::path> their_logs;
  for (size_t i : todo) {
    some.push_back(commands[i]);
    their_logs.push_back(logs[i]);
  }
  const std::string stamp = utc_folder_stamp();
  const std::filesystem::path script = dir / ("allocation-" + stamp + ".sh");
  if (auto st = write_file(script, slurm_batch_script(options, some, their_logs)); !st)
    return fail(st.error().message);
  auto job =
      submit_slurm_job(sbatch_command(options, script, dir / ("allocation-" + stamp + ".out")));
  if (!job) return job;
  const Json line = {{"job", *job},
                     {"script", script.filename().string()},
                     {"runs", todo.size()},
                     {"submitted", stamp}};
  if (auto st = append_locked(dir / "jobs.jsonl", dump_json(line) + "\n"); !st)
    return fail(st.error().message);
  std::fprintf(stderr, "kopt campaign: %zu runs submitted to Slurm as job %s (%s)\n", todo.size(),
               job->c_str(), script.c_str());
  return job;
}

}  // namespace

Result<std::string> run_on_slurm(const SlurmOptions& options, int resubmits,
                                 const std::filesystem::path& folder,
                                 const std::vector<std::vector<std::string>>& commands,
                                 const std::vector<std::filesystem::path>& logs,
                                 const std::function<std::vector<size_t>()>& unfinished) {
  const std::filesystem::path dir = folder / "slurm";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  // One kopt follows a campaign's jobs at a time, so two never submit the same runs.
  auto following = FileLock::lock(dir / "follow.lock", "kopt campaign", [](const std::string& who) {
    std::fprintf(stderr, "kopt campaign: waits while %s follows this campaign's Slurm jobs\n",
                 who.c_str());
  });
  if (!following) return fail(following.error().message);
  std::string job = live_job(dir / "jobs.jsonl");
  bool followed = !job.empty();  // A job submitted earlier, perhaps for other runs.
  if (followed)
    std::fprintf(stderr, "kopt campaign: following Slurm job %s, submitted earlier\n", job.c_str());
  std::vector<size_t> todo(commands.size());
  for (size_t i = 0; i < todo.size(); ++i) todo[i] = i;
  for (int attempt = 0;;) {
    if (job.empty()) {
      auto submitted = submit_runs(options, dir, commands, logs, todo);
      if (!submitted) return submitted;
      job = *submitted;
    }
    const std::string state = wait_for_job(job, [&] {
      return fmt::format("{} of {} runs unfinished", unfinished().size(), commands.size());
    });
    todo = unfinished();
    job.clear();
    if (todo.empty()) return state;
    // A job followed from earlier may have had other runs: submit what it did not run (unless it
    // was cancelled or failed: that is for the user to look at).
    if (std::exchange(followed, false) &&
        (state == "COMPLETED" || slurm_state_is_resubmittable(state)))
      continue;
    if (!slurm_state_is_resubmittable(state) || attempt >= resubmits) return state;
    ++attempt;
    std::fprintf(stderr,
                 "kopt campaign: the allocation ended (%s) with %zu runs unfinished: submitting "
                 "them again (%d of %d)\n",
                 state.c_str(), todo.size(), attempt, resubmits);
  }
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string slurm_batch_script(const SlurmOptions& options,
                               const std::vector<std::vector<std::string>>& commands,
                               const std::vector<std::filesystem::path>& logs) {
  std::string script = fmt::format(
      "#!/bin/bash\n"
      "# Written by kopt campaign: {} runs, each a job step of this allocation, at most {} at "
      "once.\n"
      "# Each run appends its line to the campaign's index; kopt campaign again resumes what is "
      "unfinished.\n"
      "set -u\n"
      "echo \"kopt: allocation $SLURM_JOB_ID on $(hostname), $(date -u +%FT%TZ)\"\n",
      commands.size(), options.runs_at_once);
  // With --exact a step gets only what it asks for: each run one GPU of the allocation's.
  const std::string gpu = options.gpus.empty() ? "" : " --gpus-per-task=1";
  for (size_t i = 0; i < commands.size(); ++i) {
    std::string argv;
    for (const auto& word : commands[i]) argv += " " + shell_quote(word);
    script += fmt::format(
        "srun --exact --ntasks=1 --cpus-per-task={}{} --open-mode=append --output={}{} &\n"
        "[ \"$(jobs -rp | wc -l)\" -lt {} ] || wait -n\n",
        options.cpus_per_run, gpu, shell_quote(slurm_path(logs[i])), argv, options.runs_at_once);
  }
  return script + "wait\necho \"kopt: allocation $SLURM_JOB_ID done, $(date -u +%FT%TZ)\"\n";
}

std::vector<std::string> sbatch_command(const SlurmOptions& options,
                                        const std::filesystem::path& script,
                                        const std::filesystem::path& output) {
  std::vector<std::string> command = {"sbatch",
                                      "--parsable",
                                      "--job-name=" + options.job_name,
                                      "--ntasks=" + std::to_string(options.runs_at_once),
                                      "--cpus-per-task=" + std::to_string(options.cpus_per_run),
                                      "--open-mode=append",
                                      "--no-requeue",
                                      "--output=" + slurm_path(output)};
  if (!options.partition.empty()) command.push_back("--partition=" + options.partition);
  if (!options.account.empty()) command.push_back("--account=" + options.account);
  if (!options.time.empty()) command.push_back("--time=" + options.time);
  if (!options.gpus.empty()) command.push_back("--gpus=" + options.gpus);
  command.insert(command.end(), options.sbatch_args.begin(), options.sbatch_args.end());
  command.push_back(script.string());
  return command;
}

Result<std::string> submit_slurm_job(const std::vector<std::string>& command) {
  ProcessResult r = slurm(command);
  if (!r.succeeded())
    return fail("sbatch failed (" + r.describe() + "): " + trim(r.output.substr(0, 2000)));
  const std::string id = job_id_in(r.output);
  if (id.empty()) return fail("sbatch printed no job id: " + trim(r.output.substr(0, 500)));
  return id;
}

std::string slurm_job_state(const std::string& job) {
  if (ProcessResult q = slurm({"squeue", "-h", "-j", job, "-o", "%T"}); q.succeeded())
    if (std::string state = state_in(q.output); !state.empty()) return state;
  if (ProcessResult a = slurm({"sacct", "-n", "-X", "-P", "-j", job, "-o", "State"}); a.succeeded())
    if (std::string state = state_in(a.output); !state.empty()) return state;
  if (ProcessResult c = slurm({"scontrol", "-o", "show", "job", job}); c.succeeded()) {
    const size_t at = c.output.find("JobState=");
    if (at != std::string::npos)
      if (std::string state = state_in(c.output.substr(at + 9)); !state.empty()) return state;
  }
  return "UNKNOWN";
}

bool slurm_state_is_final(const std::string& state) {
  return state == "UNKNOWN" || one_of(state, kFinalStates);
}

bool slurm_state_is_resubmittable(const std::string& state) {
  return state == "TIMEOUT" || state == "PREEMPTED" || state == "NODE_FAIL" ||
         state == "BOOT_FAIL" || state == "DEADLINE";
}

}  // namespace kopt
