#include "tools/knowledge/knowledge_tool.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "../support/kopt_cli.h"
#include "../support/text.h"

namespace kopt {

namespace {

ToolResult ask(const Json& arguments, const Benchmark* benchmark = nullptr) {
  static const std::unique_ptr<Tool> tool = make_knowledge_tool();
  ToolContext context;
  context.benchmark = benchmark;
  return tool->call(arguments, context);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(KnowledgeToolTest, DeclaresItsSchema) {
  const auto tool = make_knowledge_tool();
  EXPECT_EQ(tool->name(), "search_knowledge");
  EXPECT_EQ(tool->schema()["required"], Json::array({"query"}));
  EXPECT_EQ(tool->schema()["properties"]["target"]["enum"], Json::array({"cpu", "cuda"}));
}

TEST(KnowledgeToolTest, ReturnsThreeTrimmedNotesByDefault) {
  const ToolResult result = ask({{"query", "uncoalesced global loads"}});
  ASSERT_TRUE(result.ok) << result.text;
  ASSERT_EQ(result.data["hits"].size(), 3u);
  EXPECT_EQ(result.data["hits"][0]["id"], "gpu_coalescing");
  EXPECT_GT(result.data["hits"][0]["score"].get<double>(),
            result.data["hits"][1]["score"].get<double>());
  EXPECT_TRUE(contains(result.text, "# Coalesced global memory access on the GPU")) << result.text;
  EXPECT_LT(test::word_count(result.text), 1000u);
  EXPECT_TRUE(contains(result.text, "## Verify")) << "the best note comes whole";
}

TEST(KnowledgeToolTest, HonoursTargetAndK) {
  const ToolResult result = ask({{"query", "reduction"}, {"target", "cuda"}, {"k", 5}});
  ASSERT_TRUE(result.ok) << result.text;
  EXPECT_EQ(result.data["target"], "cuda");
  EXPECT_EQ(result.data["hits"].size(), 5u);
  EXPECT_NE(result.data["hits"][0]["id"], "reductions");  // a CPU-only note
}

TEST(KnowledgeToolTest, TargetDefaultsToTheBenchmarks) {
  Benchmark cuda_bench;
  cuda_bench.language = Language::cuda;
  EXPECT_EQ(ask({{"query", "reduction"}}, &cuda_bench).data["target"], "cuda");
  Benchmark openmp_bench;
  openmp_bench.language = Language::openmp;
  EXPECT_EQ(ask({{"query", "reduction"}}, &openmp_bench).data["hits"][0]["id"], "reductions");
}

TEST(KnowledgeToolTest, BadArgumentsAreClearErrors) {
  struct Case {
    Json arguments;
    std::string message;
  };
  const std::vector<Case> cases = {
      {Json::object(), "missing required argument 'query'"},
      {{{"query", 3}}, "argument 'query' must be of type string"},
      {{{"query", "tiling"}, {"target", "gpu"}}, "argument 'target' must be one of"},
      {{{"query", "tiling"}, {"k", 0}}, "k must be between 1 and 5, not 0"},
      {{{"query", "tiling"}, {"k", 9}}, "k must be between 1 and 5, not 9"},
      {{{"query", "tiling"}, {"k", "two"}}, "argument 'k' must be of type integer"},
      {{{"query", "tiling"}, {"limit", 2}}, "unknown argument 'limit'"},
      {{{"query", "the of and"}}, "has no searchable words"},
  };
  for (const auto& c : cases) {
    const ToolResult result = ask(c.arguments);
    EXPECT_FALSE(result.ok) << c.arguments.dump();
    EXPECT_TRUE(contains(result.text, c.message)) << result.text;
  }
}

TEST(KnowledgeToolTest, NoMatchIsAnAnswerNotAnError) {
  const ToolResult result = ask({{"query", "zebra giraffe"}});
  EXPECT_TRUE(result.ok);
  EXPECT_TRUE(result.data["hits"].empty());
  EXPECT_TRUE(contains(result.text, "No note matches 'zebra giraffe'")) << result.text;
}

TEST(KnowledgeToolTest, UnloadableFolderFailsEveryCall) {
  const auto tool = make_knowledge_tool("/nonexistent/kopt-knowledge");
  ToolContext context;
  const ToolResult result = tool->call({{"query", "tiling"}}, context);
  EXPECT_FALSE(result.ok);
  EXPECT_TRUE(contains(result.text, "the knowledge base could not be loaded")) << result.text;
}

TEST(KnowledgeToolTest, TrimKeepsWholeLinesAndMarksTheCut) {
  EXPECT_EQ(trim_to_words("one two\nthree four\nfive six", 4), "one two\nthree four\n[...]");
  EXPECT_EQ(trim_to_words("one two\n\nthree four", 3), "one two\n[...]");
  EXPECT_EQ(trim_to_words("one two three", 1), "one two three");  // never empty
  EXPECT_EQ(trim_to_words("a b\nc", 0), "a b\nc");
}

TEST(KnowledgeToolTest, TrimDropsDanglingHeadingsAndClosesCodeBlocks) {
  const std::string body = "## A\ntext\n## B\n```\ncode line here\nmore code\n```";
  EXPECT_EQ(trim_to_words(body, 8), "## A\ntext\n[...]");
  EXPECT_EQ(trim_to_words(body, 10), "## A\ntext\n## B\n```\ncode line here\n```\n[...]");
}

TEST(KnowledgeCommandTest, PrintsTheBestNote) {
  const ProcessResult run =
      test::run_kopt({"knowledge", "critical", "section", "histogram", "-k", "1"});
  EXPECT_TRUE(run.succeeded()) << run.output;
  EXPECT_TRUE(contains(run.output, "# Histograms: privatization")) << run.output;
  EXPECT_FALSE(contains(run.output, "\n# ")) << run.output;  // just one note
}

TEST(KnowledgeCommandTest, JsonListsIdsAndScores) {
  const ProcessResult run =
      test::run_kopt({"knowledge", "uncoalesced global loads", "--target", "cuda", "--json"});
  ASSERT_TRUE(run.succeeded()) << run.output;
  const Json hits = Json::parse(run.output);
  ASSERT_EQ(hits.size(), 3u);
  EXPECT_EQ(hits[0]["id"], "gpu_coalescing");
}

TEST(KnowledgeCommandTest, RejectsAnUnknownTarget) {
  const ProcessResult run = test::run_kopt({"knowledge", "tiling", "--target", "gpu"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(contains(run.output, "--target must be cpu or cuda, not 'gpu'")) << run.output;
}

}  // namespace kopt
