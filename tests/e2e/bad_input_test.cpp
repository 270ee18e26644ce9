// The bad-input corpus: every case runs the real kopt binary and must end with its expected
// exit status and a message holding its fragment, in one line unless the case says otherwise
// (`kopt runs` lists what it can before it names what it cannot read). Nothing here may crash,
// hang, print a raw exception or succeed silently.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include <algorithm>

#include "../support/kopt_cli.h"
#include "../support/text.h"
#include "agent/cli/command.h"
#include "util/files.h"

namespace kopt {

namespace {

namespace fs = std::filesystem;

struct BadInput {
  std::vector<std::string> args;  ///< "@" in an argument stands for the fixture folder.
  int status;
  std::string fragment;
  bool one_line = true;
};

// Usage errors end with status 2, failures of a well-formed request with 1.
constexpr int U = cli::kExitUsage;
constexpr int F = cli::kExitFailed;

// Bad values of the options every run takes, for `kopt run` and `kopt campaign`.
std::vector<BadInput> run_option_cases(const std::string& command) {
  struct Bad {
    const char* option;
    const char* value;
    const char* says;
  };
  const Bad bad[] = {{"iterations", "0", "between 1 and"},
                     {"iterations", "-1", "between 1 and"},
                     {"iterations", "4294967297", "between 1 and"},
                     {"iterations", "1e3", "an integer"},
                     {"iterations", "abc", "an integer"},
                     {"candidates", "0", "between 1 and 64"},
                     {"candidates", "65", "between 1 and 64"},
                     {"seed", "-5", "between 0 and"},
                     {"seed", "x", "an integer"},
                     {"target-speedup", "nan", "a finite number"},
                     {"target-speedup", "-1", "between 0 and"},
                     {"target-speedup", "inf", "a finite number"},
                     {"roofline-fraction", "1.5", "between 0 and 1"},
                     {"roofline-fraction", "-0.1", "between 0 and 1"},
                     {"roofline-fraction", "nan", "a finite number"},
                     {"budget-tokens", "-1", "between 0 and"},
                     {"budget-tokens", "1e9", "an integer"},
                     {"budget-usd", "-2", "between 0 and"},
                     {"budget-usd", "nan", "a finite number"},
                     {"budget-usd", "inf", "a finite number"},
                     {"patience", "0", "between 1 and"},
                     {"patience", "-3", "between 1 and"},
                     {"timing-budget", "nan", "a finite number"},
                     {"timing-budget", "-1", "between 0 and"},
                     {"timing-budget", "1e300", "between 0 and"},
                     {"temperature", "nan", "a finite number"},
                     {"temperature", "-0.5", "between 0 and 2"},
                     {"temperature", "3", "between 0 and 2"},
                     {"temperature", "inf", "a finite number"},
                     {"temperature", "0x", "a finite number"},
                     {"max-tokens", "-1", "between 1 and"},
                     {"max-tokens", "0", "between 1 and"},
                     {"max-tokens", "4294967297", "between 1 and"},
                     {"max-tokens", "2.5", "an integer"},
                     {"promotion", "best", "head-to-head or interval"},
                     {"strategy", "smart", "marco, direct, guided or auto"}};
  const std::string target = command == "run" ? "licm" : "@/one_suite";
  std::vector<BadInput> cases;
  for (const auto& b : bad)
    cases.push_back({{command, target, std::string("--") + b.option, b.value},
                     U,
                     std::string("--") + b.option + " must be " + b.says});
  return cases;
}

std::vector<BadInput> corpus() {
  std::vector<BadInput> cases = run_option_cases("run");
  for (auto& c : run_option_cases("campaign")) cases.push_back(c);
  const std::vector<BadInput> more = {
      // Backends.
      {{"run", "licm", "--llm", "bogus"}, F, "unknown LLM spec 'bogus'"},
      {{"run", "licm", "--llm", "openai:"}, F, "needs a value after 'openai:'"},
      {{"run", "licm", "--llm", "exec:"}, F, "needs a value after 'exec:'"},
      {{"run", "licm", "--llm", "openai:m"}, F, "OPENAI_API_KEY is not set"},
      {{"run", "no-such-benchmark"}, F, "unknown benchmark 'no-such-benchmark'"},
      {{"llm", "ping", "--llm", "bogus"}, F, "unknown LLM spec"},
      {{"lsit"}, U, "no command 'lsit'; the commands are list, new, import, eval"},
      {{"llm", "ping", "--llm", "openai:m"}, F, "OPENAI_API_KEY is not set"},
      {{"llm", "ping", "--llm", "anthropic:"}, F, "needs a value after 'anthropic:'"},
      {{"llm", "chat", "--llm", "exec:true", "--max-tokens", "-1", "hi"}, U, "between"},
      {{"llm", "chat", "--llm", "exec:true", "--max-tokens", "0", "hi"}, U, "between"},
      {{"llm", "chat", "--llm", "exec:true", "--temperature", "nan", "hi"}, U, "finite"},
      {{"llm", "chat", "--llm", "exec:true", "--temperature", "-1", "hi"}, U, "between"},
      // Variant files.
      {{"eval", "licm", "--variant", "/dev/zero"}, U, "/dev/zero is not a regular file"},
      {{"eval", "licm", "--variant", "/dev/null"}, U, "is not a regular file"},
      {{"eval", "licm", "--variant", "@/fifo"}, U, "fifo is not a regular file"},
      {{"eval", "licm", "--variant", "@/folder"}, U, "folder is not a regular file"},
      {{"eval", "licm", "--variant", "@/big.cpp"}, U, "is larger than 1024 KiB"},
      {{"eval", "licm", "--variant", "/nonexistent/k.cpp"}, U, "cannot open /nonexistent/k.cpp"},
      {{"profile", "licm", "--variant", "/dev/zero"}, U, "is not a regular file"},
      {{"profile", "licm", "--variant", "@/fifo"}, U, "is not a regular file"},
      // Evaluation options.
      {{"eval", "licm", "--timing-budget", "nan"}, U, "budget must be a finite number"},
      {{"eval", "licm", "--timing-budget", "-1"}, U, "budget must be between"},
      {{"eval", "licm", "--seed", "-1"}, U, "seed must be between"},
      {{"eval", "licm", "--seed", "abc"}, U, "seed must be an integer"},
      {{"bench", "licm", "--timing-budget", "nan"}, U, "budget must be a finite number"},
      {{"bench", "licm", "--timing-budget", "-3"}, U, "budget must be between"},
      {{"bench", "no-such-benchmark"}, U, "unknown benchmark"},
      {{"eval", "no-such-benchmark"}, U, "unknown benchmark"},
      {{"profile", "licm", "--seconds", "0"}, U, "seconds must be positive"},
      {{"profile", "licm", "--seconds", "nan"}, U, "seconds must be a finite number"},
      {{"profile", "licm", "--seconds", "-1"}, U, "seconds must be between"},
      {{"profile", "licm", "--size", "0"}, U, "size must be between"},
      {{"profile", "licm", "--size", "99999999999999999999"}, U, "size must be between"},
      {{"profile", "licm", "--top", "0"}, U, "top must be between"},
      {{"profile", "licm", "--profiler", "bogus"}, U, "--profiler must be auto, perf or callgrind"},
      {{"roofline", "licm", "--size", "-1"}, U, "size must be between"},
      {{"roofline", "licm", "--size", "abc"}, U, "size must be an integer"},
      {{"knowledge", "-k", "0", "hoist"}, U, "must be between 1 and 1000"},
      {{"knowledge", "-k", "-1", "hoist"}, U, "must be between 1 and 1000"},
      {{"knowledge", "-k", "abc", "hoist"}, U, "must be an integer"},
      {{"knowledge", "--words", "-1", "hoist"}, U, "words must be between"},
      // kopt new: the kernel file, the function, its parameters, the options.
      {{"new", "k", "--from", "@/kernels/k.c", "--function", "nosuch", "--suite", "@"},
       U,
       "defines no function 'nosuch'"},
      {{"new", "k", "--from", "@/kernels/broken.c", "--function", "k", "--suite", "@"},
       U,
       "does not compile"},
      {{"new", "k", "--from", "/nonexistent/k.c", "--function", "k", "--suite", "@"},
       U,
       "no such file: /nonexistent/k.c"},
      {{"new", "k", "--from", "@/kernels/rows.c", "--function", "k", "--suite", "@"},
       U,
       "is a pointer to pointers"},
      {{"new", "k", "--from", "@/kernels/gather.c", "--function", "k", "--suite", "@"},
       U,
       "say it with --extent src=EXPR"},
      {{"new", "k", "--from", "@/kernels/k.c", "--function", "k", "--language", "cuda"},
       U,
       "does not make CUDA benchmarks yet"},
      {{"new", "k", "--from", "@/kernels/k.c", "--function", "k", "--role", "y=maybe"},
       U,
       "must be in, out or inout"},
      {{"new", "k", "--from", "@/kernels/k.c", "--function", "k", "--extent", "y"},
       U,
       "--extent takes NAME=VALUE"},
      {{"new", "k", "--from", "@/kernels/k.c", "--function", "k", "--role", "q=in"},
       U,
       "--role names no array parameter 'q'"},
      {{"new", "a/b", "--from", "@/kernels/k.c", "--function", "k"}, U, "cannot name a benchmark"},
      {{"new", "folder", "--from", "@/kernels/k.c", "--function", "k", "--suite", "@"},
       U,
       "exists already (--force replaces it)"},
      // Manifests.
      {{"eval", "broken", "--suite", "@/bad_suite"}, U, "not valid JSON"},
      {{"list", "--suite", "@/bad_suite"}, F, "not valid JSON", false},  // After its header.
      {{"eval", "partial", "--suite", "@/partial_suite"}, U, "missing field 'language'"},
      {{"eval", "licm", "--suite", "/nonexistent-suite"}, U, "licm"},
      // Run records.
      {{"show", "@/runs/bad-json-run"}, U, "run.json line 3: not valid JSON"},
      {{"show", "@/runs/wrong-format-run"}, U, "is not a kopt-run/1 record"},
      {{"show", "@/runs/bad-shape-run"}, U, "\"benchmark\" is missing or not an object"},
      // 200,000 nested arrays once overflowed the stack; a number for a name threw.
      {{"show", "@/runs/deep-run"}, U, "run.json line 1: nests arrays or objects deeper than"},
      {{"report", "@/runs/deep-run"}, U, "nests arrays or objects deeper than"},
      {{"show", "@/runs/number-name-run"}, U, "\"benchmark\".name is not a string"},
      {{"report", "@/runs/number-name-run"}, U, "\"benchmark\".name is not a string"},
      {{"show", "--json", "@/runs/array-llm-run"}, U, "\"config\".llm is not a string"},
      {{"show", "@/runs/bad-event-run"}, U, "events.jsonl line 3 is not valid JSON"},
      {{"show", "@/runs/scalar-event-run"}, U, "events.jsonl line 2: not a JSON object"},
      {{"show", "@/runs/odd-event-run"}, U, "events.jsonl line 2: an event of an unexpected shape"},
      // A run that died before its first event reads as an empty, stopped run.
      {{"show", "@/runs/no-events-run"}, 0, "stopped before it finished", false},
      {{"show", "no-such-run", "--out", "@/runs"}, U, "no run 'no-such-run'"},
      // A name past the filesystem's limit: the reason and the name's length, not 5,000 bytes.
      {{"show", std::string(5000, 'a')}, F, "File name too long: 'aaaa"},
      {{"report", std::string(5000, 'a')}, F, "characters)"},
      {{"resume", "@/runs/" + std::string(5000, 'a')}, F, "characters)"},
      {{"run", "licm", "--out", "@/" + std::string(5000, 'a')}, F, "characters): File name too"},
      {{"show", "@/runs/good-run/"}, 0, "run      good-run", false},
      {{"diff", "@/runs/good-run", "0001", "0002"}, U, "no candidate '0002'"},
      {{"replay", "@/runs/bad-json-run"}, F, "cannot replay bad-json-run: not a kopt run"},
      {{"replay", "@/runs/bad-event-run"}, F, "cannot replay"},
      {{"resume", "@/runs/bad-json-run"}, F, "run.json line 3"},
      {{"resume", "@/runs/finished-run"}, F, "has finished"},
      {{"report", "@/runs/bad-json-run"}, U, "run.json line 3"},
      {{"runs", "--out", "@/runs"}, F, "unreadable: not a kopt run", false},
      // A campaign index line with a member of another type once threw from its readers.
      {{"compare", "@/typed_campaign"}, U, "index.jsonl line 1: \"run\" is not of the type"},
      {{"report", "@/typed_campaign"}, U, "index.jsonl line 1: \"run\" is not of the type"},
      {{"compare", "@/tokens_campaign"}, U, "\"best.speedup\" is not of the type"},
      // The command line itself.
      {{"bogus-command"}, U, "(see kopt --help)"},
      {{"list", "--suite", "/nonexistent"}, U, "no benchmarks under /nonexistent (no such folder)"},
      {{"bench", "--all", "--suite", "@/runs"}, U, "no benchmarks under"},
      {{"run"}, U, "BENCH is required"},
      {{"run", "licm", "--bogus-option"}, U, "--bogus-option"},
      {{"eval", "licm", "extra", "arguments"}, U, "extra"},
      {{"diff", "@/runs/good-run"}, U, "A is required"},
      {{}, U, "subcommand"},
  };
  cases.insert(cases.end(), more.begin(), more.end());
  return cases;
}

std::string manifest_with_flops(const std::string& flops) {
  Json m = read_json_file(test::source_root() / "benchmarks/cpu/licm/benchmark.json").value();
  m["name"] = "nested";
  m["work"]["flops"] = flops;
  return dump_json(m);
}

void write_run(const fs::path& dir, const std::string& run_json, const std::string& events) {
  ASSERT_TRUE(write_file(dir / "run.json", run_json));
  if (!events.empty()) {
    ASSERT_TRUE(write_file(dir / "events.jsonl", events));
  }
}

// The files the corpus points at, under `root`.
void make_fixtures(const fs::path& root) {
  ASSERT_EQ(::mkfifo((root / "fifo").c_str(), 0600), 0);
  fs::create_directories(root / "folder");
  ASSERT_TRUE(write_file(root / "big.cpp", std::string(2 << 20, '/')));
  ASSERT_TRUE(write_file(root / "kernels/k.c",
                         "void k(int n, const double* x, double* y) {\n"
                         "  for (int i = 0; i < n; i++) y[i] = 2 * x[i];\n}\n"));
  ASSERT_TRUE(write_file(root / "kernels/broken.c", "void k(int n) { return n }\n"));
  ASSERT_TRUE(write_file(root / "kernels/rows.c", "void k(int n, double** a) { a[0][0] = n; }\n"));
  ASSERT_TRUE(write_file(root / "kernels/gather.c",
                         "void k(int n, const int* idx, const double* src, double* dst) {\n"
                         "  for (int i = 0; i < n; i++) dst[i] = src[idx[i]];\n}\n"));
  ASSERT_TRUE(write_file(root / "bad_suite/broken/benchmark.json", "{\"format\": \"kopt-b"));
  ASSERT_TRUE(write_file(root / "partial_suite/partial/benchmark.json",
                         R"({"format": "kopt-benchmark/1", "name": "partial"})"));
  fs::create_directories(root / "one_suite");
  fs::copy(test::source_root() / "benchmarks/cpu/licm", root / "one_suite/licm",
           fs::copy_options::recursive);
  const std::string header = "{\"type\":\"header\",\"format\":\"kopt-events/1\"}\n";
  const std::string good = dump_json({{"format", "kopt-run/1"},
                                      {"id", "good-run"},
                                      {"status", "running"},
                                      {"benchmark", {{"name", "licm"}, {"hash", "x"}}},
                                      {"config", {{"llm", "local"}}}});
  const std::string index_line =
      R"({"format": "kopt-campaign-index/1", "benchmark": "licm", "llm": "local", )"
      R"("strategy": "marco", "seed": 1, )";
  ASSERT_TRUE(write_file(root / "typed_campaign/index.jsonl", index_line + R"("run": 5})" + "\n"));
  ASSERT_TRUE(write_file(root / "tokens_campaign/index.jsonl",
                         index_line + R"("status": "finished", "best": {"speedup": "x"}})" + "\n"));
  const fs::path runs = root / "runs";
  write_run(runs / "good-run", good, header);
  Json finished = Json::parse(good);
  finished["status"] = "finished";
  write_run(runs / "finished-run", dump_json(finished), header);
  write_run(runs / "bad-json-run", "{\n  \"format\": \"kopt-run/1\",\n  \"id\": oops\n}\n", header);
  write_run(runs / "wrong-format-run", R"({"format": 5})", header);
  write_run(runs / "bad-shape-run", R"({"format": "kopt-run/1", "benchmark": 5, "config": {}})",
            header);
  write_run(runs / "bad-event-run", good, header + "{\"type\":\"iteration\"}\n{broken\n{}\n");
  write_run(runs / "scalar-event-run", good, header + "42\n");
  write_run(runs / "odd-event-run", good,
            header + R"({"type":"model_call","iteration":1,"response":5})" + "\n");
  write_run(runs / "no-events-run", good, "");
  Json deep = Json::parse(good);
  deep.erase("config");  // So that the nesting comes before it.
  write_run(runs / "deep-run",
            dump_json(deep).substr(0, dump_json(deep).size() - 1) +
                ",\"x\":" + std::string(200000, '[') + std::string(200000, ']') + ",\"config\":{}}",
            header);
  Json number_name = Json::parse(good);
  number_name["benchmark"]["name"] = 5;
  write_run(runs / "number-name-run", dump_json(number_name), header);
  Json array_llm = Json::parse(good);
  array_llm["config"]["llm"] = Json::array({1});
  write_run(runs / "array-llm-run", dump_json(array_llm), header);
}

class BadInputTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = new TempDir("kopt-bad-input-");
    make_fixtures(root_->path());
  }
  static void TearDownTestSuite() {
    delete root_;
    root_ = nullptr;
  }
  static std::vector<std::string> expand(std::vector<std::string> args) {
    for (auto& arg : args)
      if (auto at = arg.find('@'); at != std::string::npos)
        arg.replace(at, 1, root_->path().string());
    return args;
  }
  static inline TempDir* root_ = nullptr;
};

}  // namespace

