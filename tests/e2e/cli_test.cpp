// The command line as a new user meets it: bad input gets one clear line and a non-zero exit.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/kopt_cli.h"
#include "../support/small_suite.h"
#include "../support/text.h"
#include "util/files.h"

namespace kopt {

namespace {

std::string licm_file(const std::string& name) {
  return (test::source_root() / "benchmarks" / "cpu" / "licm" / name).string();
}

}  // namespace

TEST(CliTest, ListShowsTheSuite) {
  ProcessResult r = test::run_kopt({"list"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("licm"), std::string::npos);
}

TEST(CliTest, ListAsJsonSaysWhichBenchmarksHaveAHumanVersion) {
  ProcessResult r = test::run_kopt({"list", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Json all = Json::parse(r.output);
  bool licm = false;
  for (const auto& bench : all)
    if (bench["name"] == "licm") {
      licm = true;
      EXPECT_EQ(bench["human"], true);
      EXPECT_EQ(bench["language"], "cpp");
      EXPECT_GT(bench["time_size"].get<long>(), 0);
    }
  EXPECT_TRUE(licm) << r.output;
}

TEST(CliTest, UnknownBenchmarkIsOneLine) {
  ProcessResult r = test::run_kopt({"eval", "no-such-benchmark"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(test::count_lines(r.output), 1) << r.output;
  EXPECT_NE(r.output.find("unknown benchmark 'no-such-benchmark'"), std::string::npos);
}

TEST(CliTest, MalformedManifestIsOneLine) {
  TempDir suite("kopt-suite-");
  ASSERT_TRUE(write_file(suite.path() / "broken" / "benchmark.json",
                         "{\"format\": \"kopt-benchmark/1\", "));
  ProcessResult r = test::run_kopt({"eval", "broken", "--suite", suite.path().string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(test::count_lines(r.output), 1) << r.output;
  EXPECT_NE(r.output.find("not valid JSON"), std::string::npos);
}

TEST(CliTest, ManifestWithAMissingFieldSaysWhich) {
  TempDir suite("kopt-suite-");
  ASSERT_TRUE(write_file(suite.path() / "partial" / "benchmark.json",
                         R"({"format": "kopt-benchmark/1", "name": "partial"})"));
  ProcessResult r = test::run_kopt({"eval", "partial", "--suite", suite.path().string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("missing field 'language'"), std::string::npos) << r.output;
}

TEST(CliTest, MissingCandidateFileIsOneLine) {
  ProcessResult r = test::run_kopt({"eval", "licm", "--variant", "/nonexistent/kernel.cpp"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(test::count_lines(r.output), 1) << r.output;
  EXPECT_NE(r.output.find("cannot open /nonexistent/kernel.cpp"), std::string::npos);
}

TEST(CliTest, CandidateThatDoesNotCompileFailsWithTheCompilerError) {
  TempDir dir("kopt-candidate-");
  ASSERT_TRUE(
      write_file(dir.path() / "broken.cpp", "#include \"kernel.h\"\nvoid standardize( {\n"));
  ProcessResult r =
      test::run_kopt({"eval", "licm", "--variant", (dir.path() / "broken.cpp").string(), "--json"});
  EXPECT_EQ(r.exit_code, 1);
  Json doc = test::last_json(r.output);
  EXPECT_EQ(doc["verdict"]["status"], "build-failed");
  EXPECT_NE(doc["verdict"]["reason"].get<std::string>().find("kernel.cpp:2"), std::string::npos)
      << doc["verdict"];
}

TEST(CliTest, HumanVersionAsACandidateFilePassesTheCheck) {
  ProcessResult r =
      test::run_kopt({"eval", "licm", "--variant", licm_file("human.cpp"), "--no-time", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  Json doc = test::last_json(r.output);
  EXPECT_EQ(doc["format"], "kopt-evaluation/1");
  EXPECT_EQ(doc["verdict"]["status"], "correct");
  EXPECT_EQ(doc["check"]["seeds"].size(), 5u);
  EXPECT_EQ(doc["sandbox"], "bubblewrap");
}

TEST(CliTest, EvaluationDocumentKeepsEverySample) {
  ProcessResult r =
      test::run_kopt({"eval", "licm", "--variant", "human", "--timing-budget", "1", "--json"});
  Json doc = test::last_json(r.output);
  ASSERT_TRUE(doc["timing"].is_object()) << r.output;
  const Json& timing = doc["timing"];
  size_t samples = 0;
  for (const auto& run : timing["samples"]["candidate"]) samples += run.size();
  EXPECT_EQ(samples, timing["candidate"]["count"].get<size_t>());
  EXPECT_GE(timing["rounds"].get<int>(), 3);
  EXPECT_EQ(doc["environment"]["OMP_PROC_BIND"], "close");
  EXPECT_GT(timing["captures_checked"].get<int>(), 0);
}

TEST(CliTest, RefusesToRunCandidatesWithoutASandboxUnlessTold) {
  ProcessResult refused = test::run_kopt({"eval", "licm", "--no-time"}, std::chrono::seconds(120),
                                         {{"KOPT_BWRAP", "/nonexistent/bwrap"}});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(test::count_lines(refused.output), 1) << refused.output;
  EXPECT_NE(refused.output.find("--no-sandbox"), std::string::npos);

  const auto suite = test::small_suite({"licm"});
  ProcessResult allowed = test::run_kopt(
      {"eval", "licm", "--suite", suite->path().string(), "--no-time", "--json", "--no-sandbox"},
      std::chrono::seconds(120), {{"KOPT_BWRAP", "/nonexistent/bwrap"}});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.output;
  EXPECT_EQ(test::last_json(allowed.output)["sandbox"], "none (--no-sandbox)");
}

TEST(CliTest, SeedMakesTheDrawnSeedsAndSizesReproducible) {
  const auto suite = test::small_suite({"licm"});
  auto drawn = [&](const char* seed) {
    ProcessResult r = test::run_kopt(
        {"eval", "licm", "--suite", suite->path().string(), "--no-time", "--json", "--seed", seed});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const Json doc = test::last_json(r.output);
    Json sizes = Json::array();
    for (const Json& c : doc.value("check", Json::object()).value("cases", Json::array()))
      sizes.push_back(c.value("size", 0L));
    return Json{{"seeds", doc.value("seeds", Json::object())}, {"sizes", sizes}};
  };
  const Json first = drawn("7");
  EXPECT_EQ(first.at("seeds").value("check", Json::array()).size(), 5u) << first.dump();
  EXPECT_EQ(first, drawn("7"));
  EXPECT_NE(first, drawn("8"));
}

}  // namespace kopt
