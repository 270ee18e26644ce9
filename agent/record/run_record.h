// A run's folder: runs/<time>-<benchmark>-<id>/ with run.json (configuration, fingerprints,
// prompt hashes, status), events.jsonl, candidates/NNNN/ (source, diff against its parent,
// build log, evaluation) and summary.json.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "util/file_lock.h"
#include "util/json.h"
#include "util/result.h"

namespace kopt {

inline constexpr const char* kRunFormat = "kopt-run/1";
inline constexpr const char* kSummaryFormat = "kopt-summary/1";

/// The files of one candidate as kept in its folder.
struct CandidateFiles {
  std::string id;         ///< "0003"
  std::string parent;     ///< "0001", or "original"
  std::string file_name;  ///< "kernel.cpp" or "kernel.cu"
  std::string source;
  std::string parent_source;
  std::string build_log;
  Json evaluation;  ///< kopt-evaluation/1, or null when it was never evaluated.
  Json meta;        ///< iteration, role outputs, why it exists.
};

/// Whether `id` can name a candidate's folder: a plain name, no separator, not "." or "..".
bool is_candidate_id(const std::string& id);

/// The folder of candidate `id` in the run folder `run`; an id that is not a plain name (an
/// event from elsewhere can hold "../../x") names a folder no candidate has, never one outside
/// candidates/.
std::filesystem::path candidate_folder(const std::filesystem::path& run, const std::string& id);

class RunRecord {
 public:
  /// Makes runs_root/<UTC time>-<benchmark>-<id>/ and writes run.json.
  static Result<RunRecord> create(const std::filesystem::path& runs_root,
                                  const std::string& benchmark, Json run_info);
  /// Opens an existing run folder (run.json must be readable), for reading.
  static Result<RunRecord> open(const std::filesystem::path& dir);

  /// Makes this process the run's only writer until the record goes away (create() does it
  /// itself); an Error naming the pid of the process that writes it now.
  Status lock_for_writing(const std::string& command);

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path events_path() const { return dir_ / "events.jsonl"; }
  std::filesystem::path candidate_dir(const std::string& id) const {
    return candidate_folder(dir_, id);
  }
  const Json& info() const { return info_; }
  /// run.json's status, except that a "running" run whose writer is gone (stopped by Ctrl-C or
  /// killed) reads "stopped": `kopt resume` continues it.
  std::string status() const;

  /// Updates run.json's status ("running", "finished", "interrupted", "failed") and its reason.
  Status set_status(const std::string& status, const std::string& reason);
  /// Writes a candidate's folder (idempotent: a resumed run rewrites the same files).
  Status write_candidate(const CandidateFiles& files) const;
  /// Writes summary.json.
  Status write_summary(const Json& summary) const;
  /// Reads summary.json (null when the run has none yet).
  Json summary() const;

 private:
  std::filesystem::path dir_;
  Json info_;
  std::shared_ptr<FileLock> lock_;
};

/// Finds a run by folder path, folder name, or unique prefix of its id under `runs_root`, or
/// where none is there, one level down (runs/examples/NAME, a campaign's runs).
Result<std::filesystem::path> find_run(const std::string& name,
                                       const std::filesystem::path& runs_root);

/// The default folder of runs: $KOPT_RUNS or ./runs.
std::filesystem::path default_runs_root();

}  // namespace kopt
