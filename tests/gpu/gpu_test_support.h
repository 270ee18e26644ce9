// Shared by the GPU profiling tests: a small kernel compiled to a real cubin with nvcc (which
// needs no GPU), writing injection-library output folders, and the probes that decide which tests
// can run here.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sandbox/process.h"
#include "tools/eval/toolchain.h"
#include "tools/profile/gpu_format.h"
#include "util/files.h"
#include "util/json.h"

namespace kopt::test {

/// The test kernel; its lines are what attribution must find (line 5 holds the arithmetic).
inline constexpr const char* kKernelSource =
    "// kopt GPU attribution test kernel\n"
    "extern \"C\" __global__ void scale_add(int n, float a, const float* x, float* y) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) {\n"
    "    y[i] = a * x[i] + y[i];\n"
    "  }\n"
    "}\n";
inline constexpr const char* kKernelFunction = "scale_add";
inline constexpr uint32_t kArithmeticLine = 5;

/// nvcc from $KOPT_NVCC, the CUDA toolkit or the PATH; empty when there is none.
inline std::string find_nvcc() {
  std::vector<std::string> candidates;
  if (const char* chosen = std::getenv("KOPT_NVCC"); chosen && *chosen)
    candidates.push_back(chosen);
  candidates.push_back("/usr/local/cuda/bin/nvcc");
  for (const auto& path : candidates)
    if (access(path.c_str(), X_OK) == 0) return path;
  return {};
}

/// Compiles kKernelSource (after `prefix` lines) as `dir`/kernel.cu into `dir`/<name>.cubin
/// for sm_90.
inline Result<std::filesystem::path> build_test_cubin(const std::filesystem::path& dir,
                                                      const std::string& name, bool lineinfo,
                                                      const std::string& prefix = "") {
  const std::string nvcc = find_nvcc();
  if (nvcc.empty()) return fail("nvcc not found");
  if (auto st = write_file(dir / "kernel.cu", prefix + kKernelSource); !st) return st.error();
  ProcessSpec spec;
  spec.argv = {nvcc, "-cubin", "-arch=sm_90", "-O3", "-o", name + ".cubin", "kernel.cu"};
  if (lineinfo) spec.argv.insert(spec.argv.begin() + 1, "-lineinfo");
  spec.cwd = dir;
  spec.env = {{"PATH", "/usr/local/cuda/bin:/usr/bin:/bin"}, {"HOME", dir.string()}};
  spec.timeout = std::chrono::seconds(600);
  ProcessResult result = LocalProcessRunner().run(spec);
  if (!result.succeeded()) return fail("nvcc failed (" + result.describe() + "): " + result.output);
  return dir / (name + ".cubin");
}

/// Writes `lines` as a JSON-lines file.
inline void write_json_lines(const std::filesystem::path& path, const std::vector<Json>& lines) {
  std::string text;
  for (const auto& line : lines) text += dump_json(line) + "\n";
  ASSERT_TRUE(write_file(path, text));
}

/// Why a test that needs a GPU cannot run here, or empty when one is present.
inline std::string no_gpu_reason() {
  return gpu_present() ? "" : "no NVIDIA GPU on this machine (no /dev/nvidiactl or /dev/nvidia0)";
}

/// The recorded fixtures folder for one benchmark (tests/fixtures/cupti/<name>).
inline std::filesystem::path cupti_fixture(const std::string& name) {
  return std::filesystem::path(KOPT_TEST_FIXTURES) / "cupti" / name;
}

}  // namespace kopt::test
