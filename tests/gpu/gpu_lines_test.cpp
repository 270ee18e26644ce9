// Line attribution on a real cubin: nvcc compiles the test kernel with -lineinfo for sm_90 (no
// GPU needed) and both mappers must put its instructions on the kernel's own lines.
#include "tools/profile/gpu_lines.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "gpu_test_support.h"

namespace kopt {
namespace {

namespace fs = std::filesystem;

class CubinTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir("gpu-cubin-");
    auto with = test::build_test_cubin(dir_->path(), "with_lines", true);
    auto without = test::build_test_cubin(dir_->path(), "without_lines", false);
    if (with) with_lines_ = *with;
    if (without) without_lines_ = *without;
    if (!with) problem_ = with.error().message;
  }
  static void TearDownTestSuite() { delete dir_; }

  void SetUp() override {
    if (!problem_.empty()) GTEST_SKIP() << "cannot build a cubin here: " << problem_;
  }

  // Every instruction's line, scanning 16-byte SASS instructions until the mapper gives up.
  static std::map<uint64_t, uint32_t> lines_of(SassLineMapper& mapper, const fs::path& cubin) {
    std::map<uint64_t, uint32_t> lines;
    for (uint64_t pc = 0; pc < 0x2000; pc += 16) {
      auto where = mapper.locate(cubin, test::kKernelFunction, pc);
      if (!where) break;
      lines[pc] = where->line;
    }
    return lines;
  }

  static inline TempDir* dir_ = nullptr;
  static inline fs::path with_lines_, without_lines_;
  static inline std::string problem_;
};

TEST_F(CubinTest, CuptiPutsEveryInstructionOnALineOfTheKernel) {
  auto mapper = CuptiLineMapper::load();
  if (!mapper) GTEST_SKIP() << mapper.error().message;
  auto first = (*mapper)->locate(with_lines_, test::kKernelFunction, 0);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->file, "kernel.cu");
  EXPECT_EQ(first->dir, dir_->path().string());
  EXPECT_EQ(first->line, 2u);
  const auto lines = lines_of(**mapper, with_lines_);
  ASSERT_GE(lines.size(), 4u);
  std::set<uint32_t> seen;
  for (const auto& [pc, line] : lines) {
    EXPECT_GE(line, 2u) << "pc " << pc;
    EXPECT_LE(line, 7u) << "pc " << pc;
    seen.insert(line);
  }
  EXPECT_TRUE(seen.count(test::kArithmeticLine)) << "no instruction on the arithmetic line";
  EXPECT_TRUE(seen.count(3));
}

// CUPTI caches line tables by cubin CRC, and the CRC does not cover the line numbers: built in
// folders whose paths have the same length, the same code with its source shifted by a comment
// line gets the same CRC (true of CUPTI 13.0), yet each cubin must get its own lines.
TEST_F(CubinTest, CuptiGivesEachCubinItsOwnLinesEvenWithTheSameCode) {
  auto mapper = CuptiLineMapper::load();
  if (!mapper) GTEST_SKIP() << mapper.error().message;
  fs::create_directories(dir_->path() / "p");
  fs::create_directories(dir_->path() / "q");
  auto plain = test::build_test_cubin(dir_->path() / "p", "k", true);
  auto shifted = test::build_test_cubin(dir_->path() / "q", "k", true, "// one more line\n");
  ASSERT_TRUE(plain && shifted);
  for (int round = 0; round < 2; ++round) {
    auto original = (*mapper)->locate(*plain, test::kKernelFunction, 0);
    auto moved = (*mapper)->locate(*shifted, test::kKernelFunction, 0);
    ASSERT_TRUE(original && moved);
    EXPECT_EQ(original->line, 2u);
    EXPECT_EQ(moved->line, 3u);
    EXPECT_EQ(moved->dir, (dir_->path() / "q").string());
  }
}

TEST_F(CubinTest, ABatchAnswersEveryQueryInOrder) {
  auto mapper = CuptiLineMapper::load();
  if (!mapper) GTEST_SKIP() << mapper.error().message;
  const auto answers = (*mapper)->locate_all({{with_lines_, test::kKernelFunction, 0},
                                              {"/nonexistent.cubin", test::kKernelFunction, 0},
                                              {with_lines_, "no_such_kernel", 0},
                                              {with_lines_, test::kKernelFunction, 0x10}});
  ASSERT_EQ(answers.size(), 4u);
  EXPECT_TRUE(answers[0]);
  ASSERT_FALSE(answers[1]);
  EXPECT_NE(answers[1].error().message.find("cannot read"), std::string::npos);
  EXPECT_FALSE(answers[2]);
  ASSERT_TRUE(answers[3]);
  EXPECT_EQ(answers[3]->file, "kernel.cu");
}

