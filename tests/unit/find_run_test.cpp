// Naming a run on the command line: its folder, its name, or a unique part of its id, under the
// runs folder or one level down (runs/examples/, a campaign's folder).
#include <gtest/gtest.h>

#include "agent/record/run_record.h"
#include "util/files.h"

namespace kopt {
namespace {

namespace fs = std::filesystem;

// A folder that reads as a run: it has a run.json.
fs::path make_run(const fs::path& dir) {
  fs::create_directories(dir);
  EXPECT_TRUE(write_file(dir / "run.json", "{}"));
  return dir;
}

TEST(FindRunTest, FindsARunByNameOrIdUnderTheRunsFolder) {
  TempDir runs("kopt-find-run-");
  const fs::path run = make_run(runs.path() / "20261125-041557-licm-3a6ee1");
  EXPECT_EQ(find_run("20261125-041557-licm-3a6ee1", runs.path()).value(), run);
  EXPECT_EQ(find_run("3a6ee1", runs.path()).value(), run);
  EXPECT_EQ(find_run(run.string() + "/", runs.path()).value(), run);
  EXPECT_FALSE(find_run("ffffff", runs.path()).ok());
}

TEST(FindRunTest, LooksOneLevelDownWhenTheRunsFolderHasNoSuchRun) {
  TempDir runs("kopt-find-run-");
  const fs::path example = make_run(runs.path() / "examples" / "20261125-041557-licm-3a6ee1");
  const fs::path other = make_run(runs.path() / "campaign" / "20261126-170012-stencil1d-ee9e4f");
  EXPECT_EQ(find_run("20261125-041557-licm-3a6ee1", runs.path()).value(), example);
  EXPECT_EQ(find_run("ee9e4f", runs.path()).value(), other);
  auto none = find_run("licm-ffffff", runs.path());
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("or its folders"), std::string::npos);
}

TEST(FindRunTest, ARunDirectlyUnderTheRunsFolderWinsAndTwoMatchesAreAmbiguous) {
  TempDir runs("kopt-find-run-");
  const fs::path top = make_run(runs.path() / "20261127-000000-licm-aaaaaa");
  make_run(runs.path() / "examples" / "20261125-041557-licm-aaaaab");
  EXPECT_EQ(find_run("aaaaa", runs.path()).value(), top) << "the top level is searched first";
  make_run(runs.path() / "examples" / "20261125-041557-scan-bbbbb1");
  make_run(runs.path() / "campaign" / "20261125-041557-scan-bbbbb2");
  auto two = find_run("bbbbb", runs.path());
  ASSERT_FALSE(two.ok());
  EXPECT_NE(two.error().message.find("matches 2 runs"), std::string::npos) << two.error().message;
}

}  // namespace
}  // namespace kopt
