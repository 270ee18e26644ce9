// The pieces of a whole-program benchmark that need no sandbox: its manifest fields, the bundle a
// candidate's editable files travel in, and the time a program prints.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tools/benchmark/program.h"
#include "tools/eval/program_run.h"

namespace kopt {

namespace {

Json manifest() {
  return Json::parse(R"({"editable": ["solver.cpp", "solver.h"],
                         "build": {"command": "make -j2", "timeout": 30},
                         "run": "./prog 100",
                         "check": {"pass_regex": "^PASS"},
                         "time": "wall"})");
}

std::string error_of(const Json& m) {
  ProgramSpec spec;
  const Status st = read_program_spec(m, spec);
  return st ? "" : st.error().message;
}

}  // namespace

TEST(ProgramSpecTest, ReadsCommandsAsTextOrObjects) {
  ProgramSpec spec;
  ASSERT_TRUE(read_program_spec(manifest(), spec));
  EXPECT_EQ(spec.build, "make -j2");
  EXPECT_EQ(spec.build_timeout, 30);
  EXPECT_EQ(spec.run, "./prog 100");
  EXPECT_EQ(spec.run_timeout, 60);
  EXPECT_TRUE(spec.region_regex.empty());
}

TEST(ProgramSpecTest, NamesTheFieldThatIsWrong) {
  Json m = manifest();
  m["editable"] = {"../escape.cpp"};
  EXPECT_NE(error_of(m).find("'editable'"), std::string::npos);
  m = manifest();
  m["run"] = {{"command", "./prog"}, {"timeout", 0}};
  EXPECT_NE(error_of(m).find("'run.timeout'"), std::string::npos);
  m = manifest();
  m["check"] = {{"pass", "x"}};
  EXPECT_NE(error_of(m).find("'check.pass' is unknown"), std::string::npos);
  m = manifest();
  m["time"] = {{"region_regex", "time: [0-9.]+"}};
  EXPECT_NE(error_of(m).find("needs a group"), std::string::npos);
}

TEST(ProgramBundleTest, RoundTripsSeveralFiles) {
  const std::string text =
      make_bundle({{"solver.cpp", "int f();\n"}, {"solver.h", "#pragma once"}});
  auto files = parse_bundle(text, {"solver.cpp", "solver.h"});
  ASSERT_TRUE(files) << files.error().message;
  EXPECT_EQ(files->at("solver.cpp"), "int f();\n");
  EXPECT_EQ(files->at("solver.h"), "#pragma once\n");
}

TEST(ProgramBundleTest, AFileLeftOutStaysAsItIs) {
  auto files = parse_bundle("//// file: solver.h\n#pragma once\n", {"solver.cpp", "solver.h"});
  ASSERT_TRUE(files);
  EXPECT_EQ(files->count("solver.cpp"), 0u);
}

TEST(ProgramBundleTest, WithoutMarkersTheTextIsTheOnlyEditableFile) {
  auto files = parse_bundle("int f();\n", {"solver.cpp"});
  ASSERT_TRUE(files);
  EXPECT_EQ(files->at("solver.cpp"), "int f();\n");
  EXPECT_FALSE(parse_bundle("int f();\n", {"a.cpp", "b.cpp"}));
}

TEST(ProgramBundleTest, RefusesFixedFilesAndRepeats) {
  auto fixed = parse_bundle("//// file: main.cpp\nint main() {}\n", {"solver.cpp"});
  ASSERT_FALSE(fixed);
  EXPECT_NE(fixed.error().message.find("'main.cpp' is not an editable file"), std::string::npos);
  EXPECT_FALSE(parse_bundle("//// file: solver.cpp\n//// file: solver.cpp\n", {"solver.cpp"}));
}

TEST(PrintedSecondsTest, ReadsTheNumberAndItsUnit) {
  const std::string regex = "time: ([0-9.e+-]+) ?(s|ms|us|ns)";
  EXPECT_DOUBLE_EQ(printed_seconds(regex, "x\ntime: 12.5 ms\n").value(), 12.5e-3);
  EXPECT_DOUBLE_EQ(printed_seconds(regex, "time: 3us").value(), 3e-6);
  EXPECT_DOUBLE_EQ(printed_seconds("took ([0-9.]+)", "took 2").value(), 2.0);
  EXPECT_FALSE(printed_seconds(regex, "no time here"));
}

}  // namespace kopt