TEST_F(CubinTest, CuptiRefusesAnUnknownFunction) {
  auto mapper = CuptiLineMapper::load();
  if (!mapper) GTEST_SKIP() << mapper.error().message;
  auto where = (*mapper)->locate(with_lines_, "no_such_kernel", 0);
  EXPECT_FALSE(where);
}

TEST_F(CubinTest, WithoutLineinfoThereIsNoLine) {
  auto mapper = CuptiLineMapper::load();
  if (!mapper) GTEST_SKIP() << mapper.error().message;
  ASSERT_FALSE(without_lines_.empty());
  auto where = (*mapper)->locate(without_lines_, test::kKernelFunction, 0x10);
  ASSERT_FALSE(where);
  EXPECT_NE(where.error().message.find("-lineinfo"), std::string::npos);
}

TEST_F(CubinTest, CubinCrcIsStableAndDependsOnTheBytes) {
  auto mapper = CuptiLineMapper::load();
  if (!mapper) GTEST_SKIP() << mapper.error().message;
  auto a = read_file(with_lines_), b = read_file(without_lines_);
  ASSERT_TRUE(a && b);
  auto crc_a = (*mapper)->cubin_crc(*a), again = (*mapper)->cubin_crc(*a);
  auto crc_b = (*mapper)->cubin_crc(*b);
  ASSERT_TRUE(crc_a && again && crc_b);
  EXPECT_EQ(*crc_a, *again);
  EXPECT_NE(*crc_a, *crc_b);
}

TEST_F(CubinTest, NvdisasmAgreesWithCuptiOnEveryInstruction) {
  const std::string nvdisasm = NvdisasmLineMapper::find();
  if (nvdisasm.empty()) GTEST_SKIP() << "nvdisasm not found (set KOPT_NVDISASM to compare mappers)";
  auto cupti = CuptiLineMapper::load();
  if (!cupti) GTEST_SKIP() << cupti.error().message;
  LocalProcessRunner runner;
  NvdisasmLineMapper disassembler(runner, nvdisasm);
  const auto from_cupti = lines_of(**cupti, with_lines_);
  ASSERT_FALSE(from_cupti.empty());
  for (const auto& [pc, line] : from_cupti) {
    auto where = disassembler.locate(with_lines_, test::kKernelFunction, pc);
    ASSERT_TRUE(where) << where.error().message;
    EXPECT_EQ(where->line, line) << "pc " << pc;
    EXPECT_EQ(where->file, "kernel.cu");
  }
}

// Lines of real `nvdisasm --print-line-info -c` output (nvdisasm 13.5 on sm_90 cubins built by
// nvcc 13.0), spliced together: the inl.cuh marker comes from a kernel calling an inlined function.
constexpr const char* kListing = R"(	.target	sm_90
//--------------------- .text.saxpy               --------------------------
	.section	.text.saxpy,"ax",@progbits
saxpy:
.text.saxpy:
	//## File "/tmp/gpuexp/k.cu", line 1
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "/tmp/gpuexp/k.cu", line 2
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0020*/                   S2UR UR4, SR_CTAID.X ;
	//## File "/tmp/gpuexp/inl.cuh", line 2
        /*0100*/                   FFMA R7, R2, UR6, R7 ;
.L_x_11:
	//## File "/tmp/gpuexp/k.cu", line 7
        /*0120*/                   EXIT ;
        /*0130*/                   BRA `(.L_x_8);
//--------------------- .text._Z4loopiPd          --------------------------
	.section	.text._Z4loopiPd,"ax",@progbits
	//## File "/tmp/gpuexp/k.cu", line 8
        /*0000*/                   LDC R1, c[0x0][0x28] ;
)";

TEST(NvdisasmListingTest, ParsesSectionsMarkersAndOffsets) {
  const auto table = parse_nvdisasm_lines(kListing);
  ASSERT_EQ(table.size(), 2u);
  const auto& saxpy = table.at("saxpy");
  ASSERT_EQ(saxpy.size(), 6u);
  EXPECT_EQ(saxpy[0].pc_offset, 0u);
  EXPECT_EQ(saxpy[0].location.line, 1u);
  EXPECT_EQ(saxpy[2].pc_offset, 0x20u);
  EXPECT_EQ(saxpy[2].location.line, 2u);
  EXPECT_EQ(saxpy[3].location.file, "inl.cuh");
  EXPECT_EQ(saxpy[3].location.line, 2u);
  EXPECT_EQ(saxpy[5].pc_offset, 0x130u);
  EXPECT_EQ(saxpy[5].location.line, 7u);
  EXPECT_EQ(saxpy[5].location.dir, "/tmp/gpuexp");
  EXPECT_EQ(table.at("_Z4loopiPd").at(0).location.line, 8u);
}

}  // namespace
}  // namespace kopt
