#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include <fmt/format.h>

#include "agent/cli/commands.h"
#include "agent/cli/experiment.h"
#include "agent/cli/run_options.h"
#include "agent/cli/status_line.h"
#include "agent/cluster/slurm.h"
#include "agent/llm/secrets.h"
#include "agent/loop/session.h"
#include "agent/report/campaign_view.h"
#include "tools/benchmark/benchmark.h"
#include "util/file_lock.h"
#include "util/files.h"
#include "util/json.h"
#include "util/strings.h"

namespace kopt::cli {

namespace {

std::string cell(const Json& v) {
  if (!v.is_object() || v.value("speedup", 0.0) <= 0) return "-";
  return fmt::format("{:.2f}x [{:.2f}, {:.2f}]", v.value("speedup", 0.0),
                     v.value("ci_low", v.value("speedup", 0.0)),
                     v.value("ci_high", v.value("speedup", 0.0)));
}

// The best's speedup over the human version, timed head to head at the end of the run.
std::string versus_human(const Json& v) {
  if (!v.is_object() || v.value("speedup", 0.0) <= 0) return "-";
  return fmt::format("{:.2f}x", v.value("speedup", 0.0));
}

// The campaign's benchmarks: every one under DIR, or those named by --only.
std::vector<Benchmark> campaign_benchmarks(const Args& args) {
  const std::filesystem::path folder = args.get("DIR");
  std::vector<std::string> only;
  for (const auto& name : split(args.get("only"), ',')) {
    if (!trim(name).empty()) only.push_back(trim(name));
  }
  std::vector<Benchmark> benches;
  for (auto& bench : list_benchmarks(folder)) {
    if (!bench) throw UsageError{bench.error().message};
    if (only.empty() || std::find(only.begin(), only.end(), bench->name) != only.end())
      benches.push_back(std::move(*bench));
  }
  for (const auto& name : only)
    if (std::none_of(benches.begin(), benches.end(),
                     [&](const Benchmark& b) { return b.name == name; }))
      throw UsageError{"--only: no benchmark named " + name + " under " + folder.string()};
  if (benches.empty()) throw UsageError{"no benchmarks under " + folder.string()};
  return benches;
}

std::vector<uint64_t> campaign_seeds(const Args& args) {
  std::vector<uint64_t> seeds;
  for (const auto& text : args.list("seed")) {
    Args one;
    one.set("seed", text);
    seeds.push_back(static_cast<uint64_t>(one.get_int("seed", 0, Args::kMaxInt)));
  }
  if (seeds.empty()) seeds.push_back(1);
  return seeds;
}

// The campaign folder: --into, or a new one named after the time under the runs root.
std::filesystem::path campaign_folder(const Args& args) {
  if (args.has("into")) return args.get("into");
  return std::filesystem::path(runs_root(args)) / ("campaign-" + utc_folder_stamp());
}

// The configuration of one cell's run; a bad option throws a UsageError.
RunConfig cell_config(const Args& args, const Cell& c, const Benchmark& bench) {
  Args one = args;
  one.set("llm", c.llm);
  one.set("strategy", c.strategy);
  one.set("seed", std::to_string(c.seed));
  return read_run_config(one, bench.dir.string());
}

// `text` with every character but letters, digits, '.' and '-' made '_', for a file name.
std::string sanitize_name(const std::string& text) {
  std::string out = text;
  for (char& ch : out)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '-') ch = '_';
  return out;
}

// The table row of an index line.
std::string row_of(const Json& line) {
  const std::string label = cell_of(line).label();
  const std::string status = line.value("status", "");
  if (status == "failed") return fmt::format("{:<48} failed: {}", label, line.value("reason", ""));
  if (status != "finished")
    return fmt::format("{:<48} {}: {} (kopt campaign again resumes it)", label, status,
                       line.value("reason", ""));
  const Json human = line.value("human", Json());
  return fmt::format(
      "{:<48} {:>9.4g} ms {:>24} {:>24} {:>8}  {}", label, line.value("original_ms", 0.0),
      human.is_null() ? "no human version" : cell(human), cell(line.value("best", Json())),
      versus_human(line.value("versus_human", Json())), line.value("run", ""));
}

// The index line of a run that finished without writing one (killed just after), if it did.
std::optional<Json> finished_line(const Cell& c, const std::filesystem::path& run) {
  auto info = read_json_file(run / "run.json");
  if (!info || json_text(*info, "status") != "finished") return std::nullopt;
  auto summary = read_json_file(run / "summary.json");
  return index_line(c, run.filename().string(), "finished", "found finished without its index line",
                    summary ? *summary : Json(), 0);
}

// Runs (or resumes) one cell in this process; its index line.
Json run_cell(const Args& args, const Cell& c, const Benchmark& bench,
              const std::filesystem::path& folder, const std::vector<Json>& index) {
  StatusLine status;
  auto show = [&](const std::string& line) {
    status.update("kopt campaign " + c.label() + " · " + line);
  };
  auto notice = [&](const std::string& line) {
    status.print_above("kopt campaign: " + c.label() + ": " + line);
  };
  const auto start = std::chrono::steady_clock::now();
  Result<RunReport> report = fail("not started");
  // The cell's latest line, else a run of it that was killed before it wrote one.
  auto earlier = std::find_if(index.rbegin(), index.rend(),
                              [&](const Json& line) { return cell_of(line) == c; });
  if (earlier != index.rend() && !earlier->value("run", "").empty()) {
    report = resume_run(folder / earlier->value("run", ""), show, {}, notice);
  } else if (const auto orphan = unindexed_run(folder, c, index); !orphan.empty()) {
    if (auto finished = finished_line(c, orphan)) return *finished;
    if (FileLock::holder_alive(orphan / "lock"))
      return index_line(c, "", "failed",
                        orphan.filename().string() + " is being written by another kopt (" +
                            FileLock::holder(orphan / "lock") + ")",
                        nullptr, 0);
    std::fprintf(stderr, "kopt campaign: %s resumes %s (it left no index line)\n",
                 c.label().c_str(), orphan.c_str());
    report = resume_run(orphan, show, {}, notice);
    if (!report) {  // Torn beyond repair: the cell starts again rather than stay stuck.
      std::fprintf(stderr, "kopt campaign: %s cannot resume %s (%s): starting it again\n",
                   c.label().c_str(), orphan.c_str(), report.error().message.c_str());
      report = start_run(cell_config(args, c, bench), folder, show);
    }
  } else {
    report = start_run(cell_config(args, c, bench), folder, show);
  }
  status.clear();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!report)
    return index_line(c, "", "failed", llm::redact_secrets(report.error().message), nullptr, wall);
  const std::string run = report->dir.filename().string();
  const Json& s = report->outcome.summary;
  if (report->outcome.interrupted())
    return index_line(c, run, "interrupted",
                      (report->outcome.rule == "interrupted" ? "" : report->outcome.rule + ": ") +
                          llm::redact_secrets(report->outcome.reason),
                      s, wall);
  return index_line(c, run, "finished", report->outcome.reason, s, wall);
}

