// Folders kopt makes for its work, and what happens to them when a kopt is killed with -9.
#include "util/files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

namespace kopt {

namespace fs = std::filesystem;

TEST(FilesTest, UniqueFoldersAreNamedAfterTheirOwner) {
  TempDir parent("files-test-");
  auto a = make_unique_dir(parent.path(), "run-");
  auto b = make_unique_dir(parent.path(), "run-");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(*a, *b);
  EXPECT_EQ(a->filename().string().rfind("run-" + std::to_string(getpid()) + "-", 0), 0u)
      << a->filename();
}

TEST(FilesTest, OnlyFoldersOfProcessesThatAreGoneAreRemoved) {
  TempDir parent("files-test-");
  const fs::path mine = make_unique_dir(parent.path(), "run-").value();
  // No process has this id (Linux caps pids at 2^22).
  const fs::path orphan = parent.path() / "run-999999999-1234";
  const fs::path other_kind = parent.path() / "build-999999999-1234";
  const fs::path not_ours = parent.path() / "run-notes";
  for (const auto& dir : {orphan, other_kind, not_ours}) fs::create_directories(dir / "inside");
  ASSERT_TRUE(write_file(orphan / "inside" / "bench", "left by a killed run"));

  EXPECT_EQ(remove_orphaned_dirs(parent.path(), "run-"), 1);
  EXPECT_FALSE(fs::exists(orphan));
  EXPECT_TRUE(fs::exists(mine)) << "a live process's folder must stay";
  EXPECT_TRUE(fs::exists(other_kind)) << "only the given prefix is swept";
  EXPECT_TRUE(fs::exists(not_ours)) << "a name make_unique_dir did not make is left alone";
}

}  // namespace kopt
