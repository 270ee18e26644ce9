// `kopt predict` end to end: the real calibration sweep and static analysis on suite
// benchmarks, the documents against their schema, and --method llm through a model speaking
// the OpenAI wire protocol on loopback.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../llm/fake_api_server.h"
#include "../llm/wire_formats.h"
#include "../support/kopt_cli.h"
#include "../support/schemas.h"
#include "util/json.h"

namespace kopt {
namespace {

TEST(PredictTest, PredictsBothVariantsOfABenchmarkWithTheirBounds) {
  const ProcessResult run = test::run_kopt({"predict", "licm", "--variant", "both", "--json"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const size_t start = run.output.find("\n[");
  ASSERT_NE(start, std::string::npos) << run.output;
  const Json docs = parse_json(run.output.substr(start), "kopt predict's output").value();
  ASSERT_TRUE(docs.is_array()) << run.output;
  ASSERT_EQ(docs.size(), 2u);
  for (const Json& doc : docs) {
    EXPECT_TRUE(test::meets_its_schema(doc.dump()));
    EXPECT_EQ(doc["method"], "model");
    EXPECT_GT(doc["prediction"]["seconds"].get<double>(), 0) << doc.dump(2);
    EXPECT_GT(doc["counts"]["instructions"].get<double>(), 0);
    EXPECT_EQ(doc["size"], 2048);
  }
  // licm's original calls exp for every element; the human version hoists it out of the rows.
  EXPECT_GE(docs[0]["counts"]["library_calls"].get<double>(), 2048.0 * 2048);
  EXPECT_LT(docs[1]["counts"]["library_calls"].get<double>(), 2048.0 * 4);
}

TEST(PredictTest, SaysWhyItCannotPredictACudaBenchmark) {
  const ProcessResult run = test::run_kopt({"predict", "matmul_cuda"});
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.output.find("CUDA"), std::string::npos) << run.output;
}

TEST(PredictTest, TheLlmMethodAsksAModelAndReadsItsAnswer) {
  llm::testing::FakeApiServer server;
  std::string prompt;
  server.set_handler([&](const llm::testing::Received& request) {
    prompt = request.body;
    llm::testing::Answer answer;
    answer.text = "Two passes over 32 MB at about 20 GB/s, plus exp per element.\nAnswer: 42.5 ms";
    return llm::testing::Reply{200, llm::testing::openai_json(answer)};
  });
  const ProcessResult run = test::run_kopt(
      {"predict", "softmax", "--method", "llm", "--llm", "openai:scripted", "--json"},
      std::chrono::seconds(120),
      {{"OPENAI_BASE_URL", server.url() + "/v1"}, {"OPENAI_API_KEY", "sk-test-not-a-real-key"}});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const Json doc = test::last_json(run.output);
  EXPECT_TRUE(test::meets_its_schema(doc.dump()));
  EXPECT_DOUBLE_EQ(doc["prediction"]["seconds"].get<double>(), 42.5e-3);
  EXPECT_EQ(doc["method"], "llm");
  EXPECT_NE(prompt.find("softmax_rows"), std::string::npos);  // the source went to the model
  EXPECT_NE(prompt.find("GB/s"), std::string::npos);          // and the machine's figures
}

TEST(PredictTest, AnAnswerWithoutATimeIsOneClearError) {
  llm::testing::FakeApiServer server;
  server.set_handler([](const llm::testing::Received&) {
    llm::testing::Answer answer;
    answer.text = "It is hard to say.";
    return llm::testing::Reply{200, llm::testing::openai_json(answer)};
  });
  const ProcessResult run = test::run_kopt(
      {"predict", "softmax", "--method", "llm", "--llm", "openai:scripted"},
      std::chrono::seconds(120),
      {{"OPENAI_BASE_URL", server.url() + "/v1"}, {"OPENAI_API_KEY", "sk-test-not-a-real-key"}});
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.output.find("Answer: <time> ms"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace kopt