// The command line of a child that runs one cell into the same campaign folder: this kopt's
// `campaign` for that cell alone, with every other run option as given here.
std::vector<std::string> child_command(const Args& args, const Cell& c,
                                       const std::filesystem::path& folder) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::vector<std::string> command = {self.string(),
                                      "campaign",
                                      args.get("DIR"),
                                      "--only",
                                      c.benchmark,
                                      "--llm",
                                      c.llm,
                                      "--strategy",
                                      c.strategy,
                                      "--seed",
                                      std::to_string(c.seed),
                                      "--into",
                                      std::filesystem::absolute(folder).string()};
  for (const auto& o : run_options()) {
    const std::string key = o.name.substr(2);
    if (key == "llm" || key == "strategy" || key == "seed" || key == "suite" || key == "out")
      continue;
    if (o.is_flag) {
      if (args.flag(key)) command.push_back(o.name);
    } else if (args.has(key)) {
      command.insert(command.end(), {o.name, args.get(key)});
    }
  }
  return command;
}

// The indexes of the cells with no finished line in the campaign's index.
std::vector<size_t> unfinished(const std::vector<Cell>& cells,
                               const std::filesystem::path& folder) {
  auto index = read_index(folder);
  const std::vector<Json> latest = index ? latest_per_cell(*index) : std::vector<Json>{};
  std::vector<size_t> out;
  for (size_t i = 0; i < cells.size(); ++i)
    if (std::none_of(latest.begin(), latest.end(), [&](const Json& l) {
          return cell_of(l) == cells[i] && l.value("status", "") == "finished";
        }))
      out.push_back(i);
  return out;
}

