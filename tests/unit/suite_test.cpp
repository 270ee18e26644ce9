// The suite as shipped: every manifest loads, names are unique, and there are enough of each
// kind of benchmark.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "tools/benchmark/benchmark.h"

namespace kopt {

TEST(SuiteTest, EveryManifestLoadsAndNamesAreUnique) {
  std::set<std::string> names;
  std::map<Language, int> per_language;
  for (const auto& bench : list_benchmarks(default_suite())) {
    ASSERT_TRUE(bench.ok()) << bench.error().message;
    EXPECT_TRUE(names.insert(bench->name).second) << "two benchmarks are named " << bench->name;
    ++per_language[bench->language];
  }
  EXPECT_GE(per_language[Language::cpp], 6);
  EXPECT_GE(per_language[Language::openmp], 8);
  EXPECT_GE(per_language[Language::cuda], 10);
}

TEST(SuiteTest, FindingByNameResolvesEveryBenchmark) {
  for (const auto& bench : list_benchmarks(default_suite())) {
    auto found = find_benchmark(bench->name, default_suite());
    ASSERT_TRUE(found.ok()) << found.error().message;
    EXPECT_EQ(found->dir, bench->dir);
  }
}

}  // namespace kopt
