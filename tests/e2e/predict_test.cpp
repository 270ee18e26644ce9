// `kopt predict` end to end: the real calibration sweep and static analysis on suite
// benchmarks, the documents against their schema, and --method llm through a model speaking
// the OpenAI wire protocol on loopback.
#include <gtest/gtest.h>

#include <filesystem>
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

// Without a GPU the launches are traced through kopt's stand-in runtime and the default
// efficiencies are used, and said so.
TEST(PredictTest, PredictsACudaBenchmarkFromItsTracedLaunches) {
  if (!std::filesystem::exists("/usr/local/cuda/bin/nvcc")) GTEST_SKIP() << "nvcc not installed";
  const ProcessResult run = test::run_kopt(
      {"predict", "triad_cuda", "--size", "1048576", "--hardware", "h100", "--uncalibrated",
       "--json"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const Json doc =
      parse_json(run.output.substr(run.output.find('{')), "kopt predict's output").value();
  const Json& launches = doc["prediction"]["launches"];
  ASSERT_EQ(launches.size(), 1u) << doc.dump(2);
  // 2^20 elements, 64 a thread, 256 threads a block: 64 blocks.
  EXPECT_EQ(launches[0]["grid"][0], 64) << doc.dump(2);
  EXPECT_EQ(launches[0]["block"][0], 256);
  EXPECT_FALSE(doc["prediction"]["calibrated"].get<bool>());
  EXPECT_NE(doc["prediction"]["notes"].dump().find("uncalibrated"), std::string::npos);
}

// A kernel file of the tests' fixtures (tests/fixtures/roofline/file/).
std::string roofline_fixture(const std::string& name) {
  return std::string(KOPT_TEST_FIXTURES) + "/roofline/file/" + name;
}

// The document (or the array of them) `kopt predict ... --json` prints after its status lines.
Json predicted(const std::vector<std::string>& args) {
  const ProcessResult run = test::run_kopt(args);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const size_t start = run.output.find_first_of("[{");
  if (start == std::string::npos) return nullptr;
  return parse_json(run.output.substr(start), "kopt predict's output").value_or(nullptr);
}

TEST(PredictTest, PredictsAKernelOfAFileFromTheArgumentsGiven) {
  const Json small = predicted({"predict", roofline_fixture("loops.cpp"), "--kernel", "scale",
                                "--args", "_,_,1000000", "--json"});
  ASSERT_TRUE(small.is_object()) << small.dump();
  EXPECT_TRUE(test::meets_its_schema(small.dump()));
  EXPECT_EQ(small["kernel"], "scale(double const*, double*, long)");
  EXPECT_NE(small["file"].get<std::string>().find("loops.cpp"), std::string::npos);
  ASSERT_FALSE(small["loop_trips"].empty());
  for (const Json& loop : small["loop_trips"])  // Vectorized: a main loop and a remainder.
    EXPECT_FALSE(loop["assumed"].get<bool>()) << small.dump(2);
  // One multiply an element (the vector remainder loop is counted as one trip at most).
  EXPECT_NEAR(small["counts"]["fp64_flops"].get<double>(), 1e6, 1e3) << small.dump(2);
  EXPECT_EQ(small["arguments"][2], 1e6);
  // Eight times the elements: at least four times the time whichever level holds them.
  const Json large = predicted({"predict", roofline_fixture("loops.cpp"), "--kernel", "scale",
                                "--args", "_,_,8000000", "--json"});
  EXPECT_GT(large["prediction"]["seconds"].get<double>(),
            4 * small["prediction"]["seconds"].get<double>());
}

TEST(PredictTest, AFileWithoutArgumentsPredictsEveryKernelAndSaysWhatItAssumed) {
  const Json docs = predicted({"predict", roofline_fixture("loops.cpp"), "--json"});
  ASSERT_TRUE(docs.is_array()) << docs.dump();
  ASSERT_EQ(docs.size(), 2u);
  for (const Json& doc : docs) {
    EXPECT_TRUE(test::meets_its_schema(doc.dump()));
    EXPECT_NE(doc["prediction"]["notes"].dump().find("assumed"), std::string::npos) << doc.dump();
  }
  // powers runs an OpenMP loop: its core-bound terms are shared by the machine's threads.
  EXPECT_EQ(docs[1]["kernel"], "powers(double const*, double*, long)");
  EXPECT_NE(docs[1]["prediction"]["notes"].dump().find("OpenMP"), std::string::npos);
}

TEST(PredictTest, ASuiteKernelAsAFilePredictsWhatItsBenchmarkPredicts) {
  const std::string file = (test::source_root() / "benchmarks/cpu/licm/original.cpp").string();
  const Json as_file = predicted(
      {"predict", file, "--flags=-std=c++20", "--args", "_,_,_,_,2048,2048,0.9,1e-5", "--json"});
  const Json as_benchmark = predicted({"predict", "licm", "--json"});
  ASSERT_TRUE(as_file.is_object() && as_benchmark.is_object());
  EXPECT_NEAR(as_file["prediction"]["seconds"].get<double>(),
              as_benchmark["prediction"]["seconds"].get<double>(),
              0.02 * as_benchmark["prediction"]["seconds"].get<double>());
  EXPECT_EQ(as_file["counts"]["divides"], as_benchmark["counts"]["divides"]);
}

TEST(PredictTest, AFileSaysWhatItCannotPredict) {
  const ProcessResult unnamed =
      test::run_kopt({"predict", roofline_fixture("loops.cpp"), "--kernel", "nope"});
  EXPECT_EQ(unnamed.exit_code, 1);
  EXPECT_NE(unnamed.output.find("no kernel named 'nope'"), std::string::npos) << unnamed.output;
  EXPECT_NE(unnamed.output.find("scale"), std::string::npos) << unnamed.output;
  const ProcessResult cuda = test::run_kopt({"predict", roofline_fixture("constructs.cu")});
  EXPECT_EQ(cuda.exit_code, 2);
  EXPECT_NE(cuda.output.find("kopt roofline"), std::string::npos) << cuda.output;
  const ProcessResult sized =
      test::run_kopt({"predict", roofline_fixture("loops.cpp"), "--size", "10"});
  EXPECT_EQ(sized.exit_code, 2);
  EXPECT_NE(sized.output.find("--args"), std::string::npos) << sized.output;
  const ProcessResult include = test::run_kopt({"predict", "licm", "-I", "/tmp"});
  EXPECT_EQ(include.exit_code, 2);
  EXPECT_NE(include.output.find("kernel FILE"), std::string::npos) << include.output;
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
