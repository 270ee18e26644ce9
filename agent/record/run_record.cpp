#include "agent/record/run_record.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <random>

#include "agent/llm/secrets.h"
#include "agent/record/diff.h"
#include "agent/record/events.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

std::string folder_name(const std::string& benchmark) {
  static const char digits[] = "0123456789abcdef";
  std::random_device entropy;
  std::string id;
  for (int i = 0; i < 6; ++i) id += digits[entropy() % 16];
  return utc_folder_stamp() + "-" + benchmark + "-" + id;
}

// A record's JSON file, or an Error naming the file and the line where it goes wrong.
Result<Json> read_record_file(const fs::path& path) {
  auto text = read_file(path);
  if (!text) return text.error();
  auto line_at = [&](size_t at) {
    at = std::min(at, text->size());
    return std::to_string(1 +
                          std::count(text->begin(), text->begin() + static_cast<long>(at), '\n'));
  };
  // Refused before parsing: copying so deep a document overflowed the stack.
  if (const size_t at = json_too_deep_at(*text); at != std::string::npos)
    return fail(path.string() + " line " + line_at(at) + ": nests arrays or objects deeper than " +
                std::to_string(kMaxJsonDepth));
  try {
    return Json::parse(*text);
  } catch (const Json::parse_error& e) {
    return fail(path.string() + " line " + line_at(e.byte > 0 ? e.byte - 1 : 0) +
                ": not valid JSON");
  } catch (const Json::exception& e) {  // A number past double's range.
    return fail(path.string() + ": not valid JSON (" + json_error_text(e.what()) + ")");
  }
}

// The shape the commands rely on: an object with object "benchmark" and "config".
Status check_shape(const Json& info, const fs::path& path) {
  if (!info.is_object()) return fail(path.string() + ": not a JSON object");
  for (const char* key : {"benchmark", "config"})
    if (!info.value(key, Json()).is_object())
      return fail(path.string() + ": \"" + key + "\" is missing or not an object");
  for (const char* key : {"status", "status_reason"})
    if (info.contains(key) && !info[key].is_string())
      return fail(path.string() + ": \"" + key + "\" is not a string");
  // The names every reader shows (kopt show, the report, kopt runs).
  for (const auto& [object, key] : {std::pair{"benchmark", "name"}, {"config", "llm"}})
    if (info[object].contains(key) && !info[object][key].is_string())
      return fail(path.string() + ": \"" + object + "\"." + key + " is not a string");
  return {};
}

}  // namespace

Result<RunRecord> RunRecord::create(const fs::path& runs_root, const std::string& benchmark,
                                    Json run_info) {
  std::error_code ec;
  fs::create_directories(runs_root, ec);
  RunRecord record;
  record.dir_ = runs_root / folder_name(benchmark);
  if (!fs::create_directory(record.dir_, ec))
    return fail("cannot create the run folder " + quoted_path(record.dir_) + ": " +
                (ec ? ec.message() : "it exists already"));
  fs::create_directories(record.dir_ / "candidates", ec);
  if (auto st = record.lock_for_writing("kopt run"); !st) return st.error();
  run_info["format"] = kRunFormat;
  run_info["id"] = record.dir_.filename().string();
  record.info_ = llm::redact_json(run_info);
  if (auto st = write_json_file(record.dir_ / "run.json", record.info_); !st) return st.error();
  return record;
}

Result<RunRecord> RunRecord::open(const fs::path& dir) {
  auto info = read_record_file(dir / "run.json");
  if (!info) return fail("not a kopt run: " + info.error().message);
  if (!info->is_object() || !(*info)["format"].is_string() ||
      (*info)["format"].get<std::string>() != kRunFormat)
    return fail((dir / "run.json").string() + " is not a " + kRunFormat + " record");
  if (auto st = check_shape(*info, dir / "run.json"); !st) return st.error();
  RunRecord record;
  record.dir_ = dir;
  record.info_ = std::move(*info);
  return record;
}

