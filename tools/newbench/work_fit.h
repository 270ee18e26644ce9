// The work per call a new benchmark's manifest proposes: kopt's static counts of the original
// (tools/roofline/static_cpu.h: clang IR, loop trip counts) at a few sizes, fitted with a
// polynomial of n of degree three or less; where no polynomial fits, a power law through the
// counts, marked as an estimate.
#pragma once

#include <string>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/context.h"

namespace kopt {

struct WorkProposal {
  std::string flops = "0";
  std::string bytes = "0";
  std::string source;  ///< How the expressions were found, for the manifest's work.source.
};

/// Proposes work.flops and work.bytes for the original `source` of `bench`; `arguments` gives
/// the driver's fixed values (counts). Never fails: without static counts it says so in source.
WorkProposal propose_work(const ExecutionContext& ctx, const Benchmark& bench,
                          const std::string& source, const Variables& arguments);

/// The polynomial a*n^3 + b*n^2 + c*n + d through the values at n = xs (four of them), written
/// as an expression, when it predicts `check` at `check_x` within 2%; empty otherwise.
std::string fit_polynomial(const double (&xs)[4], const double (&ys)[4], double check_x,
                           double check_y);

}  // namespace kopt
