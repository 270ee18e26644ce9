// The first error of a compiler log, whole: nvcc's and gcc/clang's formats.
#include <gtest/gtest.h>

#include "tools/roofline/source_compile.h"

namespace kopt {
namespace {

TEST(SourceCompileTest, FirstNvccErrorWithItsSourceLineAndCaret) {
  const std::string log =
      "main.cu(4): error: identifier \"undeclared_first\" is undefined\n"
      "    out[threadIdx.x] += undeclared_first;\n"
      "                        ^\n"
      "\n"
      "main.cu(5): error: identifier \"undeclared_second\" is undefined\n"
      "2 errors detected in the compilation of \"main.cu\".\n";
  const std::string first = first_compiler_error(log);
  EXPECT_NE(first.find("undeclared_first"), std::string::npos);
  EXPECT_NE(first.find('^'), std::string::npos);
  EXPECT_EQ(first.find("undeclared_second"), std::string::npos);
}

TEST(SourceCompileTest, FirstGccErrorKeepsItsIncludeChain) {
  const std::string log =
      "In file included from param.h:5,\n"
      "                 from prna.cu:9:\n"
      "real.h:34:2: error: #error Must define one of FLOAT, DOUBLE\n"
      "   34 | #error Must define one of FLOAT, DOUBLE\n"
      "prna.cu:20:1: error: later\n";
  const std::string first = first_compiler_error(log);
  EXPECT_EQ(first.rfind("In file included from param.h:5", 0), 0u) << first;
  EXPECT_NE(first.find("#error Must define"), std::string::npos);
  EXPECT_EQ(first.find("later"), std::string::npos);
}

TEST(SourceCompileTest, KnowsCudaFilesByExtension) {
  EXPECT_TRUE(is_cuda_file("a/b.cu"));
  EXPECT_TRUE(is_cuda_file("b.cuh"));
  EXPECT_FALSE(is_cuda_file("b.cpp"));
}

}  // namespace
}  // namespace kopt
