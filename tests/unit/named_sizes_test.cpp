// Several named sizes: the manifest's size.names (expressions of the scale n), work expressions
// over them, and the harness building a Problem from the values kopt passes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "benchmarks/common/harness.h"
#include "tools/benchmark/benchmark.h"
#include "util/files.h"

namespace kopt {

namespace {

// A copy of the seidel1d fixture whose manifest gets `names` and `work`.
Result<Benchmark> with_names(const TempDir& dir, const Json& names, const Json& work) {
  const auto folder = dir.path() / "seidel1d";
  std::filesystem::copy(std::filesystem::path(KOPT_TEST_FIXTURES) / "benchmarks" / "seidel1d",
                        folder);
  Json manifest = read_json_file(folder / "benchmark.json").value();
  manifest["size"]["names"] = names;
  manifest["work"] = work;
  EXPECT_TRUE(write_json_file(folder / "benchmark.json", manifest));
  return load_benchmark(folder);
}

// Records the sizes it was built for.
struct Grid : kopt_bench::Problem {
  explicit Grid(const kopt_bench::Sizes& sizes) : ni(sizes["ni"]), nj(sizes["nj"]) {}
  void fill(kopt_bench::Rng&) override {}
  void call() override {}
  long ni, nj;
};

struct OneSize : kopt_bench::Problem {
  explicit OneSize(long size) : n(size) {}
  void fill(kopt_bench::Rng&) override {}
  void call() override {}
  long n;
};

}  // namespace

TEST(NamedSizesTest, TheManifestsNamesAreWholeNumbersAtEveryScale) {
  TempDir dir("named-sizes-");
  auto bench = with_names(dir, {{"ni", "n"}, {"nj", "n/2 + 3"}},
                          {{"flops", "2*ni*nj"}, {"bytes", "8*(ni + nj)"}});
  ASSERT_TRUE(bench.ok()) << bench.error().message;
  auto vars = bench->variables(5);
  ASSERT_TRUE(vars.ok());
  EXPECT_EQ(vars->at("nj"), 5);  // 5/2 + 3 = 5.5, rounded down.
  EXPECT_DOUBLE_EQ(*bench->work_at(bench->flops, 5), 50);
  auto words = named_size_words(bench->named_sizes, 5);
  ASSERT_TRUE(words.ok());
  EXPECT_EQ(*words, (std::vector<std::string>{"ni=5", "nj=5"}));
}

TEST(NamedSizesTest, BadNamesAndNegativeSizesAreRefused) {
  TempDir a("named-sizes-"), b("named-sizes-"), c("named-sizes-");
  auto reserved = with_names(a, {{"n", "n"}}, {{"flops", "n"}, {"bytes", "n"}});
  ASSERT_FALSE(reserved.ok());
  EXPECT_NE(reserved.error().message.find("not a name a size can have"), std::string::npos);
  auto negative = with_names(b, {{"nk", "n - 2"}}, {{"flops", "nk"}, {"bytes", "n"}});
  ASSERT_FALSE(negative.ok());  // The check size 1 makes nk -1.
  EXPECT_NE(negative.error().message.find("size 'nk'"), std::string::npos);
  auto unknown = with_names(c, {{"ni", "n"}}, {{"flops", "ni*nq"}, {"bytes", "n"}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown name 'nq'"), std::string::npos);
}

TEST(NamedSizesTest, TheHarnessBuildsFromSizesOrFromN) {
  kopt_bench::Sizes sizes(7);
  EXPECT_TRUE(kopt_bench::add_named_size(sizes, "ni=7"));
  EXPECT_TRUE(kopt_bench::add_named_size(sizes, "nj=9"));
  EXPECT_FALSE(kopt_bench::add_named_size(sizes, "nj=4"));  // Twice.
  EXPECT_FALSE(kopt_bench::add_named_size(sizes, "nk=-1"));
  EXPECT_FALSE(kopt_bench::add_named_size(sizes, "nk"));
  auto grid = kopt_bench::make_problem<Grid>(sizes);
  EXPECT_EQ(grid->ni, 7);
  EXPECT_EQ(grid->nj, 9);
  EXPECT_EQ(kopt_bench::make_problem<OneSize>(sizes)->n, 7);
}

}  // namespace kopt
