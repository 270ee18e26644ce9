// The guided strategy's techniques: the knowledge base's best notes for the kernel, one per
// iteration in turn, as prose without the notes' code examples.
#include <gtest/gtest.h>

#include <algorithm>

#include "agent/loop/roles.h"
#include "tools/benchmark/benchmark.h"
#include "tools/knowledge/knowledge_base.h"
#include "util/files.h"

namespace kopt {

namespace {

LoopState state_with(const Benchmark& bench) {
  LoopState state;
  state.best_source = read_file(bench.kernel_path()).value();
  return state;
}

std::string title_of(const Techniques& t) {
  return t.given.substr(0, t.given.find('\n'));
}

}  // namespace

TEST(TechniquesTest, ATechniqueIsAskedForUntilAnIterationAppliesItCorrectly) {
  const Benchmark bench = find_benchmark("licm", default_suite()).value();
  LoopState state = state_with(bench);
  std::vector<std::string> titles;
  for (int iteration = 1; iteration <= static_cast<int>(kGuidedTechniques) + 2; ++iteration) {
    const Techniques t = techniques_for(bench, state, iteration);
    ASSERT_EQ(t.given.rfind("### ", 0), 0u) << t.given;
    EXPECT_EQ(t.given.find("```"), std::string::npos) << "a code example reached the prompt";
    EXPECT_EQ(t.others.find(title_of(t).substr(4)), std::string::npos)
        << "the given note is not among the others";
    titles.push_back(title_of(t));
    // Iteration 1's candidate is wrong; every later iteration's is correct.
    Attempt attempt;
    attempt.iteration = iteration;
    attempt.verdict.status = iteration == 1 ? "incorrect" : "not-faster";
    state.attempts.push_back(attempt);
  }
  EXPECT_EQ(titles[0], "### Loop-invariant code motion (hoisting)")
      << "licm's summary names exp and sqrt recomputed inside the inner loop";
  EXPECT_EQ(titles[1], titles[0]) << "asked again after an incorrect candidate";
  for (size_t i = 2; i <= kGuidedTechniques; ++i) EXPECT_NE(titles[i], titles[0]);
  EXPECT_EQ(titles[kGuidedTechniques + 1], titles[0]) << "after the last note the first again";
}

TEST(TechniquesTest, ACudaKernelIsGivenOnlyNotesThatApplyToCuda) {
  const Benchmark bench = find_benchmark("histogram_cuda", default_suite()).value();
  const LoopState state = state_with(bench);
  const KnowledgeBase base = KnowledgeBase::load(default_knowledge_dir()).value();
  for (int iteration = 1; iteration <= static_cast<int>(kGuidedTechniques); ++iteration) {
    const std::string title = title_of(techniques_for(bench, state, iteration)).substr(4);
    auto note = std::find_if(base.notes().begin(), base.notes().end(),
                             [&](const Note& n) { return n.title == title; });
    ASSERT_NE(note, base.notes().end()) << title;
    EXPECT_TRUE(note->applies("cuda")) << title;
  }
}

}  // namespace kopt
