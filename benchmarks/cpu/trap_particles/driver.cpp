#include <algorithm>
#include <cmath>

#include "harness.h"
#include "kernel.h"

// Size n: n particles, advanced 50 steps.
class TrapParticles : public kopt_bench::Problem {
 public:
  explicit TrapParticles(long n)
      : n_(n), pos_(3 * n), vel_(3 * n), mass_(n), charge_(n), pos_out_(3 * n), vel_out_(3 * n) {
    output("pos", pos_out_);
    output("vel", vel_out_);
  }
  void fill(kopt_bench::Rng& rng) override {
    rng.fill(pos_, -1.0, 1.0);
    rng.fill(vel_, -0.5, 0.5);
    rng.fill(mass_, 1.0, 4.0);
    rng.fill(charge_, -2.0, 2.0);
    for (double& q : charge_)
      if (rng.next() % 4 == 0) q = 0.0;  // Uncharged particles among charged ones.
    dt_ = rng.uniform(0.005, 0.02);
    steps_ = 50;
    // kernel.h takes any trap strength and drag: a kernel that hard-codes the ones a driver
    // always passes would otherwise never be caught.
    stiffness_ = rng.uniform(0.5, 5.0);
    drag_ = rng.uniform(0.0, 0.3);
  }
  void refill(kopt_bench::Rng& rng) override {
    const double dt = dt_, stiffness = stiffness_, drag = drag_;
    const int steps = steps_;
    fill(rng);
    dt_ = dt, stiffness_ = stiffness, drag_ = drag, steps_ = steps;
  }
  // 0: no step at all (the inputs come back); 1: one step, all particles at one point, no
  // charge, no drag; 2: an odd number of steps (7) and a large time step; 3: 51 to 218 steps,
  // n % 8 more than a multiple of 8 (past the 50 of every other call; the sizes checked bring
  // up every remainder), a
  // stiffness from -5 to 20 (a repelling trap included) and a drag from 0 to 3.
  // 4: no drag with the usual charges and positions, and no trap at all (stiffness 0) at odd n,
  // over 2 to 49 steps (n % 8 past 2 plus a multiple of 8: the counts between 1, 7 and 50 that
  // no other input reached; red team 28: one step too few for 2..49 passed every seed).
  // 5: a step count drawn log-uniformly from 219 to 512 (past 255 and any other narrow
  // counter; the most allowed half the time), any remainder modulo 8 whatever n is, held to 2^21 /
  // n particle steps (at least 219). Not further: over thousands of steps two correct orderings of
  // the update drift apart by more than the tolerance of 1e-12 (the human version failed at 4096
  // steps), and 512 keeps room for orderings other than the human version's.
  int edge_cases() const override { return 6; }
  void fill_edge(kopt_bench::Rng& rng, int k) override {
    fill(rng);
    steps_ = k == 0 ? 0 : (k == 1 ? 1 : 7);
    if (k == 1) {
      std::fill(pos_.begin(), pos_.end(), rng.uniform(-1, 1));
      std::fill(charge_.begin(), charge_.end(), 0.0);
      drag_ = 0;
    }
    if (k == 2) dt_ = 0.2;
    if (k == 4) {
      drag_ = 0;
      if (n_ % 2) stiffness_ = 0;
      steps_ = static_cast<int>(2 + n_ % 8 + 8 * rng.integer(0, 5));
    }
    if (k == 5) {
      const double most = std::clamp((1L << 21) / static_cast<double>(n_), 220.0, 513.0);
      // Half the time the most (512, kernel.h's bound, up to n = 4096): a log-uniform draw
      // seldom lands on its end (red team 27: a step count kept in 9 bits, no steps at 512,
      // passed 8 of 9 seeds).
      steps_ = rng.next() % 2
                   ? std::min(512, static_cast<int>(most))
                   : static_cast<int>(std::exp(rng.uniform(std::log(219.0), std::log(most))));
    }
    if (k == 3) {
      steps_ = static_cast<int>(51 + 8 * rng.integer(0, 20) + n_ % 8);
      stiffness_ = rng.uniform(-5.0, 20.0);
      drag_ = rng.uniform(0.0, 3.0);
    }
    if (k == 3 || k == 5) bound_growth();
  }
  void call() override {
    trap_particles(pos_.data(), vel_.data(), mass_.data(), charge_.data(), n_, steps_, dt_,
                   stiffness_, drag_, pos_out_.data(), vel_out_.data());
  }

 private:
  // Particles the trap repels (charge and stiffness of opposite signs) move away at a rate up
  // to sqrt(2 |stiffness|) (|charge / mass| <= 2): the time step is held so that over the whole
  // run that growth stays below e^8 (the usual calls' stays below e^3.2). Past it a rounding of
  // the centroid grows with the outliers until two correct summation orders differ by more
  // than the tolerance (the human version: 7.8e-10 at one particle of 150000 at the time size
  // under edge case 3, evaluation seed 41).
  void bound_growth() {
    if (steps_ > 0 && stiffness_ != 0)
      dt_ = std::min(dt_, 8.0 / (steps_ * std::sqrt(2.0 * std::abs(stiffness_))));
  }

  long n_;
  kopt_bench::Array<double> pos_, vel_, mass_, charge_, pos_out_, vel_out_;
  double dt_ = 0, stiffness_ = 3, drag_ = 0.1;
  int steps_ = 50;
};

int main(int argc, char** argv) {
  return kopt_bench::main<TrapParticles>(argc, argv);
}