SlurmOptions slurm_options(const Args& args, int jobs) {
  SlurmOptions o;
  o.partition = args.get("partition");
  o.account = args.get("account");
  o.time = args.get("time");
  o.gpus = args.get("gpus");
  o.sbatch_args = args.list("sbatch-arg");
  o.runs_at_once = jobs;
  o.cpus_per_run = static_cast<int>(args.get_int("cpus-per-run", 1, 4096));
  return o;
}

// Runs the pending cells as `jobs` concurrent children, each a one-cell campaign appending its
// own index line: local processes, or job steps of a Slurm allocation (--executor slurm). Model
// calls and builds overlap; timed phases never share CPUs, since every kopt takes the host-wide
// timing lease of its CPUs for them. Returns each cell's index line (failed when the child
// left none).
std::vector<Json> run_in_children(const Args& args, const std::vector<Cell>& cells,
                                  const std::filesystem::path& folder, int jobs) {
  std::vector<std::vector<std::string>> commands;
  std::vector<std::filesystem::path> logs;
  for (size_t i = 0; i < cells.size(); ++i) {
    commands.push_back(child_command(args, cells[i], folder));
    logs.push_back(folder / fmt::format("cell-{}-{}-{}-seed{}.log", cells[i].benchmark,
                                        sanitize_name(cells[i].llm), cells[i].strategy,
                                        cells[i].seed));
  }
  std::vector<std::string> ended(cells.size());
  if (args.get("executor") == "slurm") {
    auto state =
        run_on_slurm(slurm_options(args, jobs), static_cast<int>(args.get_int("resubmit", 0, 100)),
                     folder, commands, logs, [&] { return unfinished(cells, folder); });
    if (!state) throw UsageError{state.error().message};
    for (auto& why : ended) why = "its Slurm allocation ended (" + *state + ")";
  } else {
    run_children(commands, logs, jobs, [&](size_t i, int status) {
      ended[i] = fmt::format("its process ended with status {}", status);
      std::fprintf(stderr, "kopt campaign: %s ended (exit %d; log %s)\n", cells[i].label().c_str(),
                   status, logs[i].c_str());
    });
  }
  auto index = read_index(folder);
  const std::vector<Json> latest = index ? latest_per_cell(*index) : std::vector<Json>{};
  std::vector<Json> lines;
  for (size_t i = 0; i < cells.size(); ++i) {
    auto line = std::find_if(latest.begin(), latest.end(),
                             [&](const Json& l) { return cell_of(l) == cells[i]; });
    lines.push_back(line != latest.end()
                        ? *line
                        : index_line(cells[i], "", "interrupted",
                                     fmt::format("{} before the run left its index line (see {})",
                                                 ended[i], logs[i].string()),
                                     nullptr, 0));
  }
  return lines;
}

// --executor: local, or slurm where Slurm's client commands are on the PATH.
void check_executor(const Args& args) {
  const std::string executor = args.get("executor");
  if (executor != "local" && executor != "slurm")
    throw UsageError{"--executor must be local or slurm, not '" + executor + "'"};
  const char* path = std::getenv("PATH");
  if (executor == "slurm" && find_executable("sbatch", split(path ? path : "", ':')).empty())
    throw UsageError{
        "--executor slurm: no sbatch on the PATH (Slurm's client commands; "
        "scripts/setup-slurm.sh sets up a one-node Slurm on this machine)"};
}

