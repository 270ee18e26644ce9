#include "tools/benchmark/expression.h"

#include <gtest/gtest.h>

namespace kopt {

TEST(ExpressionTest, EvaluatesPolynomialsOfN) {
  EXPECT_DOUBLE_EQ(*evaluate_expression("2*n^3", 10), 2000);
  EXPECT_DOUBLE_EQ(*evaluate_expression("8*n*n + 16*n", 4), 192);
  EXPECT_DOUBLE_EQ(*evaluate_expression("-(n - 1) / 2", 5), -2);
}

TEST(ExpressionTest, KnowsLog2AndSqrt) {
  EXPECT_DOUBLE_EQ(*evaluate_expression("n*log2(n)", 8), 24);
  EXPECT_DOUBLE_EQ(*evaluate_expression("sqrt(n)", 16), 4);
}

TEST(ExpressionTest, PowerIsRightAssociative) {
  EXPECT_DOUBLE_EQ(*evaluate_expression("2^3^2", 0), 512);
}

TEST(ExpressionTest, SyntaxErrorsNameThePosition) {
  auto bad = evaluate_expression("2*m", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("unknown name 'm'"), std::string::npos);
  EXPECT_FALSE(evaluate_expression("(n+1", 1).ok());
  EXPECT_FALSE(evaluate_expression("n n", 1).ok());
}

TEST(ExpressionTest, NamesSeveralSizes) {
  const Variables sizes = {{"n", 10}, {"ni", 10}, {"nj", 11}, {"tsteps", 4}};
  EXPECT_DOUBLE_EQ(*evaluate_expression("2*ni*nj + tsteps*(ni - 1)", sizes), 256);
  auto unknown = evaluate_expression("nk*2", sizes);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown name 'nk'"), std::string::npos);
  // The depth limit holds with named sizes as with n.
  EXPECT_FALSE(
      evaluate_expression(std::string(300, '(') + "ni" + std::string(300, ')'), sizes).ok());
}

}  // namespace kopt
