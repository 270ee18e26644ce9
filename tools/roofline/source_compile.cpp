#include "tools/roofline/source_compile.h"

#include <sstream>

#include "sandbox/sandbox.h"
#include "tools/eval/build.h"
#include "tools/roofline/static_cpu.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

constexpr int kCompileSeconds = 300;
constexpr size_t kOptOutputCap = 64 << 20;

bool is_error_line(const std::string& line) {
  return line.find(": error") != std::string::npos ||
         line.find(": fatal error") != std::string::npos || line.find("error: ") == 0 ||
         line.find(": catastrophic error") != std::string::npos;
}

// A line that starts another diagnostic (so the current one has ended).
bool starts_diagnostic(const std::string& line) {
  return is_error_line(line) || line.find(": warning") != std::string::npos ||
         line.find(": note:") != std::string::npos || starts_with(line, "In file included") ||
         line.find("errors detected") != std::string::npos;
}

// The sandbox sees the file's folder, its parent (sibling headers: "../common/x.h") and the
// include folders, read-only; the compiler's own folder and the system are already there.
ExecutionContext with_source_access(const ExecutionContext& ctx, const SourceFile& file) {
  ExecutionContext out = ctx;
  const fs::path work =
      fs::weakly_canonical(ctx.work_root.empty() ? fs::temp_directory_path() : ctx.work_root);
  // A folder that holds the workspaces (or the temporary folder the compiler writes to) stays
  // as the sandbox has it: mounting it read-only would hide them.
  auto add = [&](const fs::path& dir) {
    const fs::path d = fs::weakly_canonical(fs::absolute(dir));
    const auto rel = work.lexically_relative(d);
    const bool holds_work = !rel.empty() && *rel.begin() != "..";
    if (d != d.root_path() && d != fs::temp_directory_path() && !holds_work)
      out.policy.read_only.push_back(d);
  };
  const fs::path folder = fs::absolute(file.path).parent_path();
  add(folder);
  if (folder.has_parent_path()) add(folder.parent_path());
  for (const auto& dir : file.include_dirs) add(dir);
  return out;
}

void add_user_options(const SourceFile& file, std::vector<std::string>& argv) {
  for (auto& option : include_and_define_options(file)) argv.push_back(std::move(option));
  for (const auto& f : file.flags) argv.push_back(f);
}

Status check_readable(const SourceFile& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file.path, ec)) return fail("no such file: " + file.path.string());
  return {};
}

}  // namespace

bool is_cuda_file(const fs::path& path) {
  return path.extension() == ".cu" || path.extension() == ".cuh";
}

std::string first_compiler_error(const std::string& log) {
  std::istringstream in(log);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!is_error_line(lines[i])) continue;
    size_t first = i;
    while (first > 0 && (starts_with(lines[first - 1], "In file included") ||
                         starts_with(trim(lines[first - 1]), "from ")))
      --first;
    std::string text;
    for (size_t j = first; j < lines.size() && (j <= i || !starts_diagnostic(lines[j])); ++j) {
      if (j > i && trim(lines[j]).empty()) break;
      text += (text.empty() ? "" : "\n") + lines[j];
    }
    return text;
  }
  return lines.empty() ? std::string("no output") : trim(lines.front());
}

Result<std::string> compile_ptx(const ExecutionContext& ctx, const SourceFile& file) {
  if (auto st = check_readable(file); !st) return st.error();
  TempDir ws("roofline-", ctx.work_root);
  share_workspace(ws.path(), ctx.policy);
  std::vector<std::string> argv = {"/usr/local/cuda/bin/nvcc", "-ptx", "-O3",
                                   "-arch=" + file.gpu_arch};
  add_user_options(file, argv);
  argv.push_back(fs::absolute(file.path).string());
  argv.push_back("-o");
  argv.push_back((ws.path() / "kernel.ptx").string());
  ProcessResult r = run_build_tool(with_source_access(ctx, file), ws.path(), argv, kCompileSeconds);
  if (r.spawn_failed || r.exit_code == 127)
    return fail("nvcc not found (install the CUDA toolkit)");
  if (!r.succeeded())
    return fail("nvcc cannot compile " + file.path.string() + ":\n" +
                first_compiler_error(r.output));
  return read_file(ws.path() / "kernel.ptx");
}

Result<IrOutput> compile_ir(const ExecutionContext& ctx, const SourceFile& file, bool native) {
  if (auto st = check_readable(file); !st) return st.error();
  TempDir ws("roofline-", ctx.work_root);
  if (auto st = write_file(ws.path() / "omp.h", serial_omp_header()); !st) return st.error();
  share_workspace(ws.path(), ctx.policy);
  const ExecutionContext sandboxed = with_source_access(ctx, file);
  std::vector<std::string> argv = native ? native_ir_flags(file.flags) : analysis_ir_flags();
  argv.push_back("-I" + ws.path().string());
  add_user_options(file, argv);
  // OpenMP stays SIMD hints over the serial stand-in <omp.h>: with -fopenmp the parallel
  // regions would move into runtime-called functions whose work is not counted.
  std::erase_if(
      argv, [](const std::string& a) { return a == "-fopenmp" || starts_with(a, "-fopenmp="); });
  for (const auto& a :
       {fs::absolute(file.path).string(), std::string("-o"), (ws.path() / "kernel.ll").string()})
    argv.push_back(a);
  ProcessResult ir = run_build_tool(sandboxed, ws.path(), argv, kCompileSeconds);
  if (ir.spawn_failed || ir.exit_code == 127)
    return fail("clang++ not found (install clang and llvm)");
  if (!ir.succeeded())
    return fail("clang++ cannot compile " + file.path.string() + ":\n" +
                first_compiler_error(ir.output));
  ProcessResult scev = run_build_tool(
      sandboxed, ws.path(),
      {"opt", "-passes=print<loops>,print<scalar-evolution>", "-disable-output", "kernel.ll"},
      kCompileSeconds, kOptOutputCap);
  if (!scev.succeeded()) return fail("opt failed: " + first_compiler_error(scev.output));
  auto text = read_file(ws.path() / "kernel.ll");
  if (!text) return text.error();
  return IrOutput{*text, scev.output};
}

}  // namespace kopt