int run_campaign(const Args& args) {
  const std::vector<Benchmark> benches = campaign_benchmarks(args);
  std::vector<std::string> names;
  for (const auto& b : benches) names.push_back(b.name);
  std::vector<Cell> cells =
      expand_matrix(names, args.list("llm"), args.list("strategy"), campaign_seeds(args));
  // Every cell's options are read (and refused) before the first run; "auto" becomes the
  // strategy the run will use, so that the index names it.
  for (Cell& c : cells) c.strategy = cell_config(args, c, benches.front()).strategy;
  const std::filesystem::path folder = campaign_folder(args);
  auto index = read_index(folder);
  if (!index) throw UsageError{index.error().message};
  const std::vector<Json> done = latest_per_cell(*index);
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw UsageError{"cannot create " + folder.string() + ": " + ec.message()};
  std::fprintf(stderr, "kopt campaign: %zu runs into %s\n", cells.size(), folder.c_str());
  std::vector<std::string> rows;
  std::vector<Cell> pending;
  for (const Cell& c : cells) {
    auto finished = std::find_if(done.begin(), done.end(), [&](const Json& line) {
      return cell_of(line) == c && line.value("status", "") == "finished";
    });
    if (finished == done.end())
      pending.push_back(c);
    else
      rows.push_back(
          fmt::format("{:<48} finished before: {}", c.label(), finished->value("run", "")));
  }
  int failed = 0;
  const int jobs = static_cast<int>(args.get_int("jobs", 1, 64));
  check_executor(args);
  const bool slurm = args.get("executor") == "slurm";
  const bool children = slurm ? !pending.empty() : jobs > 1 && pending.size() > 1;
  if (children) {
    for (const Json& line : run_in_children(args, pending, folder, jobs)) {
      failed += line.value("status", "") != "finished";
      rows.push_back(row_of(line));
    }
  }
  for (const Cell& c : children ? std::vector<Cell>{} : pending) {
    const Benchmark& bench =
        benches[std::find(names.begin(), names.end(), c.benchmark) - names.begin()];
    const Json line = run_cell(args, c, bench, folder, *index);
    if (auto st = append_index(folder, line); !st) throw UsageError{st.error().message};
    failed += line.value("status", "") != "finished";
    rows.push_back(row_of(line));
    std::fprintf(stderr, "%s\n", rows.back().c_str());
  }
  if (args.flag("json")) {  // What `kopt compare DIR --json` prints of the folder now.
    auto all = read_index(folder);
    if (!all) throw UsageError{all.error().message};
    fmt::print("{}\n", dump_json(compare_campaign(latest_per_cell(*all)), 2));
    return failed ? kExitFailed : kExitOk;
  }
  fmt::print("{:<48} {:>12} {:>24} {:>24} {:>8}  {}\n", "RUN OF", "ORIGINAL", "HUMAN", "BEST FOUND",
             "VS HUMAN", "FOLDER");
  for (const auto& row : rows) fmt::print("{}\n", row);
  fmt::print("campaign {} (kopt compare {})\n", folder.string(), folder.string());
  return failed ? kExitFailed : kExitOk;
}

}  // namespace

CommandSpec campaign_command() {
  std::vector<OptionSpec> options = {
      {"DIR", "Folder of benchmarks (every benchmark.json below it)", "", false, true},
      {"--only", "Only these benchmarks of DIR (names, comma-separated)"},
      {"--jobs", "Runs at once (each in its own kopt process; timed phases still never overlap)",
       "1"},
      {"--into",
       "Campaign folder (default: a new campaign-TIME under the runs folder); a campaign run "
       "again into the same folder skips finished runs and resumes interrupted ones"},
      {"--executor",
       "Where the runs go: local (this machine), or slurm (one batch job, each run a job step "
       "of its allocation, --jobs runs at once)",
       "local"},
      {"--partition", "Slurm: the partition (sbatch --partition)"},
      {"--account", "Slurm: the account (sbatch --account)"},
      {"--time", "Slurm: the allocation's time limit (sbatch --time, e.g. 2:00:00)"},
      {"--gpus", "Slurm: GPUs of the allocation (sbatch --gpus)"},
      {"--sbatch-arg", "Slurm: one more sbatch option, passed as given (repeat for several)", "",
       false, false, "", true},
      {"--cpus-per-run", "Slurm: CPUs of each run's job step (srun --cpus-per-task)", "1"},
      {"--resubmit",
       "Slurm: how many times to submit the unfinished runs again when the cluster ended the "
       "allocation (time limit, preemption, node failure)",
       "2"},
      {"--json", "Print the campaign's comparison as JSON (as kopt compare DIR --json does)", "",
       true}};
  for (auto o : run_options()) {
    if (o.name == "--suite") continue;
    // The experiment's dimensions: every combination of them is run.
    if (o.name == "--llm" || o.name == "--seed" || o.name == "--strategy") {
      o.repeated = true;
      o.help += " (repeat for an experiment over several)";
    }
    options.push_back(o);
  }
  return {"campaign",
          "Run the loop on every benchmark under a folder, for every model, strategy and seed "
          "given, into one campaign folder with an index",
          options, run_campaign};
}

}  // namespace kopt::cli
