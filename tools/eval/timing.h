// The timing stage: one long-lived driver process per side (the sessions the check used), paired
// blocks of calls in alternating order (baseline then candidate, then candidate then baseline,
// ...), every call on inputs from a fresh seed that is never repeated, every call's outputs
// compared with the baseline's for the same seed, every block timed by kopt's clock. The decision
// comes from the pairs' log-ratios at a few planned looks (paired_test.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/benchmark/benchmark.h"
#include "tools/eval/check.h"
#include "tools/eval/paired_test.h"
#include "tools/eval/stats.h"
#include "util/json.h"

namespace kopt {

/// How hard to try.
struct TimingOptions {
  /// Wall time for the pairs; once spent, the next pair is the last look (at least 8 pairs,
  /// and at least enough for a look to be able to decide).
  double budget_seconds = 20;
  double target_half_width = 0.02;     ///< Stop at a look when the interval is within +-2%.
  LookPlan plan;                       ///< Looks at 16, 32, 64, 128 pairs; alpha 0.01 over all.
  double block_seconds = 0.02;         ///< The slower side's block of calls lasts about this.
  int max_copies = 16;                 ///< Most calls (problem copies) in one block.
  uint64_t copies_bytes = 1ull << 28;  ///< Output bytes all copies of one side may take.
  /// Work outside the timed calls: the candidate's untimed time per call may exceed the
  /// baseline's by this fraction of the baseline's timed plus untimed time per call.
  double untimed_tolerance = 0.2;
  /// Work after the clock stops: the candidate's store phase per call (the harness copying the
  /// outputs out, the first touch of outputs after the calls) may exceed the baseline's by this
  /// fraction of the candidate's own call time, plus store_floor_seconds; beyond that, the
  /// excess is added to the candidate's time in that pair, and a candidate past it in three
  /// pairs of four is turned away as deferring work.
  double store_tolerance = 0.2;
  double store_floor_seconds = 20e-6;
  /// Work on other threads outside the window: over the timed pairs, the candidate's process
  /// may use at most this fraction more CPU time outside its timed calls than the baseline's
  /// (the same harness work), plus the floor (clock ticks, an OpenMP pool's spinning).
  double cpu_tolerance = 0.2;
  double cpu_floor_seconds = 0.05;
  /// Work outside the window, pair by pair: the CPU time the candidate's process used from its
  /// previous block's end to this block's start (the harness filling the inputs, and anything
  /// else) beyond what the baseline's used in the same pair is added to the candidate's time in
  /// that pair, past this fraction of the candidate's own block time plus the floor
  /// (timing.cpp, outside_cpu_charges). Work moved out of the calls by any means (a hijacked
  /// fill, a thread working while the baseline is timed) then earns at most the allowance. The
  /// allowance is not zero because the kernel changes what the harness's next fill costs (the
  /// cache state it leaves): licm's human version made the fill cost 0.6-0.9 ms more CPU per
  /// pair than the original did, 10-15% of its 6 ms block, with no work of its own there.
  double outside_cpu_allowance = 0.2;
  double outside_cpu_floor_seconds = 0.2e-3;
  /// Whether those charges (and the store phase's, store_excess) are added to the candidate's
  /// time. With kopt-driver/4 no kernel code runs outside the window (each block runs in a child
  /// that closes its channels before the first call and is stopped after the last; DESIGN.md),
  /// so what remains outside is the harness's own work and its noise: the surplus is recorded,
  /// and a systematic one is still "deferred", but nothing is charged. Charging it cost honest
  /// candidates up to a third of their speedup (licm's human version: 3.6x where 5.1x was
  /// measured, from 8 ms outliers of the child's page preparation).
  bool charge_outside_work = false;
  /// Two processes of one binary differ by a few percent for the whole of their lives (where
  /// the loader, the allocator and the kernel placed their code and data): licm's original
  /// timed against its own copy came out from 0.968x to 1.034x [1.021, 1.047] (p = 4e-5) over
  /// 29 evaluations. Every pair of the two processes shares that offset, so no number of pairs
  /// removes it: a difference counts only when its interval clears this fraction (1.04 for a
  /// win, 1/1.04 for a loss).
  double process_floor = 0.04;
  /// Where both blocks of a pair ran their calls on one thread, each is timed without its
  /// main thread's waits for a CPU (the scheduler's account, read from outside): on a loaded
  /// machine another process's turns on the CPU made licm's pairs differ by +-35% (the standard
  /// deviation of their log-ratios with two busy processes beside them), none of it the
  /// kernel's. One threaded block (OpenMP, or a kernel that starts threads) and every pair keeps
  /// its wall time: a process's own threads' turns on the CPUs cannot be told from another
  /// process's, and a candidate must not choose the measure pair by pair.
  bool leave_out_waits = true;
  /// A kernel can make itself wait (pinned to a busy CPU, yielding it): its waits are then its
  /// own doing, and leaving them out would credit it with its time on the CPU alone (red team
  /// 30: 1.75x reported for a kernel 10% slower in wall time, pinned beside a busy process).
  /// Where the candidate's share of its runnable time spent waiting exceeds the baseline's by
  /// more than this by the Hodges-Lehmann estimate, significantly (signed-rank p < 0.01 over at least 8
  /// pairs), no pair leaves its waits out (waits_alike).
  double waits_share_tolerance = 0.05;
};

/// The result of the timing stage.
struct TimingOutcome {
  bool ok = false;       ///< False when a call failed, computed a wrong result or cheated.
  std::string category;  ///< "crash", "timeout", "unwritten", "wrong", "thread", "deferred", ...
  std::string reason;
  bool baseline_failed = false;  ///< The baseline failed: kopt cannot judge the candidate.
  Runs baseline;                 ///< Seconds per call, one run per block (its mean).
  Runs candidate;
  std::vector<double> log_ratios;  ///< log(baseline block / candidate block), per pair.
  Spread baseline_spread;
  Spread candidate_spread;
  SpeedupInterval interval;  ///< At ci_level.
  double ci_level = 0;       ///< The sessions: 1 - alpha per look; the file protocol: 0.95.
  double p_value = 1;
  std::string test = "Wilcoxon signed-rank on pair log-ratios";  ///< Where p_value comes from.
  bool significant = false;  ///< p < alpha per look and the interval clears the process floor.
  /// The process floor the interval had to clear (TimingOptions::process_floor).
  double process_floor = 0;
  /// p < alpha and the interval excludes 1, but not the process floor: a difference too small
  /// to tell from where two processes happened to be placed.
  bool within_floor = false;
  int rounds = 0;  ///< Pairs measured.
  int looks = 0;   ///< Looks taken.
  double alpha_per_look = 0;
  int baseline_reps = 0;  ///< Calls per block (both sides).
  int candidate_reps = 0;
  int warmup = 0;                ///< Warm-up pairs (checked, not counted).
  int captures_checked = 0;      ///< Timed calls whose outputs were compared: all of them.
  int decoys_checked = 0;        ///< Calls of the decoy blocks among the timed pairs (edge cases).
  double timed_seconds = 0;      ///< The kernel blocks of both sides, by kopt's clock.
  double untimed_seconds = 0;    ///< Filling and storing of both sides (parallel fills once).
  double baseline_untimed = 0;   ///< Median per call.
  double candidate_untimed = 0;  ///< Median per call.
  double baseline_cpu = -1;      ///< CPU seconds of each process over the timed pairs, read
  double candidate_cpu = -1;     ///< from /proc by kopt (-1: not seen).
  double baseline_cpu_outside = -1;  ///< The same less the CPU time of the timed calls.
  double candidate_cpu_outside = -1;
  int store_charged_pairs = 0;  ///< Pairs whose candidate time was charged its store excess.
  int cpu_charged_pairs = 0;    ///< Pairs whose candidate time was charged CPU outside the window.
  double charged_seconds = 0;   ///< All that was added to the candidate's block times.
  /// Per pair: the CPU seconds the candidate's process used outside its window beyond the
  /// baseline's (negative: less), and what its block was charged for that (outside_cpu_charges).
  std::vector<double> outside_cpu_surplus;
  std::vector<double> outside_cpu_charged;
  /// Per pair and call: the seconds left out of each side's block as its main thread's waits
  /// for a CPU (0 where the pair kept its wall time); `baseline` + these is the wall time.
  std::vector<double> baseline_waits, candidate_waits;
  int pairs_without_waits = 0;  ///< Pairs timed without their waits (both sides on one thread).
  bool waits_alike = true;      ///< waits_alike held over the pairs: waits could be left out.
  double baseline_store = 0;    ///< Median per call of the store phase ("done" to "stored").
  double candidate_store = 0;
  double seconds = 0;
};

Json to_json(const TimingOutcome& timing);

/// One timed pair: both sides fill side by side, then their blocks run one after the other.
struct Pair {
  BlockTiming baseline, candidate;
};

/// Whether block `b` ran its calls on its process's main thread alone: the process's CPU time
/// in the window (every thread's, those that ended included) is the main thread's, within the
/// clocks' error.
bool on_one_thread(const BlockTiming& b);

/// The seconds a pair leaves out of `b` (one of its blocks): the main thread's waits for a CPU
/// while another process had it, where TimingOptions::leave_out_waits and both blocks ran on
/// one thread (on_one_thread); else 0. Never more than the block's time off the CPU.
double waits_left_out(const Pair& pair, const BlockTiming& b, const TimingOptions& options);

/// Whether the candidate's main thread waited for a CPU like the baseline's over `pairs`: false
/// when its share of waiting is systematically larger (TimingOptions::waits_share_tolerance),
/// its own doing, and then every pair keeps its wall time.
bool waits_alike(const std::vector<Pair>& pairs, const TimingOptions& options);

/// What each pair's candidate block is charged, in seconds, for CPU time its process used
/// outside its window beyond the baseline's (TimingOptions::outside_cpu_allowance says when).
std::vector<double> outside_cpu_charges(const std::vector<Pair>& pairs,
                                        const TimingOptions& options);

/// Whether a look is due after out.rounds pairs and `elapsed` seconds of pairs: at a planned
/// look, or once the budget is spent and the pairs can decide.
bool look_due(const TimingOutcome& out, const TimingOptions& options, double elapsed);

/// Takes a look at out.log_ratios: the signed-rank test at alpha per look, the Hodges-Lehmann
/// speedup and interval, the process floor, the spreads of out.baseline and out.candidate.
/// True when the stage stops here (significant, tight, out of budget or at the last look).
bool take_look(TimingOutcome& out, const TimingOptions& options, double elapsed);

/// Times the candidate against the baseline session at the benchmark's time size; the first
/// call's seed is `seed`, the others come from the operating system, and none repeats (nor any
/// of `used`).
TimingOutcome time_candidate(const Benchmark& bench, CheckSides& sides, uint64_t seed,
                             const std::vector<uint64_t>& used, const TimingOptions& options,
                             int allowed_threads);

}  // namespace kopt
