// Experiments: a campaign runs every benchmark of a folder under every combination of models,
// strategies and seeds, into one folder with an index (index.jsonl, a line per finished or
// stopped run). A campaign started again on the same folder skips what is finished and resumes
// what was interrupted. `kopt compare` reads the index.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/json.h"
#include "util/result.h"

namespace kopt::cli {

/// The format tag of every index line.
inline constexpr const char* kIndexFormat = "kopt-campaign-index/1";

/// The file of the index in a campaign folder.
inline constexpr const char* kIndexFileName = "index.jsonl";

/// One run of an experiment.
struct Cell {
  std::string benchmark;
  std::string llm;
  std::string strategy;
  uint64_t seed = 1;

  /// "benchmark · llm · strategy · seed N", for messages.
  std::string label() const;
  bool operator==(const Cell& other) const;
};

/// Every combination, benchmark-major, in the order given.
std::vector<Cell> expand_matrix(const std::vector<std::string>& benchmarks,
                                const std::vector<std::string>& llms,
                                const std::vector<std::string>& strategies,
                                const std::vector<uint64_t>& seeds);

/// The index line of a run that ended (its summary.json), or of one that could not start.
Json index_line(const Cell& cell, const std::string& run, const std::string& status,
                const std::string& reason, const Json& summary, double wall_s);

/// The index's lines, oldest first; a missing index is empty. A line that is not a JSON object
/// of the index's format is an Error naming the line.
Result<std::vector<Json>> read_index(const std::filesystem::path& campaign);
/// Appends one line (flushed) to the campaign's index.
Status append_index(const std::filesystem::path& campaign, const Json& line);
/// The cell an index line is about.
Cell cell_of(const Json& line);
/// The latest line of each cell, in the order the cells first appear.
std::vector<Json> latest_per_cell(const std::vector<Json>& lines);

/// The newest run folder of `cell` under the campaign that no line of `index` names: a run whose
/// process was killed (an allocation's end, SIGKILL) before it wrote its index line. Empty when
/// there is none.
std::filesystem::path unindexed_run(const std::filesystem::path& campaign, const Cell& cell,
                                    const std::vector<Json>& index);

/// Runs each command (argv) as a child process, at most `jobs` at once, its standard output and
/// error going to the log file of the same index; `ended(i, status)` is called as each one
/// ends, with its exit status (128 + N when a signal N ended it, -1 when it could not start).
void run_children(const std::vector<std::vector<std::string>>& commands,
                  const std::vector<std::filesystem::path>& logs, int jobs,
                  const std::function<void(size_t, int)>& ended);

}  // namespace kopt::cli