std::string RunRecord::status() const {
  const std::string recorded = info_.value("status", "?");
  if (recorded == "running" && !lock_ && !FileLock::holder_alive(dir_ / "lock")) return "stopped";
  return recorded;
}

Status RunRecord::lock_for_writing(const std::string& command) {
  if (lock_) return {};
  auto lock = FileLock::try_lock(dir_ / "lock", command);
  if (!lock)
    return fail("run " + dir_.filename().string() + " is being written by another kopt (" +
                lock.error().message + "); wait for it to end or stop it first");
  lock_ = std::make_shared<FileLock>(std::move(*lock));
  return {};
}

Status RunRecord::set_status(const std::string& status, const std::string& reason) {
  info_["status"] = status;
  info_["status_reason"] = llm::redact_secrets(reason);
  return write_json_file(dir_ / "run.json", info_);
}

bool is_candidate_id(const std::string& id) {
  return !id.empty() && id != "." && id != ".." && id.find_first_of("/\\") == std::string::npos &&
         id.find('\0') == std::string::npos;
}

fs::path candidate_folder(const fs::path& run, const std::string& id) {
  return run / "candidates" / (is_candidate_id(id) ? id : std::string("not-a-candidate-id"));
}

Status RunRecord::write_candidate(const CandidateFiles& c) const {
  if (!is_candidate_id(c.id) || !is_candidate_id(c.file_name))
    return fail("a candidate id or file name that is not a plain name: " + c.id + "/" +
                c.file_name);
  const fs::path dir = candidate_dir(c.id);
  std::error_code ec;
  // A run folder from elsewhere, resumed: a linked candidates/ or candidate folder would have
  // its files written wherever the link points.
  for (const fs::path& p : {dir_ / "candidates", dir, dir / c.file_name, dir / "diff.patch",
                            dir / "build.log", dir / "meta.json", dir / "evaluation.json"})
    if (fs::is_symlink(fs::symlink_status(p, ec)))
      return fail(p.string() + " is a link: kopt writes a run's files only inside its folder");
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
  Json doc = llm::redact_json(summary);
  doc["format"] = kSummaryFormat;
  return write_json_file(dir_ / "summary.json", doc);
}

Json RunRecord::summary() const {
  auto doc = read_json_file(dir_ / "summary.json");
  return doc && doc->is_object() ? *doc : Json();
}

Result<fs::path> find_run(const std::string& name, const fs::path& runs_root) {
  fs::path given(name);
  while (!given.empty() && !given.has_filename() && given.has_parent_path() &&
         given.parent_path() != given)
    given = given.parent_path();  // "runs/x/" names the run "x".
  if (fs::exists(given / "run.json")) return given;
  // The runs directly under `root` whose folder is `name` (then alone) or starts with it.
  auto search = [&](const fs::path& root, std::vector<fs::path>& matches) -> bool {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root, ec)) {
      const std::string folder = entry.path().filename().string();
      if (!fs::exists(entry.path() / "run.json")) continue;
      if (folder == name) {
        matches = {entry.path()};
        return true;
      }
      if (folder.rfind(name, 0) == 0 || folder.find("-" + name) != std::string::npos)
        matches.push_back(entry.path());
    }
    return false;
  };
  std::vector<fs::path> matches;
  if (search(runs_root, matches)) return matches.front();
  if (matches.empty()) {  // Then one level down: runs/examples/, a campaign's folder.
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(runs_root, ec))
      if (entry.is_directory(ec) && !fs::exists(entry.path() / "run.json") &&
          search(entry.path(), matches))
        return matches.front();
  }
  if (matches.size() == 1) return matches.front();
  if (matches.empty())
    return fail("no run '" + name + "' under " + runs_root.string() +
                " or its folders (kopt runs lists them)");
  return fail("'" + name + "' matches " + std::to_string(matches.size()) +
              " runs; give more of its name");
}

fs::path default_runs_root() {
  if (const char* runs = std::getenv("KOPT_RUNS"); runs && *runs) return runs;
  return fs::current_path() / "runs";
}

}  // namespace kopt
