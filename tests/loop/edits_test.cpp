// Search/replace edits of a kernel file, as small models hand them in.
#include "agent/loop/edits.h"

#include <gtest/gtest.h>

namespace kopt {
namespace {

const std::string kKernel =
    "#include <cmath>\n"
    "\n"
    "void f(const double* x, double* y, long n, double d) {\n"
    "  for (long i = 0; i < n; ++i) {\n"
    "    double w = std::exp(-d);\n"
    "    y[i] = w * x[i];\n"
    "  }\n"
    "}\n";

TEST(EditsTest, AnExactBlockIsApplied) {
  const std::string reply =
      "Hoist the invariant:\n```\n<<<<<<< SEARCH\n  for (long i = 0; i < n; ++i) {\n"
      "    double w = std::exp(-d);\n=======\n  const double w = std::exp(-d);\n"
      "  for (long i = 0; i < n; ++i) {\n>>>>>>> REPLACE\n```\n";
  ASSERT_TRUE(has_edit_blocks(reply));
  auto edited = apply_edit_blocks(kKernel, reply);
  ASSERT_TRUE(edited.ok()) << edited.error().message;
  EXPECT_EQ(*edited,
            "#include <cmath>\n\nvoid f(const double* x, double* y, long n, double d) {\n"
            "  const double w = std::exp(-d);\n  for (long i = 0; i < n; ++i) {\n"
            "    y[i] = w * x[i];\n  }\n}\n");
}

TEST(EditsTest, IndentationAndCopiedLineNumbersAreForgiven) {
  const std::string reply =
      "<<<<<<< SEARCH\n   5|   double w = std::exp(-d);\n   6|     y[i] = w * x[i];\n=======\n"
      "   5|     y[i] = std::exp(-d) * x[i];\n>>>>>>> REPLACE\n";
  auto edited = apply_edit_blocks(kKernel, reply);
  ASSERT_TRUE(edited.ok()) << edited.error().message;
  EXPECT_NE(edited->find("    y[i] = std::exp(-d) * x[i];\n  }"), std::string::npos) << *edited;
  EXPECT_EQ(edited->find("double w"), std::string::npos);
}

TEST(EditsTest, BlocksApplyInOrder) {
  const std::string reply =
      "<<<<<<< SEARCH\n#include <cmath>\n=======\n#include <cmath>\n#include <vector>\n"
      ">>>>>>> REPLACE\nand\n<<<<<<< SEARCH\n    y[i] = w * x[i];\n=======\n"
      "    y[i] = x[i] * w;\n>>>>>>> REPLACE\n";
  auto edited = apply_edit_blocks(kKernel, reply);
  ASSERT_TRUE(edited.ok()) << edited.error().message;
  EXPECT_EQ(edited->rfind("#include <cmath>\n#include <vector>\n", 0), 0u);
  EXPECT_NE(edited->find("y[i] = x[i] * w;"), std::string::npos);
}

TEST(EditsTest, ASearchThatIsNotInTheFileIsAnErrorQuotingIt) {
  auto edited = apply_edit_blocks(
      kKernel, "<<<<<<< SEARCH\n  for (int i = 0; i < n; i++) {\n=======\nx\n>>>>>>> REPLACE\n");
  ASSERT_FALSE(edited.ok());
  EXPECT_NE(edited.error().message.find("'for (int i = 0; i < n; i++) {' is not in the current"),
            std::string::npos)
      << edited.error().message;
}

TEST(EditsTest, AnAmbiguousSearchIsAnError) {
  const std::string twice = kKernel + "// y[i] = w * x[i];\n    y[i] = w * x[i];\n";
  auto edited =
      apply_edit_blocks(twice, "<<<<<<< SEARCH\ny[i] = w * x[i];\n=======\nz\n>>>>>>> REPLACE\n");
  ASSERT_FALSE(edited.ok());
  EXPECT_NE(edited.error().message.find("several places"), std::string::npos);
}

TEST(EditsTest, ListingNumbersAreDroppedOnlyWhenEveryLineHasThem) {
  EXPECT_EQ(without_listing_numbers("   1| #include <cmath>\n   2| \n   3| int f();\n"),
            "#include <cmath>\n\nint f();\n");
  const std::string code = "int a[] = {\n  1| 2,\n};\n";
  EXPECT_EQ(without_listing_numbers(code), code);
}

TEST(EditsTest, AnUnfinishedBlockIsNoEdit) {
  EXPECT_FALSE(has_edit_blocks("<<<<<<< SEARCH\nfor\n=======\nwhile\n"));
  EXPECT_FALSE(has_edit_blocks("```cpp\nint main() {}\n```"));
  EXPECT_FALSE(apply_edit_blocks(kKernel, "no edits").ok());
}

}  // namespace
}  // namespace kopt
