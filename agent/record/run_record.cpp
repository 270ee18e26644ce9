#include "agent/record/run_record.h"

#include <cstdlib>
#include <ctime>
#include <random>

#include "agent/record/diff.h"
#include "util/files.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

std::string folder_name(const std::string& benchmark) {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
  static const char digits[] = "0123456789abcdef";
  std::random_device entropy;
  std::string id;
  for (int i = 0; i < 6; ++i) id += digits[entropy() % 16];
  return std::string(stamp) + "-" + benchmark + "-" + id;
}

}  // namespace

Result<RunRecord> RunRecord::create(const fs::path& runs_root, const std::string& benchmark,
                                    Json run_info) {
  std::error_code ec;
  fs::create_directories(runs_root, ec);
  RunRecord record;
  record.dir_ = runs_root / folder_name(benchmark);
  if (!fs::create_directory(record.dir_, ec))
    return fail("cannot create the run folder " + record.dir_.string());
  fs::create_directories(record.dir_ / "candidates", ec);
  run_info["format"] = kRunFormat;
  run_info["id"] = record.dir_.filename().string();
  record.info_ = std::move(run_info);
  if (auto st = write_json_file(record.dir_ / "run.json", record.info_); !st) return st.error();
  return record;
}

Result<RunRecord> RunRecord::open(const fs::path& dir) {
  auto info = read_json_file(dir / "run.json");
  if (!info) return fail("not a kopt run: " + info.error().message);
  if (info->value("format", "") != kRunFormat)
    return fail(dir.string() + "/run.json has format '" + info->value("format", "") +
                "', this kopt reads " + kRunFormat);
  RunRecord record;
  record.dir_ = dir;
  record.info_ = std::move(*info);
  return record;
}

Status RunRecord::set_status(const std::string& status, const std::string& reason) {
  info_["status"] = status;
  info_["status_reason"] = reason;
  return write_json_file(dir_ / "run.json", info_);
}

Status RunRecord::write_candidate(const CandidateFiles& c) const {
  const fs::path dir = candidate_dir(c.id);
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string parent_name =
      c.parent == "original" ? "original" : c.parent + "/" + c.file_name;
  Status writes[] = {
      write_file(dir / c.file_name, c.source),
      write_file(dir / "diff.patch",
                 unified_diff(c.parent_source, c.source, parent_name, c.id + "/" + c.file_name)),
      write_file(dir / "build.log", c.build_log), write_json_file(dir / "meta.json", c.meta),
      c.evaluation.is_null() ? Status() : write_json_file(dir / "evaluation.json", c.evaluation)};
  for (const auto& st : writes)
    if (!st) return st;
  return {};
}

Status RunRecord::write_summary(const Json& summary) const {
  Json doc = summary;
  doc["format"] = kSummaryFormat;
  return write_json_file(dir_ / "summary.json", doc);
}

Json RunRecord::summary() const {
  auto doc = read_json_file(dir_ / "summary.json");
  return doc ? *doc : Json();
}

Result<fs::path> find_run(const std::string& name, const fs::path& runs_root) {
  if (fs::exists(fs::path(name) / "run.json")) return fs::path(name);
  std::vector<fs::path> matches;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(runs_root, ec)) {
    const std::string folder = entry.path().filename().string();
    if (!fs::exists(entry.path() / "run.json")) continue;
    if (folder == name) return entry.path();
    if (folder.rfind(name, 0) == 0 || folder.find("-" + name) != std::string::npos)
      matches.push_back(entry.path());
  }
  if (matches.size() == 1) return matches.front();
  if (matches.empty())
    return fail("no run '" + name + "' under " + runs_root.string() + " (kopt runs lists them)");
  return fail("'" + name + "' matches " + std::to_string(matches.size()) +
              " runs; give more of its name");
}

fs::path default_runs_root() {
  if (const char* runs = std::getenv("KOPT_RUNS"); runs && *runs) return runs;
  return fs::current_path() / "runs";
}

}  // namespace kopt
