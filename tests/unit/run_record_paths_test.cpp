// A run folder from elsewhere (a colleague's, a download, a hostile one) never makes kopt read
// or write outside it: candidate ids from its events name folders inside candidates/ only, and
// candidate files are not written through links.
#include <gtest/gtest.h>

#include "agent/record/run_record.h"
#include "util/files.h"

namespace kopt {

namespace {

const Json kRunInfo = {{"benchmark", {{"name", "licm"}}}, {"config", {{"llm", "local"}}}};

CandidateFiles candidate(const std::string& id) {
  CandidateFiles c;
  c.id = id;
  c.parent = "original";
  c.file_name = "kernel.cpp";
  c.source = "void k() {}\n";
  c.meta = Json::object();
  return c;
}

}  // namespace

TEST(RunRecordPathsTest, CandidateIdsThatAreNotPlainNamesStayInsideCandidates) {
  const std::filesystem::path run = "/runs/r";
  EXPECT_EQ(candidate_folder(run, "0003"), run / "candidates" / "0003");
  for (const std::string id : {"../../x", "..", ".", "", "a/b", "/etc"}) {
    const auto folder = candidate_folder(run, id).lexically_normal();
    EXPECT_EQ(folder.parent_path(), run / "candidates") << id;
    EXPECT_FALSE(is_candidate_id(id)) << id;
  }
}

TEST(RunRecordPathsTest, CandidateFilesAreNeverWrittenThroughALink) {
  TempDir runs("kopt-run-paths-");
  TempDir elsewhere("kopt-run-paths-elsewhere-");
  auto record = RunRecord::create(runs.path(), "licm", kRunInfo);
  ASSERT_TRUE(record.ok()) << record.error().message;
  std::filesystem::create_directory_symlink(elsewhere.path(),
                                            record->dir() / "candidates" / "0001");
  const Status linked = record->write_candidate(candidate("0001"));
  ASSERT_FALSE(linked.ok());
  EXPECT_NE(linked.error().message.find("is a link"), std::string::npos) << linked.error().message;
  EXPECT_TRUE(std::filesystem::is_empty(elsewhere.path()));
  EXPECT_FALSE(record->write_candidate(candidate("../0002")).ok());
  // A linked file in a candidate's folder is refused too (its target keeps its content).
  ASSERT_TRUE(write_file(elsewhere.path() / "precious", "precious\n"));
  std::filesystem::create_directories(record->dir() / "candidates" / "0003");
  std::filesystem::create_symlink(elsewhere.path() / "precious",
                                  record->dir() / "candidates" / "0003" / "diff.patch");
  EXPECT_FALSE(record->write_candidate(candidate("0003")).ok());
  EXPECT_EQ(read_file(elsewhere.path() / "precious").value(), "precious\n");
  EXPECT_TRUE(record->write_candidate(candidate("0002")).ok());
  EXPECT_TRUE(std::filesystem::exists(record->dir() / "candidates" / "0002" / "kernel.cpp"));
}

}  // namespace kopt
