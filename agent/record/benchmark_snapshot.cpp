#include "agent/record/benchmark_snapshot.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

// A benchmark's name as a folder of its own: not empty, no separator, not "." or "..". A name
// read from a record that is not one has no copy.
bool plain_name(const std::string& name) {
  return !name.empty() && name.find('/') == std::string::npos && name != "." && name != "..";
}

}  // namespace

fs::path benchmark_snapshot_dir(const fs::path& run_dir, const std::string& name) {
  return run_dir / "benchmark" / name;
}

bool has_benchmark_snapshot(const fs::path& run_dir, const std::string& name) {
  return plain_name(name) && fs::exists(benchmark_snapshot_dir(run_dir, name) / "benchmark.json");
}

Status write_benchmark_snapshot(const Benchmark& bench, const fs::path& run_dir) {
  const fs::path to = benchmark_snapshot_dir(run_dir, bench.name);
  for (const auto& file : hashed_files(bench)) {
    std::error_code ec;
    fs::create_directories((to / file).parent_path(), ec);
    // copy_file keeps the permissions: a program's scripts stay executable.
    if (!ec) fs::copy_file(bench.dir / file, to / file, fs::copy_options::overwrite_existing, ec);
    if (ec)
      return fail("cannot copy " + (bench.dir / file).string() + " into the run's copy of its " +
                  "benchmark (" + ec.message() + ")");
  }
  auto copy = load_benchmark(to);
  if (!copy) return fail("the run's copy of its benchmark does not load: " + copy.error().message);
  if (copy->hash != bench.hash)
    return fail("the files of benchmark " + bench.name +
                " changed while the run started; start it again");
  return {};
}

Result<Benchmark> load_benchmark_snapshot(const fs::path& run_dir, const std::string& name,
                                          const std::string& recorded_hash) {
  const fs::path dir = benchmark_snapshot_dir(run_dir, name);
  if (!has_benchmark_snapshot(run_dir, name))
    return fail("the run keeps no copy of benchmark " + name + " (" + dir.string() + ")");
  auto copy = load_benchmark(dir);
  if (!copy)
    return fail("the run's copy of benchmark " + name + " does not load: " + copy.error().message);
  if (copy->hash != recorded_hash)
    return fail("the run's copy of benchmark " + name + " (" + dir.string() + ") hashes to " +
                copy->hash + ", not to the hash the run recorded (" + recorded_hash +
                "): its files were changed after the run was recorded");
  return copy;
}

Result<RecordedBenchmark> recorded_benchmark(const fs::path& run_dir, const std::string& name,
                                             const std::string& recorded_hash,
                                             Result<Benchmark> suite_copy) {
  if (suite_copy && suite_copy->hash == recorded_hash)
    return RecordedBenchmark{std::move(suite_copy).value(), ""};
  if (!has_benchmark_snapshot(run_dir, name)) {
    if (!suite_copy) return suite_copy.error();
    return fail("the files of benchmark " + name +
                " changed since this run was recorded, and the record keeps no copy of them (it "
                "was made before runs kept one in benchmark/" +
                name + "/)");
  }
  auto copy = load_benchmark_snapshot(run_dir, name, recorded_hash);
  if (!copy) return copy.error();
  const std::string why =
      suite_copy ? "the suite's copy of benchmark " + name + " changed since this run was recorded"
                 : "the suite's copy of benchmark " + name + " does not load (" +
                       suite_copy.error().message + ")";
  return RecordedBenchmark{std::move(copy).value(), why};
}

}  // namespace kopt
