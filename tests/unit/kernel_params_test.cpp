// kopt new's reading of a kernel (tools/newbench): clang's AST of a small function in, each
// parameter's kind, role, element type and length out, for pointer and array parameters.
#include "tools/newbench/kernel_params.h"

#include <gtest/gtest.h>

#include "util/files.h"

namespace kopt {

namespace {

// Classifies `function` of `source`, written to a file named `file` (.c: C, else C++).
Result<KernelSignature> classify(const std::string& source, const std::string& function,
                                 const std::string& file = "k.c", ParamOverrides overrides = {}) {
  TempDir dir("kernel-params-");
  EXPECT_TRUE(write_file(dir.path() / file, source));
  LocalProcessRunner runner;
  SourceFile kernel_file;
  kernel_file.path = dir.path() / file;
  auto ast = read_function_ast(runner, kernel_file, function);
  if (!ast) return ast.error();
  return classify_parameters(*ast, overrides);
}

const KernelParam& param(const KernelSignature& sig, const std::string& name) {
  for (const auto& p : sig.params)
    if (p.name == name) return p;
  throw std::runtime_error("no parameter " + name);
}

const char* kAtax = R"(
void atax(int m, int n, const double *restrict A, const double *restrict x, double *restrict y,
          double *restrict tmp) {
  for (int i = 0; i < n; i++) y[i] = 0.0;
  for (int i = 0; i < m; i++) {
    tmp[i] = 0.0;
    for (int j = 0; j < n; j++) tmp[i] = tmp[i] + A[i * n + j] * x[j];
    for (int j = 0; j < n; j++) y[j] = y[j] + A[i * n + j] * tmp[i];
  }
})";

}  // namespace

TEST(KernelParamsTest, PointerParametersAreInputsOutputsOrUpdatedInPlace) {
  auto sig = classify(kAtax, "atax");
  ASSERT_TRUE(sig.ok()) << sig.error().message;
  EXPECT_EQ(param(*sig, "A").role, Role::in);
  EXPECT_EQ(param(*sig, "A").extent, "(m - 1)*n + n");
  EXPECT_EQ(param(*sig, "x").role, Role::in);
  EXPECT_EQ(param(*sig, "y").role, Role::out);
  EXPECT_EQ(param(*sig, "tmp").role, Role::out);
  EXPECT_EQ(param(*sig, "tmp").extent, "m");
  EXPECT_EQ(param(*sig, "m").kind, ParamKind::size);
  ASSERT_EQ(sig->named_sizes.size(), 1u);  // n is the scale itself; m a named size.
  EXPECT_EQ(sig->named_sizes[0].name, "m");
  EXPECT_EQ(sig->named_sizes[0].expression, "n + 1");
}

TEST(KernelParamsTest, ArrayParametersTakeTheirInnerDimensionsFromTheType) {
  auto sig = classify(
      "void up(int n, int m, float alpha, float C[n][n], float A[n][m]) {\n"
      "  for (int i = 0; i < n; i++) for (int k = 0; k < m; k++)\n"
      "    for (int j = 0; j <= i; j++) C[i][j] += alpha * A[i][k] * A[j][k];\n}\n",
      "up");
  ASSERT_TRUE(sig.ok()) << sig.error().message;
  EXPECT_EQ(param(*sig, "C").role, Role::inout);
  EXPECT_EQ(param(*sig, "C").extent, "n*n");
  EXPECT_EQ(param(*sig, "C").element, "float");
  EXPECT_EQ(param(*sig, "A").extent, "n*m");
  EXPECT_EQ(param(*sig, "alpha").kind, ParamKind::scalar);
}

TEST(KernelParamsTest, ConstantDimensionsOfACxxKernelLimitTheSizes) {
  auto sig = classify(
      "#define N 64\nvoid scale(int n, double B[N][N], const double A[N][N]) {\n"
      "  for (int i = 0; i < n; ++i) for (int j = 0; j < n; ++j) B[i][j] = 2 * A[i][j];\n}\n",
      "scale", "k.cpp");
  ASSERT_TRUE(sig.ok()) << sig.error().message;
  EXPECT_EQ(sig->dialect, Dialect::cxx);
  EXPECT_EQ(param(*sig, "B").role, Role::inout);  // Columns n..63 are never written.
  EXPECT_EQ(param(*sig, "B").extent, "n*64");
  ASSERT_FALSE(sig->limits.empty());
  EXPECT_EQ(sig->limits[0].limit, 64);
}

TEST(KernelParamsTest, LoopOnlyIntegersAreCountsAndPartlyWrittenArraysAreInOut) {
  auto sig = classify(
      "void jacobi(int tsteps, int n, double A[n], double B[n]) {\n"
      "  for (int t = 0; t < tsteps; t++) {\n"
      "    for (int i = 1; i < n - 1; i++) B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3;\n"
      "    for (int i = 1; i < n - 1; i++) A[i] = (B[i - 1] + B[i] + B[i + 1]) / 3;\n  }\n}\n",
      "jacobi");
  ASSERT_TRUE(sig.ok()) << sig.error().message;
  EXPECT_EQ(param(*sig, "tsteps").kind, ParamKind::count);
  EXPECT_EQ(param(*sig, "n").kind, ParamKind::size);
  EXPECT_EQ(param(*sig, "A").role, Role::inout);
  EXPECT_EQ(param(*sig, "B").role, Role::inout);  // B[0] and B[n-1] keep their input.
  EXPECT_EQ(param(*sig, "A").extent, "n");
  EXPECT_TRUE(sig->named_sizes.empty());
}

