// Whole programs (manifest "kind": "program") through the real kopt binary: matmul_prog
// (tests/fixtures/programs), a Makefile program with a PASS line, evaluated against itself, with a
// faster solver, a wrong one, one that does not compile, a malformed manifest, and in a run whose
// scripted model hands in the faster solver as a bundle of editable files.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../llm/fake_api_server.h"
#include "../llm/wire_formats.h"
#include "../support/kopt_cli.h"
#include "tools/eval/evaluation.h"
#include "util/files.h"

namespace kopt {

namespace {

namespace fs = std::filesystem;

const fs::path kPrograms = fs::path(KOPT_TEST_FIXTURES) / "programs";
const fs::path kCandidates = fs::path(KOPT_TEST_FIXTURES) / "program_candidates" / "matmul_prog";

// `kopt eval matmul_prog --json` of a variant ("original" or a candidate folder's name).
ProcessResult eval_program(const std::string& variant, const fs::path& suite = kPrograms) {
  std::vector<std::string> args = {"eval",   "matmul_prog",     "--suite", suite.string(),
                                   "--json", "--timing-budget", "3"};
  if (variant != "original")
    args.insert(args.end(), {"--variant", (kCandidates / variant).string()});
  return test::run_kopt(args);
}

std::string verdict_field(const Json& doc, const char* key) {
  return doc["verdict"].value(key, "");
}

// A copy of matmul_prog whose manifest `edit` changed, in a suite of its own.
fs::path edited_copy(const TempDir& suite, const std::function<void(Json&)>& edit) {
  const fs::path dir = suite.path() / "matmul_prog";
  fs::copy(kPrograms / "matmul_prog", dir, fs::copy_options::recursive);
  Json manifest = read_json_file(dir / "benchmark.json").value();
  edit(manifest);
  EXPECT_TRUE(write_json_file(dir / "benchmark.json", manifest));
  return dir;
}

}  // namespace

TEST(ProgramTest, TheOriginalAgainstItselfIsNoWinAndSaysItIsAProgramVerdict) {
  ProcessResult result = eval_program("original");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const Json doc = test::last_json(result.output);
  EXPECT_EQ(verdict_field(doc, "status"), "not-faster") << doc["verdict"].dump();
  EXPECT_EQ(doc["verdict_strength"], "program");
  EXPECT_GE(doc["timing"]["rounds"].get<int>(), 10);
  EXPECT_NE(doc["timing"]["test"].get<std::string>().find("whole runs"), std::string::npos);
  // Every timed run printed its region time; it is recorded as the program's claim only.
  const Json& region = doc["program"]["region"];
  EXPECT_FALSE(region["trusted"].get<bool>());
  EXPECT_EQ(region["candidate_seconds"].size(), doc["timing"]["rounds"].get<size_t>());
}

TEST(ProgramTest, TheFasterSolverIsASignificantWinByWallTime) {
  ProcessResult result = eval_program("fast");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const Json doc = test::last_json(result.output);
  ASSERT_EQ(verdict_field(doc, "status"), "faster") << doc["verdict"].dump();
  EXPECT_GT(doc["timing"]["ci_low"].get<double>(), 1.04);
  EXPECT_EQ(doc["verdict_strength"], "program");
  EXPECT_GT(doc["program"]["runs_checked"].get<int>(), doc["timing"]["rounds"].get<int>());
  // The text output labels the verdict as the weaker kind.
  ProcessResult text =
      test::run_kopt({"eval", "matmul_prog", "--suite", kPrograms.string(), "--variant",
                      (kCandidates / "fast").string(), "--timing-budget", "3"});
  EXPECT_NE(text.output.find("a whole-program verdict, weaker than a function's"),
            std::string::npos)
      << text.output;
}

// A solver that prints PASS and leaves: the compare command (the program's checksum against the
// original's) catches it; with the PASS line alone it passes, and its verdict says why it could.
TEST(ProgramTest, APassLineAloneIsNamedAsTheOnlyCheck) {
  ProcessResult caught = eval_program("says_pass");
  ASSERT_EQ(caught.exit_code, 1) << caught.output;
  EXPECT_EQ(verdict_field(test::last_json(caught.output), "status"), "incorrect");

  TempDir suite("kopt-program-pass-only-");
  edited_copy(suite, [](Json& m) { m["check"].erase("compare"); });
  ProcessResult fooled = eval_program("says_pass", suite.path());
  ASSERT_EQ(fooled.exit_code, 0) << fooled.output;
  EXPECT_EQ(verdict_field(test::last_json(fooled.output), "status"), "faster");
  ProcessResult text =
      test::run_kopt({"eval", "matmul_prog", "--suite", suite.path().string(), "--variant",
                      (kCandidates / "says_pass").string(), "--timing-budget", "1"});
  EXPECT_NE(text.output.find("checked by its PASS line alone"), std::string::npos) << text.output;
}

// Red team 5: a solver that makes only the printed checksum right and turns the program's FAIL
// into PASS (it defines puts), and one that forges a matrix passing Freivalds' test, whose
// vectors it predicts from $KOPT_SEED. Both are caught by the compare command, which reads the
// whole product the fixed main wrote.
TEST(ProgramTest, AProductMadeToPassTheProgramsOwnChecksIsWrong) {
  for (const char* cheat : {"checksum_only", "forged_freivalds"}) {
    ProcessResult result = eval_program(cheat);
    ASSERT_EQ(result.exit_code, 1) << cheat << "\n" << result.output;
    const Json doc = test::last_json(result.output);
    EXPECT_EQ(verdict_field(doc, "status"), "incorrect") << cheat << doc["verdict"].dump();
    EXPECT_NE(result.output.find("product: element"), std::string::npos) << result.output;
  }
}

TEST(ProgramTest, TheWrongSolverFailsThePassLine) {
  ProcessResult result = eval_program("wrong");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  const Json doc = test::last_json(result.output);
  EXPECT_EQ(verdict_field(doc, "status"), "incorrect");
  EXPECT_EQ(verdict_field(doc, "category"), "wrong");
  EXPECT_NE(verdict_field(doc, "reason").find("no line of its output matches the PASS regex"),
            std::string::npos)
      << doc["verdict"].dump();
  EXPECT_NE(verdict_field(doc, "reason").find("FAIL"), std::string::npos);
  EXPECT_TRUE(doc["timing"].is_null()) << "a wrong program is not timed";
}

TEST(ProgramTest, TheWrongSolverFailsTheCompareCommandAlone) {
  TempDir suite("kopt-programs-");
  edited_copy(suite, [](Json& m) { m["check"].erase("pass_regex"); });
  ProcessResult result = eval_program("wrong", suite.path());
  EXPECT_EQ(result.exit_code, 1) << result.output;
  const Json doc = test::last_json(result.output);
  EXPECT_EQ(verdict_field(doc, "category"), "wrong");
  EXPECT_NE(verdict_field(doc, "reason").find("the compare command"), std::string::npos)
      << doc["verdict"].dump();
  EXPECT_NE(verdict_field(doc, "reason").find("product: element"), std::string::npos);
}

// A product kept in a file of the run's folder would make every later run a file read; each run
// gets a fresh copy of the built folder (and fresh inputs), so it is never there.
TEST(ProgramTest, AnAnswerKeptOnDiskBetweenRunsEarnsNothing) {
  ProcessResult result = eval_program("remembers");
  const Json doc = test::last_json(result.output);
  EXPECT_TRUE(verdict_field(doc, "status") == "not-faster" ||
              verdict_field(doc, "status") == "slower")
      << doc["verdict"].dump();
}

// The candidate's process prints the region time, so it can print anything: the verdict is the
// wall time kopt measures, and the printed claim is recorded as untrusted.
TEST(ProgramTest, APrintedTimeNeverDecides) {
  ProcessResult result = eval_program("liar");
  const Json doc = test::last_json(result.output);
  EXPECT_NE(verdict_field(doc, "status"), "faster") << doc["verdict"].dump();
  EXPECT_TRUE(verdict::is_correct(verdict_field(doc, "status"))) << doc["verdict"].dump();
  EXPECT_GT(doc["program"]["region"]["speedup"].get<double>(), 1000);
}

TEST(ProgramTest, ABuildFailureGivesTheFirstCompilerError) {
  ProcessResult result = eval_program("broken");
  EXPECT_EQ(result.exit_code, 1) << result.output;
  const Json doc = test::last_json(result.output);
  EXPECT_EQ(verdict_field(doc, "status"), "build-failed");
  EXPECT_NE(verdict_field(doc, "reason")
                .find("solver.cpp:5:56: error: 'undeclared_scale' was not declared"),
            std::string::npos)
      << doc["verdict"].dump();
}

TEST(ProgramTest, AMalformedManifestNamesItsFileAndField) {
  const std::vector<std::pair<std::string, std::function<void(Json&)>>> cases = {
      {"missing field 'build'", [](Json& m) { m.erase("build"); }},
      {"field 'editable' names nosuch.cpp", [](Json& m) { m["editable"] = {"nosuch.cpp"}; }},
      {"field 'check' needs 'pass_regex' or 'compare'",
       [](Json& m) { m["check"] = Json::object(); }},
      {"field 'check.pass_regex' is not a regular expression",
       [](Json& m) { m["check"]["pass_regex"] = "(PASS"; }},
      {"field 'time' must be", [](Json& m) { m["time"] = "cpu"; }},
      {"field 'kind' must be function or program", [](Json& m) { m["kind"] = "script"; }}};
  for (const auto& [message, edit] : cases) {
    TempDir suite("kopt-programs-");
    const fs::path dir = edited_copy(suite, edit);
    ProcessResult result =
        test::run_kopt({"eval", "matmul_prog", "--suite", suite.path().string(), "--no-time"});
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_NE(result.output.find((dir / "benchmark.json").string() + ": " + message),
              std::string::npos)
        << result.output;
  }
}

TEST(ProgramTest, ProfileAndRooflineSayWhyAProgramHasNone) {
  for (const char* command : {"profile", "roofline"}) {
    ProcessResult result = test::run_kopt({command, "matmul_prog", "--suite", kPrograms.string()});
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_NE(result.output.find("matmul_prog is a whole program"), std::string::npos)
        << result.output;
  }
}

namespace {

using llm::testing::FakeApiServer;
using llm::testing::Received;
using llm::testing::Reply;

// The analyst diagnoses; the optimizer hands in the faster solver as a bundle.
Reply scripted_program_model(const Received& request) {
  const Json body = Json::parse(request.body);
  const std::string system = body["messages"][0].value("content", "");
  llm::testing::Answer answer;
  if (system.find("performance analyst") != std::string::npos) {
    answer.text = "Diagnosis: b is read by column.";
    return {200, llm::testing::openai_json(answer)};
  }
  const std::string source =
      "//// file: solver.cpp\n" + read_file(kCandidates / "fast" / "solver.cpp").value();
  answer.calls = {{"submit", dump_json({{"source", source}, {"summary", "i-k-j order"}})}};
  return {200, llm::testing::openai_json(answer)};
}

}  // namespace

TEST(ProgramTest, ARunKeepsTheFasterProgram) {
  FakeApiServer server;
  server.set_handler(scripted_program_model);
  TempDir runs("kopt-program-runs-");
  ProcessResult run = test::run_kopt(
      {"run", "matmul_prog", "--suite", kPrograms.string(), "--llm", "openai:scripted",
       "--iterations", "1", "--timing-budget", "3", "--out", runs.path().string()},
      std::chrono::seconds(400),
      {{"OPENAI_BASE_URL", server.url() + "/v1"}, {"OPENAI_API_KEY", "sk-test-not-a-real-key"}});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  fs::path dir;
  for (const auto& entry : fs::directory_iterator(runs.path()))
    if (entry.path().filename().string().find("-matmul_prog-") != std::string::npos)
      dir = entry.path();
  ASSERT_FALSE(dir.empty()) << run.output;
  const Json summary = read_json_file(dir / "summary.json").value();
  EXPECT_EQ(summary["best"]["id"], "0001") << summary.dump(2);
  EXPECT_EQ(summary["candidates"][0]["status"], "faster");
  const std::string events = read_file(dir / "events.jsonl").value();
  // The model was shown the editable files as a bundle, the fixed files, the program's check,
  // and why there is no profile or roofline.
  EXPECT_NE(events.find("//// file: solver.cpp"), std::string::npos);
  EXPECT_NE(events.find("//// file: main.cpp"), std::string::npos);
  EXPECT_NE(events.find("matches the PASS regex `^PASS$`"), std::string::npos);
  EXPECT_NE(events.find("not available for a whole program"), std::string::npos);
  EXPECT_NE(events.find(R"("verdict_strength":"program")"), std::string::npos);
  // The recorded run replays: the bundle is one source like any kernel file.
  ProcessResult replay = test::run_kopt({"replay", dir.string()});
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
  EXPECT_NE(replay.output.find("replay verified"), std::string::npos) << replay.output;
  for (const char* reader : {"show", "report"}) {
    ProcessResult read = test::run_kopt({reader, dir.string()});
    EXPECT_EQ(read.exit_code, 0) << reader << ": " << read.output;
  }
}

}  // namespace kopt
