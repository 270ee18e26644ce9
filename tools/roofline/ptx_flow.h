// What the PTX cost model needs to know about the flow of one kernel's (inlined) body: its
// loops (a backward branch to a label) and their trip counts, read from the induction register
// (its start, step and bound) with the values of constants, the launch configuration and the
// kernel's arguments where known; and, for each register, which thread and block indices,
// loops and loaded data its value depends on (the reuse model reads addresses through it).
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tools/roofline/ptx_module.h"

namespace kopt {

/// A launch configuration: threads per block and blocks per grid, x, y, z (0 where unknown).
struct LaunchConfig {
  std::array<double, 3> block = {0, 0, 0};
  std::array<double, 3> grid = {0, 0, 0};
  bool given() const { return block[0] > 0 && grid[0] > 0; }
};

/// The index dimensions: bits 0-2 threadIdx.x/y/z, bits 3-5 blockIdx.x/y/z.
inline constexpr unsigned kThreadDims = 0x7, kBlockDims = 0x38;

/// What a register's value depends on.
struct Dependence {
  unsigned dims = 0;    ///< Index dimensions (kThreadDims, kBlockDims bits).
  bool data = false;    ///< A value loaded from memory (an indirect address).
  bool table = false;   ///< Derived from a module-scope array's address (a lookup table).
  std::set<int> loops;  ///< Loops (indices into PtxFlow::loops()) it changes in.
  bool operator==(const Dependence&) const = default;
};

/// A loop of the body with its trip count.
struct PtxLoop {
  size_t begin = 0, end = 0;  ///< Statement indices: the label and the last backward branch.
  double trips = 0;
  bool known = false;  ///< From the induction register; false: the default was assumed.
  std::string bound;   ///< How the count was found, or why it was not.
};

/// An induction register's start (where computable) and step in a loop.
struct PtxInduction {
  std::optional<double> start;
  double step = 0;         ///< Added each iteration, or the factor when geometric.
  bool geometric = false;  ///< s *= 2, s <<= 1, s >>= 1, s /= 2.
  double extra = 0;        ///< 1 when the exit test reads the next value (s + step).
};

/// The flow facts of one kernel body.
class PtxFlow {
 public:
  /// `args[k]` is the value of parameter k where given; the launch's unknown extents get the
  /// defaults of complete_launch().
  PtxFlow(const std::vector<PtxInstruction>& body, const std::vector<std::string>& params,
          const std::vector<std::optional<double>>& args, const LaunchConfig& launch,
          double default_trips);

  const std::vector<PtxLoop>& loops() const { return loops_; }
  /// The loops (indices) whose body holds statement `index`.
  std::vector<int> loops_around(size_t index) const;
  /// What a register depends on (nothing for an immediate or unknown name).
  Dependence dependence(const std::string& reg) const;
  /// The numeric value of an operand where it is loop-invariant and computable.
  std::optional<double> value(const std::string& operand, int depth = 0) const;
  /// The index dimensions any statement of the body reads.
  unsigned dims_used() const { return dims_used_; }
  /// The share of the launch's threads that runs statement `index` (1 unless a guard on a
  /// thread index, such as threadIdx.x == 0, restricts it, or a comparison that holds alike for
  /// the first and the last thread skips it; ptx_share.cpp).
  double share(size_t index) const;
  /// The launch with its defaults filled in.
  const LaunchConfig& launch() const { return launch_; }

 private:
  void find_loops();
  bool reaches(size_t from, size_t to, const std::map<std::string, size_t>& labels) const;
  void propagate();
  void count_trips(PtxLoop& loop, double default_trips);
  /// The shares of threads for which a predicate is true and false ({1, 1}: unknown).
  struct Odds {
    double if_true = 1, if_false = 1;
  };
  Odds odds(const std::string& pred, int depth = 0) const;
  std::optional<double> index_range(const std::string& reg, int depth = 0) const;
  bool settled(const std::string& reg, size_t at, int depth) const;
  bool settled_here(const std::vector<size_t>& defs, size_t at, int depth) const;
  Odds evaluated(const PtxInstruction& setp, const std::string& cmp) const;
  void find_shares();
  std::optional<double> evaluate(const PtxInstruction& def, int depth) const;
  std::optional<double> special(const std::string& name) const;
  std::optional<PtxInduction> induction(const std::string& reg, const PtxLoop& loop,
                                        int depth) const;
  std::optional<PtxInduction> offset_induction(size_t def, const PtxLoop& loop, int depth) const;
  bool updated_in(const std::string& reg, const PtxLoop& loop) const;
  bool polled(const std::string& reg, const PtxLoop& loop, int depth) const;
  bool rereads_memory(const PtxInstruction& load, const PtxLoop& loop) const;

  const std::vector<PtxInstruction>& body_;
  const std::vector<std::string>& params_;
  const std::vector<std::optional<double>>& args_;
  LaunchConfig launch_;
  std::vector<PtxLoop> loops_;
  std::map<std::string, std::vector<size_t>> defs_;  ///< Register -> defining statements.
  std::map<std::string, Dependence> deps_;
  std::vector<double> shares_;
  mutable std::map<std::pair<std::string, size_t>, bool> settled_;  ///< settled()'s answers.
  unsigned dims_used_ = 0;
  /// Which thread and block indices value() takes: the launch's mean ones, or its first or
  /// last (a comparison or a start that holds at both ends holds for every thread).
  enum class Corner { mean, first, last };
  mutable Corner corner_ = Corner::mean;
  /// `f()` evaluated at the first and the last thread; set where both agree.
  template <typename F>
  auto at_both_ends(F f) const -> decltype(f()) {
    corner_ = Corner::first;
    const auto first = f();
    corner_ = Corner::last;
    const auto last = f();
    corner_ = Corner::mean;
    return first == last ? first : decltype(f()){};
  }
  mutable int missing_param_ = -1;  ///< The last parameter a value needed and did not have.
  mutable bool estimated_ = false;  ///< A value used a remainder's mean (x & 3, x % 4).
};

/// An integer or floating-point literal operand ("32", "-1", "0x1f", "7U"), or nullopt.
std::optional<double> ptx_immediate(const std::string& operand);

/// A branch statement with its target; a statement after which the thread runs nothing more.
bool is_ptx_branch(const PtxInstruction& inst);
bool ends_ptx_flow(const PtxInstruction& inst);

/// The registers a statement defines (its destinations).
std::vector<std::string> defined_registers(const PtxInstruction& inst);

/// Launch defaults for the dimensions a kernel uses: 256 threads per block (16 x 16 when it
/// reads threadIdx.y), and 1024 blocks (32 x 32 when it reads blockIdx.y).
LaunchConfig complete_launch(LaunchConfig launch, unsigned dims_used);

}  // namespace kopt
