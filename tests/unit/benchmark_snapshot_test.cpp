// A run's own copy of its benchmark (RUN/benchmark/NAME/): it hashes as the suite's copy did,
// stands in for the suite's once that has changed, and is refused when it was changed itself.
#include <gtest/gtest.h>

#include "agent/record/benchmark_snapshot.h"
#include "util/files.h"

namespace kopt {
namespace {

namespace fs = std::filesystem;

// A suite of one: a copy of a benchmark folder, to be changed by the test.
fs::path copy_benchmark(const fs::path& from, const fs::path& suite) {
  const fs::path to = suite / from.filename();
  fs::create_directories(suite);
  fs::copy(from, to, fs::copy_options::recursive);
  return to;
}

void append(const fs::path& file, const std::string& text) {
  ASSERT_TRUE(write_file(file, read_file(file).value() + text));
}

class BenchmarkSnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = copy_benchmark(default_suite() / "cpu" / "licm", suite_.path());
    bench_ = load_benchmark(dir_).value();
    ASSERT_TRUE(write_benchmark_snapshot(bench_, run_.path()));
  }

  Result<RecordedBenchmark> recorded() const {
    return recorded_benchmark(run_.path(), "licm", bench_.hash, load_benchmark(dir_));
  }

  TempDir suite_{"kopt-snapshot-suite-"};
  TempDir run_{"kopt-snapshot-run-"};
  fs::path dir_;
  Benchmark bench_;
};

TEST_F(BenchmarkSnapshotTest, TheCopyHoldsTheHashedFilesAndHashesAsTheSuitesDid) {
  const fs::path copy = benchmark_snapshot_dir(run_.path(), "licm");
  EXPECT_EQ(copy, run_.path() / "benchmark" / "licm");
  for (const auto& file : hashed_files(bench_))
    EXPECT_EQ(read_file(copy / file).value(), read_file(dir_ / file).value()) << file;
  auto loaded = load_benchmark_snapshot(run_.path(), "licm", bench_.hash);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->hash, bench_.hash);
  EXPECT_EQ(loaded->dir, copy);
}

TEST_F(BenchmarkSnapshotTest, AnUnchangedSuiteCopyIsUsedAsItIs) {
  auto chosen = recorded();
  ASSERT_TRUE(chosen.ok()) << chosen.error().message;
  EXPECT_EQ(chosen->bench.dir, dir_);
  EXPECT_EQ(chosen->why_recorded_copy, "");
}

TEST_F(BenchmarkSnapshotTest, AChangedSuiteCopyGivesWayToTheRunsCopy) {
  append(dir_ / "driver.cpp", "// A fix made after the run.\n");
  auto chosen = recorded();
  ASSERT_TRUE(chosen.ok()) << chosen.error().message;
  EXPECT_EQ(chosen->bench.dir, benchmark_snapshot_dir(run_.path(), "licm"));
  EXPECT_EQ(chosen->bench.hash, bench_.hash);
  EXPECT_NE(chosen->why_recorded_copy.find("changed since this run was recorded"),
            std::string::npos)
      << chosen->why_recorded_copy;
}

TEST_F(BenchmarkSnapshotTest, ASuiteWithoutTheBenchmarkGivesWayToTheRunsCopy) {
  auto chosen = recorded_benchmark(run_.path(), "licm", bench_.hash, fail("unknown benchmark"));
  ASSERT_TRUE(chosen.ok()) << chosen.error().message;
  EXPECT_EQ(chosen->bench.dir, benchmark_snapshot_dir(run_.path(), "licm"));
  EXPECT_NE(chosen->why_recorded_copy.find("does not load (unknown benchmark)"), std::string::npos)
      << chosen->why_recorded_copy;
}

TEST_F(BenchmarkSnapshotTest, ATamperedCopyIsRefused) {
  append(dir_ / "driver.cpp", "// A fix made after the run.\n");
  append(benchmark_snapshot_dir(run_.path(), "licm") / "original.cpp", "// Edited.\n");
  auto chosen = recorded();
  ASSERT_FALSE(chosen.ok());
  EXPECT_NE(chosen.error().message.find("its files were changed after the run was recorded"),
            std::string::npos)
      << chosen.error().message;
  EXPECT_FALSE(load_benchmark_snapshot(run_.path(), "licm", bench_.hash).ok());
}

TEST_F(BenchmarkSnapshotTest, ARecordWithoutACopyKeepsTheOldError) {
  fs::remove_all(run_.path() / "benchmark");
  EXPECT_TRUE(recorded().ok()) << "an unchanged suite copy needs no copy in the run";
  append(dir_ / "kernel.h", "// A bound stated after the run.\n");
  auto chosen = recorded();
  ASSERT_FALSE(chosen.ok());
  EXPECT_NE(chosen.error().message.find("the files of benchmark licm changed since this run was "
                                        "recorded, and the record keeps no copy of them"),
            std::string::npos)
      << chosen.error().message;
  auto gone = recorded_benchmark(run_.path(), "licm", bench_.hash, fail("unknown benchmark"));
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error().message, "unknown benchmark");
}

TEST(BenchmarkSnapshotNameTest, ANameThatIsNotAPlainFolderNameHasNoCopy) {
  TempDir run("kopt-snapshot-run-");  // Each name below would reach this manifest.
  ASSERT_TRUE(write_file(run.path() / "benchmark" / "benchmark.json", "{}"));
  ASSERT_TRUE(write_file(run.path() / "benchmark" / "a" / "b" / "benchmark.json", "{}"));
  for (const char* name : {"", ".", "a/b", "a/../."})
    EXPECT_FALSE(has_benchmark_snapshot(run.path(), name)) << name;
}

// A program's hash covers every file of its folder by path; its copy keeps them all, and their
// permissions.
TEST(BenchmarkSnapshotProgramTest, AProgramsCopyKeepsEveryFileAndItsHash) {
  TempDir suite("kopt-snapshot-suite-"), run("kopt-snapshot-run-");
  const fs::path dir =
      copy_benchmark(fs::path(KOPT_TEST_FIXTURES) / "programs" / "matmul_prog", suite.path());
  fs::create_directories(dir / "data");
  ASSERT_TRUE(write_file(dir / "data" / "input.txt", "1 2 3\n"));
  fs::permissions(dir / "compare.sh", fs::perms::owner_exec, fs::perm_options::add);
  const Benchmark bench = load_benchmark(dir).value();
  ASSERT_TRUE(bench.is_program());
  ASSERT_TRUE(write_benchmark_snapshot(bench, run.path()));
  const fs::path copy = benchmark_snapshot_dir(run.path(), "matmul_prog");
  EXPECT_TRUE(fs::exists(copy / "data" / "input.txt"));
  EXPECT_NE(fs::status(copy / "compare.sh").permissions() & fs::perms::owner_exec, fs::perms::none);
  auto loaded = load_benchmark_snapshot(run.path(), "matmul_prog", bench.hash);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->hash, bench.hash);
}

}  // namespace
}  // namespace kopt
