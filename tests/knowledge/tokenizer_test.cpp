#include "tools/knowledge/tokenizer.h"

#include <gtest/gtest.h>

namespace kopt {

using Terms = std::vector<std::string>;

TEST(TokenizerTest, LowercasesAndSplitsOnPunctuation) {
  EXPECT_EQ(tokenize("Cache-Oblivious BLOCK, loop"), (Terms{"cach", "oblivious", "block", "loop"}));
}

TEST(TokenizerTest, DropsStopWordsAndSingleCharacters) {
  EXPECT_EQ(tokenize("the sum of a and b in x"), (Terms{"sum"}));
}

TEST(TokenizerTest, KeepsCudaIdentifiersWholeAndAddsTheirParts) {
  EXPECT_EQ(tokenize("__shfl_down_sync"), (Terms{"shfl_down_sync", "shfl", "down", "sync"}));
  EXPECT_EQ(tokenize("float4 int4"), (Terms{"float4", "int4"}));
}

TEST(TokenizerTest, RestrictSpellingsMeet) {
  EXPECT_EQ(tokenize("__restrict__"), tokenize("restrict"));
  EXPECT_EQ(tokenize("__restrict"), tokenize("RESTRICT"));
}

TEST(TokenizerTest, CompilerRemarkKeepsItsWords) {
  EXPECT_EQ(tokenize("missed: statement clobbers memory: _5 = exp (_4);"),
            (Terms{"miss", "statement", "clobber", "memory", "exp"}));
}

TEST(TokenizerTest, KeepsFlagsAndNumbers) {
  EXPECT_EQ(tokenize("-fopt-info-vec -O3 64 bytes"),
            (Terms{"fopt", "info", "vec", "o3", "64", "byt"}));
}

TEST(StemTest, InflectionsOfOneWordMeet) {
  for (const char* word : {"hoisting", "hoisted", "hoists"}) EXPECT_EQ(stem(word), "hoist") << word;
  for (const char* word : {"tile", "tiles", "tiled", "tiling"})
    EXPECT_EQ(stem(word), "til") << word;
  for (const char* word : {"vectorize", "vectorized", "vectorization"})
    EXPECT_EQ(stem(word), "vectoriz") << word;
  for (const char* word : {"coalesce", "coalesced", "coalescing"})
    EXPECT_EQ(stem(word), "coalesc") << word;
  for (const char* word : {"pad", "pads", "padded", "padding"})
    EXPECT_EQ(stem(word), "pad") << word;
  for (const char* word : {"cache", "caches", "cached", "caching"})
    EXPECT_EQ(stem(word), "cach") << word;
}

TEST(StemTest, LeavesShortWordsIdentifiersAndLatinEndingsAlone) {
  EXPECT_EQ(stem("exp"), "exp");
  EXPECT_EQ(stem("float4"), "float4");
  EXPECT_EQ(stem("omp_get_thread_num"), "omp_get_thread_num");
  EXPECT_EQ(stem("analysis"), "analysis");
  EXPECT_EQ(stem("alias"), "alias");
  EXPECT_EQ(stem("aliasing"), "alias");
  EXPECT_EQ(stem("spilled"), "spill");
  EXPECT_EQ(stem("dependencies"), "dependency");
}

TEST(StopWordTest, CommonWordsOnly) {
  EXPECT_TRUE(is_stop_word("the"));
  EXPECT_TRUE(is_stop_word("with"));
  EXPECT_FALSE(is_stop_word("loop"));
  EXPECT_FALSE(is_stop_word("memory"));
}

}  // namespace kopt
