// `kopt diff` and `kopt profile` as people use them, on the real binary: diff's names (human,
// best, a plain number) and its colours, on a terminal and not; profile keeping the profiler's
// own file (perf.data, or callgrind's where perf cannot run) where perf report or
// callgrind_annotate opens it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/kopt_cli.h"
#include "../support/schemas.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {
namespace {

namespace fs = std::filesystem;

// The scripted example: candidate 0003 is its best.
fs::path scripted_example() {
  return test::source_root() / "runs" / "examples" / "20261125-041557-licm-3a6ee1-scripted";
}

// Runs `kopt ARGS` under script(1), whose pseudo-terminal is the program's standard output.
ProcessResult kopt_on_a_terminal(const std::string& args, const std::string& env = "") {
  ProcessSpec spec;
  spec.argv = {"/usr/bin/script", "-qec", env + " " + KOPT_BINARY + " " + args, "/dev/null"};
  spec.env = {{"PATH", "/usr/bin:/bin"}, {"TERM", "xterm"}, {"HOME", "/tmp"}};
  spec.timeout = std::chrono::seconds(60);
  return LocalProcessRunner().run(spec);
}

const std::string kGreen = "\033[32m", kRed = "\033[31m";

TEST(DiffTest, NamesTheHumanVersionTheBestAndPlainNumbers) {
  const std::string run = scripted_example().string();
  ProcessResult human = test::run_kopt({"diff", run, "human", "3", "--color", "never"});
  ASSERT_EQ(human.exit_code, 0) << human.output;
  EXPECT_EQ(human.output.rfind("--- a/human\n+++ b/0003\n", 0), 0u) << human.output;
  ProcessResult best = test::run_kopt({"diff", run, "original", "best", "--color", "never"});
  ASSERT_EQ(best.exit_code, 0) << best.output;
  EXPECT_EQ(best.output.rfind("--- a/original\n+++ b/0003\n", 0), 0u) << best.output;
  ProcessResult same = test::run_kopt({"diff", run, "best", "0003"});
  EXPECT_EQ(same.output, "(identical)\n");
}

TEST(DiffTest, ColoursOnATerminalOrWhenAskedAndNeverIntoAPipeOrUnderNoColor) {
  const std::string args = "diff " + scripted_example().string() + " original best";
  ProcessResult terminal = kopt_on_a_terminal(args);
  ASSERT_EQ(terminal.exit_code, 0) << terminal.output;
  EXPECT_NE(terminal.output.find(kGreen + "+"), std::string::npos) << terminal.output;
  EXPECT_NE(terminal.output.find(kRed + "-"), std::string::npos) << terminal.output;
  ProcessResult no_color = kopt_on_a_terminal(args, "NO_COLOR=1");
  EXPECT_EQ(no_color.output.find('\033'), std::string::npos) << no_color.output;
  ProcessResult never = kopt_on_a_terminal(args + " --color never");
  EXPECT_EQ(never.output.find('\033'), std::string::npos) << never.output;
  ProcessResult pipe = test::run_kopt({"diff", scripted_example().string(), "original", "best"});
  EXPECT_EQ(pipe.output.find('\033'), std::string::npos) << pipe.output;
  ProcessResult always = test::run_kopt(
      {"diff", scripted_example().string(), "original", "best", "--color", "always"});
  EXPECT_NE(always.output.find(kGreen + "+"), std::string::npos) << always.output;
}

// The command that reads the kept file back, and the kernel's function it must name.
ProcessResult read_back(const Json& profile) {
  const std::string file = profile.value("raw_file", "");
  ProcessSpec spec;
  if (profile.value("profiler", "") == "perf")
    spec.argv = {"/usr/bin/perf",
                 "report",
                 "--stdio",
                 "--no-children",
                 "-i",
                 file,
                 "--symfs",
                 (fs::path(file).parent_path() / "symfs").string()};
  else
    spec.argv = {"/usr/bin/callgrind_annotate", file};
  spec.env = {{"PATH", "/usr/bin:/bin"}, {"HOME", "/tmp"}};
  spec.timeout = std::chrono::seconds(60);
  return LocalProcessRunner().run(spec);
}

TEST(ProfileTest, KeepsTheProfilersOwnFileWherePerfReportOrCallgrindAnnotateOpensIt) {
  TempDir keep("kopt-profile-keep-");
  ProcessResult profile = test::run_kopt(
      {"profile", "licm", "--seconds", "0.5", "--keep", keep.path().string(), "--json"});
  ASSERT_EQ(profile.exit_code, 0) << profile.output;
  const Json doc = test::last_json(profile.output);
  EXPECT_EQ(doc.value("threads", 0), 1) << "licm is sequential, whatever OMP_NUM_THREADS says";
  EXPECT_TRUE(test::meets_its_schema(dump_json(doc)));
  const std::string profiler = doc.value("profiler", "");
  const fs::path raw = doc.value("raw_file", "");
  EXPECT_EQ(raw.parent_path().string(), fs::absolute(keep.path()).string()) << doc.dump(2);
  EXPECT_EQ(raw.filename().string(), profiler == "perf" ? "perf.data" : "callgrind.out")
      << doc.dump(2);
  ASSERT_TRUE(fs::exists(raw)) << doc.dump(2);
  EXPECT_TRUE(fs::exists(keep.path() / "bench")) << "the profiled driver, for its symbols";
  EXPECT_NE(doc.value("open_with", "")
                .find(profiler == "perf" ? "perf report -i " + raw.string() : "callgrind_annotate"),
            std::string::npos)
      << doc.dump(2);
  ProcessResult opened = read_back(doc);
  EXPECT_TRUE(opened.succeeded()) << opened.output;
  EXPECT_NE(opened.output.find("standardize"), std::string::npos) << opened.output;
  if (profiler != "perf") return;
  // licm spends a good part of its time in libm's exp: perf names it too, not an address.
  EXPECT_NE(doc.value("open_with", "").find("hotspot --sysroot"), std::string::npos);
  size_t libm_lines = 0;
  for (const auto& line : split(opened.output, '\n')) {
    if (line.find("libm.so") == std::string::npos || line.find("[.]") == std::string::npos)
      continue;
    ++libm_lines;
    EXPECT_EQ(line.find("[.] 0x"), std::string::npos) << "a libm sample left unresolved: " << line;
  }
  EXPECT_GT(libm_lines, 0u) << opened.output;
}

}  // namespace
}  // namespace kopt
