#include "tools/roofline/static_ptx.h"

#include "sandbox/sandbox.h"
#include "tools/eval/build.h"
#include "tools/roofline/ptx_cost.h"
#include "tools/roofline/source_compile.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

StaticCounts cost_ptx(const std::string& ptx, double default_trips,
                      std::vector<KernelCounters>* kernels) {
  StaticCounts out;
  PtxOptions options;
  options.default_trips = default_trips;
  for (const auto& e : cost_ptx_kernels(ptx, options)) {
    if (kernels) kernels->push_back(e.counters);
    out.counters.fp32_flops += e.counters.fp32_flops;
    out.counters.fp64_flops += e.counters.fp64_flops;
    out.counters.int_ops += e.counters.int_ops;
    out.counters.dram_bytes += e.counters.dram_bytes;
    out.executed_bytes += e.executed_bytes;
    out.special_calls += e.special_ops;
    for (const auto& loop : e.loops) {
      ++out.loops;
      out.unknown_trip_loops += !loop.known;
    }
    for (const auto& a : e.assumptions) out.notes.push_back(e.name + ": " + a);
  }
  out.counters.kernel = "ptx";
  return out;
}

Result<std::string> compile_benchmark_ptx(const ExecutionContext& ctx, const Benchmark& bench,
                                          const std::string& source) {
  TempDir ws("static-", ctx.work_root);
  if (auto st = stage_build_workspace(bench, ws.path(), source); !st) return st.error();
  share_workspace(ws.path(), ctx.policy);
  ProcessResult r = run_build_tool(ctx, ws.path(),
                                   {"/usr/local/cuda/bin/nvcc", "-ptx", "-O3", "-arch=compute_80",
                                    "-I.", "kernel.cu", "-o", "kernel.ptx"},
                                   300);
  if (r.spawn_failed || r.exit_code == 127)
    return fail("nvcc not found (install the CUDA toolkit)");
  if (!r.succeeded()) return fail("nvcc -ptx failed: " + first_compiler_error(r.output));
  return read_file(ws.path() / "kernel.ptx");
}

Result<StaticEstimate> estimate_ptx(const ExecutionContext& ctx, const Benchmark& bench,
                                    const std::string& source, long size) {
  auto ptx = compile_benchmark_ptx(ctx, bench, source);
  if (!ptx) return ptx.error();
  StaticEstimate estimate;
  estimate.toolchain = "nvcc -ptx -O3 (compute_80)";
  estimate.assumptions.size = static_cast<double>(size > 0 ? size : bench.time_size);
  estimate.counts = cost_ptx(*ptx, PtxOptions{}.default_trips, &estimate.kernels);
  return estimate;
}

}  // namespace kopt
