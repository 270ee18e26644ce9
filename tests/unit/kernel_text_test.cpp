// What kopt new writes as original.cpp (tools/newbench/kernel_text.h): the file verbatim, or
// with --extract the file without its other functions and the kernel without `static`.
#include "tools/newbench/kernel_text.h"

#include <gtest/gtest.h>

#include "util/files.h"

namespace kopt {

namespace {

const char* kProgram = R"(#include <stdlib.h>
#include "twice.h"
#define TWICE(x) (2 * (x))

static void init(int n, double* x) {
  for (int i = 0; i < n; i++) x[i] = i;
}

/* The kernel. */
static void kernel_twice(int n, double* x) {
  for (int i = 0; i < n; i++) x[i] = TWICE(x[i]);
}

int main(void) {
  double* x = malloc(8 * sizeof(double));
  init(8, x);
  kernel_twice(8, x);
  return 0;
}
)";

// The file's text as kopt new writes it, and the headers of its own it includes.
struct Written {
  std::string text;
  std::vector<std::filesystem::path> headers;
};

Written write(bool extract) {
  TempDir dir("kernel-text-");
  EXPECT_TRUE(write_file(dir.path() / "twice.c", kProgram));
  EXPECT_TRUE(write_file(dir.path() / "twice.h", "typedef double real;\n"));
  LocalProcessRunner runner;
  SourceFile source;
  source.path = dir.path() / "twice.c";
  auto ast = read_function_ast(runner, source, "kernel_twice");
  EXPECT_TRUE(ast.ok()) << ast.error().message;
  EXPECT_TRUE(ast->is_static);
  auto text = kernel_file_text(runner, source, *ast, extract);
  EXPECT_TRUE(text.ok()) << text.error().message;
  auto headers = local_headers(runner, source);
  EXPECT_TRUE(headers.ok()) << headers.error().message;
  return {*text, *headers};
}

}  // namespace

TEST(KernelTextTest, WithoutExtractTheFileIsVerbatim) {
  EXPECT_EQ(write(false).text, kProgram);
}

TEST(KernelTextTest, ExtractKeepsIncludesMacrosAndTheKernelWithoutStatic) {
  const Written written = write(true);
  const std::string& text = written.text;
  EXPECT_NE(text.find("#include \"twice.h\""), std::string::npos) << text;
  EXPECT_NE(text.find("#define TWICE(x)"), std::string::npos) << text;
  EXPECT_NE(text.find("\nvoid kernel_twice(int n, double* x) {"), std::string::npos) << text;
  EXPECT_EQ(text.find("static"), std::string::npos) << text;
  EXPECT_EQ(text.find("init("), std::string::npos) << text;
  EXPECT_EQ(text.find("main("), std::string::npos) << text;
  ASSERT_EQ(written.headers.size(), 1u);  // stdlib.h is a system header.
  EXPECT_EQ(written.headers[0].filename(), "twice.h");
}

}  // namespace kopt
