// The real notes of prompts/knowledge/: they load, they are many and distinct, and real
// questions find the right note first.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "../support/text.h"
#include "tools/knowledge/knowledge_base.h"

namespace kopt {

namespace {

const KnowledgeBase& real_notes() {
  static const KnowledgeBase base = [] {
    auto loaded = KnowledgeBase::load(default_knowledge_dir());
    if (!loaded) throw std::runtime_error(loaded.error().message);
    return std::move(*loaded);
  }();
  return base;
}

struct Query {
  std::string text;
  std::optional<std::string> target;
  std::string expected_first;
};

}  // namespace

TEST(NotesTest, AtLeast25NotesWithDistinctTitles) {
  const auto& notes = real_notes().notes();
  EXPECT_GE(notes.size(), 25u);
  std::set<std::string> titles;
  for (const auto& note : notes)
    EXPECT_TRUE(titles.insert(note.title).second) << "title twice: " << note.title;
}

TEST(NotesTest, EveryNoteIsShortAndTagged) {
  for (const auto& note : real_notes().notes()) {
    const size_t words = test::word_count(note.body);
    EXPECT_GE(words, 150u) << note.id;
    EXPECT_LE(words, 400u) << note.id;
    EXPECT_FALSE(note.tags.empty()) << note.id;
  }
}

TEST(NotesTest, BothTargetsAreCovered) {
  size_t cpu = 0, cuda = 0;
  for (const auto& note : real_notes().notes()) {
    cpu += note.applies("cpu");
    cuda += note.applies("cuda");
  }
  EXPECT_GE(cpu, 12u);
  EXPECT_GE(cuda, 12u);
}

class RealQueryTest : public testing::TestWithParam<Query> {};

TEST_P(RealQueryTest, FindsTheRightNoteFirst) {
  const Query& query = GetParam();
  const auto hits = real_notes().search(query.text, 3, query.target);
  ASSERT_FALSE(hits.empty()) << query.text;
  EXPECT_EQ(hits.front().id, query.expected_first) << query.text << " -> " << hits.front().id;
}

INSTANTIATE_TEST_SUITE_P(
    Notes, RealQueryTest,
    testing::Values(Query{"statement clobbers memory exp", {}, "invariant_hoisting"},
                    Query{"uncoalesced global loads", {}, "gpu_coalescing"},
                    Query{"critical section histogram", {}, "histogram_privatization"},
                    Query{"versioning for alias required", {}, "aliasing_restrict"},
                    Query{"ptxas spill stores registers", {}, "occupancy_registers"},
                    Query{"shared memory bank conflicts", {}, "bank_conflicts"},
                    Query{"partial sums on the same cache line", {}, "false_sharing"},
                    Query{"schedule dynamic guided", {}, "openmp_scheduling"},
                    Query{"arithmetic intensity balance point", {}, "roofline_model"},
                    Query{"loop tiling for the cache", {}, "cache_blocking"},
                    Query{"float4 loads", {}, "vectorized_loads_float4"},
                    Query{"online softmax", {}, "softmax_online"},
                    Query{"array of structs", {}, "aos_to_soa"},
                    Query{"malloc in the hot loop", {}, "allocation_in_hot_loops"},
                    Query{"first touch", {}, "numa_first_touch"},
                    Query{"kernel launch overhead", {}, "cuda_launch_overhead_streams"},
                    Query{"fopt-info-vec missed", {}, "vectorization"},
                    Query{"reduction", std::string("cpu"), "reductions"},
                    Query{"reduction", std::string("cuda"), "warp_shuffle_reduction"}));

}  // namespace kopt