TEST_F(BadInputTest, EveryCaseGetsItsExitStatusAndOneClearLine) {
  const auto cases = corpus();
  ASSERT_GE(cases.size(), 100u);
  for (const auto& c : cases) {
    const auto args = expand(c.args);
    std::string shown;
    for (const auto& a : args) shown += a + " ";
    ProcessResult r =
        test::run_kopt(args, std::chrono::seconds(60), {{"KOPT_RUNS", "/nonexistent"}});
    EXPECT_FALSE(r.timed_out) << shown;
    EXPECT_EQ(r.signal, 0) << shown << "crashed";
    EXPECT_EQ(r.exit_code, c.status) << shown << "\n" << r.output;
    EXPECT_NE(r.output.find(c.fragment), std::string::npos) << shown << "\n" << r.output;
    EXPECT_EQ(r.output.find("json.exception"), std::string::npos) << shown << "\n" << r.output;
    EXPECT_LT(r.output.size(), 4000u) << shown << "\n" << r.output;
    if (c.one_line) {
      EXPECT_EQ(test::count_lines(r.output), 1) << shown << "\n" << r.output;
    }
  }
}

// A run folder from elsewhere whose report.html is a link: the report replaces the link, and the
// file it names is left as it was (it was overwritten with the page).
TEST_F(BadInputTest, AReportNeverWritesThroughALink) {
  const fs::path run = root_->path() / "linked-report-run";
  fs::copy(root_->path() / "runs/good-run", run, fs::copy_options::recursive);
  ASSERT_TRUE(write_file(root_->path() / "precious.txt", "precious\n"));
  fs::create_symlink(root_->path() / "precious.txt", run / "report.html");
  ProcessResult r = test::run_kopt({"report", run.string()});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read_file(root_->path() / "precious.txt").value(), "precious\n");
  EXPECT_FALSE(fs::is_symlink(run / "report.html"));
  EXPECT_NE(read_file(run / "report.html").value().find("<!DOCTYPE html>"), std::string::npos);
}

