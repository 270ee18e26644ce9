#include "tools/eval/toolchain.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "util/files.h"
#include "util/hash.h"
#include "util/host_cpu.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? value : fallback;
}

std::string which(const std::string& program, const std::vector<std::string>& extra_dirs = {}) {
  if (program.find('/') != std::string::npos)
    return access(program.c_str(), X_OK) == 0 ? program : "";
  std::vector<std::string> dirs = split(env_or("PATH", "/usr/bin:/bin"), ':');
  dirs.insert(dirs.end(), extra_dirs.begin(), extra_dirs.end());
  return find_executable(program, dirs);
}

std::string first_line(const std::string& text) {
  return trim(text.substr(0, text.find('\n')));
}

std::string version_of(const std::string& compiler, ProcessRunner& runner) {
  ProcessSpec spec;
  spec.argv = {compiler, "--version"};
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  spec.timeout = std::chrono::seconds(30);
  ProcessResult result = runner.run(spec);
  if (!result.succeeded()) return {};
  if (compiler.find("nvcc") != std::string::npos) {
    auto pos = result.output.find("Build ");
    if (pos != std::string::npos) return first_line(result.output.substr(pos));
  }
  return first_line(result.output);
}

std::vector<std::string> cuda_arch_flags(const std::string& archs) {
  std::vector<std::string> flags;
  for (const auto& arch : split(archs, ',')) {
    std::string number = trim(arch);
    if (starts_with(number, "sm_")) number = number.substr(3);
    if (number.empty()) continue;
    flags.push_back("-gencode=arch=compute_" + number + ",code=sm_" + number);
  }
  return flags;
}

}  // namespace

bool gpu_present() {
  return fs::exists("/dev/nvidiactl") || fs::exists("/dev/nvidia0");
}

std::string detect_cuda_arch(ProcessRunner& runner) {
  if (!gpu_present()) return {};
  std::string smi = which("nvidia-smi");
  if (smi.empty()) return {};
  ProcessSpec spec;
  spec.argv = {smi, "--query-gpu=compute_cap", "--format=csv,noheader"};
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  spec.timeout = std::chrono::seconds(30);
  ProcessResult result = runner.run(spec);
  std::string cap = first_line(result.output);
  if (!result.succeeded() || cap.find('.') == std::string::npos) return {};
  return "sm_" + cap.substr(0, cap.find('.')) + cap.substr(cap.find('.') + 1);
}

Result<Toolchain> find_toolchain(Language language, ProcessRunner& runner) {
  Toolchain tc;
  tc.language = language;
  if (language == Language::cuda) {
    tc.compiler = which(env_or("KOPT_NVCC", "nvcc"), {"/usr/local/cuda/bin"});
    if (tc.compiler.empty())
      return fail("nvcc not found (install the CUDA toolkit or set KOPT_NVCC)");
    std::string archs = env_or("KOPT_CUDA_ARCH", detect_cuda_arch(runner));
    if (archs.empty()) archs = "sm_80,sm_90";
    tc.arch_flags = cuda_arch_flags(archs);
    tc.fingerprint = version_of(tc.compiler, runner) + " | " + archs;
  } else {
    tc.compiler = which(env_or("KOPT_CXX", "g++"));
    if (tc.compiler.empty()) return fail("g++ not found (run scripts/setup.sh or set KOPT_CXX)");
    tc.fingerprint = version_of(tc.compiler, runner) + " | " + host_cpu_model();
  }
  // -march=native code runs only on this CPU: the identity (every flag, not the model name,
  // which a VM may report as a bare "AMD EPYC" for several generations) is part of every key.
  tc.fingerprint += " | cpu " + hash_hex(host_cpu_identity()).substr(0, 12);
  if (tc.fingerprint.size() < 5) return fail("cannot run " + tc.compiler + " --version");
  return tc;
}

std::vector<std::string> Toolchain::compile(const Benchmark& bench, const std::string& source,
                                            const std::string& object, bool is_kernel) const {
  std::vector<std::string> args = {compiler};
  args.insert(args.end(), bench.flags.begin(), bench.flags.end());
  if (language == Language::cuda) {
    args.insert(args.end(), arch_flags.begin(), arch_flags.end());
    args.insert(args.end(), {"-lineinfo", "-Xcompiler", "-g"});
    if (is_kernel) args.insert(args.end(), {"-Xptxas", "-v"});
  } else {
    args.push_back("-g");
    // fmt, not std::string's operator+: GCC 12 at -O3 reports a false -Wstringop-overread there.
    if (is_kernel) args.push_back(fmt::format("-fopt-info-vec-all={}", kRemarksFile));
  }
  args.insert(args.end(), {"-I.", "-c"});
  // A C kernel (manifest "dialect": "c") is compiled as C by the same driver; its C++-only
  // flags are left out. Everything else (the driver, the link) stays C++.
  if (is_kernel && bench.dialect == Dialect::c) {
    std::erase_if(args, [](const std::string& flag) { return flag.rfind("-std=c++", 0) == 0; });
    args.insert(args.end(), {"-x", "c"});
  }
  args.insert(args.end(), {source, "-o", object});
  return args;
}

std::vector<std::string> Toolchain::link(const Benchmark& bench,
                                         const std::vector<std::string>& objects,
                                         const std::string& binary) const {
  std::vector<std::string> args = {compiler};
  args.insert(args.end(), bench.flags.begin(), bench.flags.end());
  if (language == Language::cuda)
    args.insert(args.end(), arch_flags.begin(), arch_flags.end());
  else  // Full RELRO: the relocation table is read-only before the kernel first runs (and the
        // system call filter keeps it so; benchmarks/common/seccomp_filter.h). Two short flags:
        // GCC 12 at -O3 misreads a string past 15 characters as an overread (-Wstringop-overread).
    args.insert(args.end(), {"-Wl,-z,relro", "-Wl,-z,now"});
  args.insert(args.end(), objects.begin(), objects.end());
  args.insert(args.end(), {"-o", binary});
  return args;
}

}  // namespace kopt
