// BM25F ranking on corpora small enough to score by hand.
#include "tools/knowledge/knowledge_base.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kopt {

namespace {

Note note(std::string id, std::string title, std::vector<std::string> tags, std::string body,
          std::vector<std::string> applies_to = {"cpu", "cuda"}) {
  return {std::move(id), std::move(title), std::move(applies_to), std::move(tags), std::move(body)};
}

// Bodies of 3, 4 and 2 terms (average 3); apple, banana and cherry each occur in two notes.
KnowledgeBase fruit() {
  return KnowledgeBase::from_notes(
      {note("apple_doc", "Red fruit", {}, "apple apple banana", {"cpu"}),
       note("cherry_doc", "Dark fruit", {}, "apple cherry cherry cherry"),
       note("mixed_doc", "Yellow fruit", {}, "banana cherry", {"cuda"})});
}

std::vector<std::string> ids(const std::vector<Hit>& hits) {
  std::vector<std::string> out;
  for (const auto& hit : hits) out.push_back(hit.id);
  return out;
}

// The BM25 term score for weighted, length-normalized frequency `tf`.
double saturate(double tf) {
  return tf * (kBm25K1 + 1) / (kBm25K1 + tf);
}

}  // namespace

TEST(RankingTest, ScoresMatchBm25ByHand) {
  const auto hits = fruit().search("apple", 10);
  ASSERT_EQ(ids(hits), (std::vector<std::string>{"apple_doc", "cherry_doc"}));
  const double idf = std::log(1 + (3 - 2 + 0.5) / (2 + 0.5));
  // apple_doc: tf 2 in a body of average length; cherry_doc: tf 1, length 4 -> norm 1.25.
  EXPECT_NEAR(hits[0].score, idf * saturate(2.0), 1e-12);
  EXPECT_NEAR(hits[1].score, idf * saturate(1.0 / 1.25), 1e-12);
}

TEST(RankingTest, MoreOccurrencesInAShortNoteRankHigher) {
  // cherry_doc: tf 3 / norm 1.25 = 2.4; mixed_doc: tf 1 / norm 0.75 = 1.33.
  EXPECT_EQ(ids(fruit().search("cherries", 10)),
            (std::vector<std::string>{"cherry_doc", "mixed_doc"}));
}

TEST(RankingTest, TargetFiltersByAppliesTo) {
  EXPECT_EQ(ids(fruit().search("cherry", 10, "cpu")), (std::vector<std::string>{"cherry_doc"}));
  EXPECT_EQ(ids(fruit().search("banana", 10, "cuda")), (std::vector<std::string>{"mixed_doc"}));
}

TEST(RankingTest, TitleOutranksTagsOutranksBody) {
  const KnowledgeBase base =
      KnowledgeBase::from_notes({note("in_body", "Other topic", {}, "prefetch beta gamma"),
                                 note("in_tags", "Third", {"prefetch"}, "alpha beta gamma"),
                                 note("in_title", "Prefetch distance", {}, "alpha beta gamma")});
  EXPECT_EQ(ids(base.search("prefetching", 10)),
            (std::vector<std::string>{"in_title", "in_tags", "in_body"}));
}

TEST(RankingTest, RareTermsWeighMore) {
  // Equal counts and lengths; "load" is in two notes (idf ln 1.6), "fence" in one (idf ln 8/3).
  const KnowledgeBase base = KnowledgeBase::from_notes({note("common_a", "A", {}, "load store"),
                                                        note("common_b", "B", {}, "load branch"),
                                                        note("rare", "C", {}, "store fence")});
  EXPECT_EQ(ids(base.search("load fence", 10)),
            (std::vector<std::string>{"rare", "common_a", "common_b"}));
}

TEST(RankingTest, TiesBreakById) {
  const KnowledgeBase base = KnowledgeBase::from_notes(
      {note("b_twin", "Same", {}, "vector loads"), note("a_twin", "Same", {}, "vector loads"),
       note("other", "Different", {}, "scalar stores")});
  const auto hits = base.search("vector", 10);
  ASSERT_EQ(ids(hits), (std::vector<std::string>{"a_twin", "b_twin"}));
  EXPECT_EQ(hits[0].score, hits[1].score);
}

TEST(RankingTest, KeepsTheBestK) {
  EXPECT_EQ(ids(fruit().search("cherry apple", 1)), (std::vector<std::string>{"cherry_doc"}));
}

TEST(RankingTest, NoSharedTermsNoHits) {
  EXPECT_TRUE(fruit().search("durian", 10).empty());
  EXPECT_TRUE(fruit().search("the and of", 10).empty());
  EXPECT_TRUE(fruit().search("", 10).empty());
}

}  // namespace kopt