// A campaign folder holding run folders it did not write: one of its cell, finished, whose
// summary.json has members of other types, and one whose seed is text. The campaign reads them
// as found (no raw exception) and takes the finished one's line without running anything.
TEST_F(BadInputTest, ACampaignReadsRunFoldersItDidNotWriteAsFound) {
  const fs::path campaign = root_->path() / "found_campaign";
  const Json run = {{"format", "kopt-run/1"},
                    {"id", "r1"},
                    {"status", "finished"},
                    {"benchmark", {{"name", "licm"}, {"hash", "x"}}},
                    {"config", {{"llm", "exec:false"}, {"strategy", "marco"}, {"seed", 1}}}};
  write_run(campaign / "r1", dump_json(run),
            "{\"type\":\"header\",\"format\":\"kopt-events/1\"}\n");
  ASSERT_TRUE(write_file(campaign / "r1/summary.json",
                         R"({"format": "kopt-summary/1", "candidates": 5, "original": "x", )"
                         R"("best": {"speedup": "x"}, "usage": {"input_tokens": "x", )"
                         R"("output_tokens": -5, "tokens_estimated": 3, "cost_usd": []}})"));
  Json odd = run;
  odd["id"] = "r2";  // after r1 by name: a seed of "x" must not make it the seed-1 cell's run
  odd["config"]["seed"] = "x";
  write_run(campaign / "r2", dump_json(odd), "");
  ProcessResult r = test::run_kopt({"campaign", root_->path().string() + "/one_suite", "--into",
                                    campaign.string(), "--llm", "exec:false", "--seed", "1"},
                                   std::chrono::seconds(120));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("json.exception"), std::string::npos) << r.output;
  const auto index = read_file(campaign / "index.jsonl");
  ASSERT_TRUE(index.ok()) << index.error().message;
  EXPECT_NE(index->find(R"("run":"r1")"), std::string::npos) << *index;
  EXPECT_NE(index->find(R"("status":"finished")"), std::string::npos) << *index;
}

// 50,000 nested parentheses: the work-expression parser's depth limit, not a stack overflow.
TEST_F(BadInputTest, DeeplyNestedWorkExpressionIsOneLine) {
  const fs::path suite = root_->path() / "nested_suite";
  fs::create_directories(suite);
  fs::copy(test::source_root() / "benchmarks/cpu/licm", suite / "nested",
           fs::copy_options::recursive);
  ASSERT_TRUE(
      write_file(suite / "nested/benchmark.json",
                 manifest_with_flops(std::string(50000, '(') + "n" + std::string(50000, ')'))));
  ProcessResult r = test::run_kopt({"eval", "nested", "--suite", suite.string()});
  EXPECT_EQ(r.signal, 0) << r.describe();
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_EQ(test::count_lines(r.output), 1) << r.output;
}

}  // namespace kopt