TEST(KernelParamsTest, AnIndexKoptCannotBoundAsksForTheExtent) {
  const char* gather =
      "void gather(int n, const int* idx, const double* src, double* dst) {\n"
      "  for (int i = 0; i < n; i++) dst[i] = src[idx[i]];\n}\n";
  auto sig = classify(gather, "gather");
  ASSERT_FALSE(sig.ok());
  EXPECT_NE(sig.error().message.find("--extent src="), std::string::npos) << sig.error().message;
  ParamOverrides given;
  given.extents["src"] = "100";
  auto overridden = classify(gather, "gather", "k.c", given);
  ASSERT_TRUE(overridden.ok()) << overridden.error().message;
  EXPECT_EQ(param(*overridden, "src").extent, "100");
  EXPECT_EQ(param(*overridden, "idx").element, "int");
}

TEST(KernelParamsTest, TheUsersRoleWinsAndMustNameAnArray) {
  ParamOverrides roles;
  roles.roles["y"] = Role::inout;
  auto sig = classify(kAtax, "atax", "k.c", roles);
  ASSERT_TRUE(sig.ok()) << sig.error().message;
  EXPECT_EQ(param(*sig, "y").role, Role::inout);
  roles.roles["q"] = Role::in;
  auto bad = classify(kAtax, "atax", "k.c", roles);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("no array parameter 'q'"), std::string::npos);
}

TEST(KernelParamsTest, UnsupportedParametersAndMissingFunctionsAreNamed) {
  auto pointers = classify("void f(int n, double** rows) { rows[0][0] = n; }\n", "f");
  ASSERT_FALSE(pointers.ok());
  EXPECT_NE(pointers.error().message.find("pointer to pointers"), std::string::npos);
  auto missing = classify("void g(int n) { (void)n; }\n", "f");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("defines no function 'f'"), std::string::npos);
  auto broken = classify("void f(int n) { return n }\n", "f");
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().message.find("does not compile"), std::string::npos);
}

TEST(KernelParamsTest, ParameterValuesFollowTheNamedSizes) {
  auto sig = classify(kAtax, "atax");
  ASSERT_TRUE(sig.ok());
  auto values = parameter_values(*sig, 10);
  ASSERT_TRUE(values.ok());
  EXPECT_EQ(values->at("n"), 10);
  EXPECT_EQ(values->at("m"), 11);
}

TEST(KernelParamsTest, TypicalValuesKeepTheSizesProportionsAndFixTheCounts) {
  ParamOverrides overrides;
  overrides.values = {{"m", 400}, {"n", 300}};
  auto sig = classify(kAtax, "atax", "k.c", overrides);
  ASSERT_TRUE(sig.ok()) << sig.error().message;
  EXPECT_EQ(sig->typical_scale, 300);  // n is the scale: the time size is its value.
  ASSERT_EQ(sig->named_sizes.size(), 1u);
  EXPECT_EQ(sig->named_sizes[0].expression, "(4*n + 2)/3");
  EXPECT_EQ(parameter_values(*sig, 300)->at("m"), 400);
  EXPECT_EQ(parameter_values(*sig, 1)->at("m"), 2);  // ceil: a small scale never gives 0.

  auto sweeps = classify(
      "void sweep(int steps, int n, double* x) {\n"
      "  for (int t = 0; t < steps; t++) for (int i = 1; i < n; i++) x[i] += x[i - 1];\n}\n",
      "sweep", "k.c", ParamOverrides{{}, {}, {{"steps", 9}}});
  ASSERT_TRUE(sweeps.ok()) << sweeps.error().message;
  EXPECT_EQ(param(*sweeps, "steps").kind, ParamKind::count);
  EXPECT_EQ(param(*sweeps, "steps").value, 9);
  EXPECT_EQ(sweeps->typical_scale, 0);  // n has no value: the time size is searched.

  auto unknown = classify(kAtax, "atax", "k.c", ParamOverrides{{}, {}, {{"A", 3}}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("--value names no integer parameter 'A'"),
            std::string::npos);
}

TEST(KernelParamsTest, ATypedefElementIsReadAsTheTypeItNames) {
  auto sig = classify(
      "typedef char base;\ntypedef base letter;\n"
      "void count(int n, letter seq[n], int hits[1]) {\n"
      "  hits[0] = 0;\n  for (int i = 0; i < n; i++) hits[0] += seq[i] == 3;\n}\n",
      "count");
  ASSERT_TRUE(sig.ok()) << sig.error().message;
  EXPECT_EQ(param(*sig, "seq").element, "char");
  EXPECT_EQ(param(*sig, "seq").role, Role::in);
}

}  // namespace kopt
