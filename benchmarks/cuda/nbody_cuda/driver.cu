#include "cuda_harness.cuh"
#include "kernel.h"

using namespace kopt_bench;

// Size n: n bodies uniform in the cube [-1, 1)^3 with masses in [0.5, 1.5) / n (total mass
// about 1, so accelerations stay of order one at every size), softening eps2 = 1e-3.
class Nbody : public cuda::Problem {
 public:
  explicit Nbody(long n)
      : n_(n),
        x_host_(n),
        y_host_(n),
        z_host_(n),
        m_host_(n),
        x_(n),
        y_(n),
        z_(n),
        m_(n),
        ax_(n),
        ay_(n),
        az_(n) {
    output("ax", ax_);
    output("ay", ay_);
    output("az", az_);
  }
  void fill(Rng& rng) override {
    rng.fill(x_host_, -1.0, 1.0);
    rng.fill(y_host_, -1.0, 1.0);
    rng.fill(z_host_, -1.0, 1.0);
    rng.fill(m_host_, 0.5 / n_, 1.5 / n_);
    x_.upload(x_host_);
    y_.upload(y_host_);
    z_.upload(z_host_);
    m_.upload(m_host_);
  }
  // 0: every body at one point; 1: pairs of bodies at the same point; 2: positions over
  // [-100, 100) with a third of the bodies massless.
  int edge_cases() const override { return 3; }
  void fill_edge(Rng& rng, int k) override {
    rng.fill(x_host_, -1.0, 1.0);
    rng.fill(y_host_, -1.0, 1.0);
    rng.fill(z_host_, -1.0, 1.0);
    rng.fill(m_host_, 0.5 / n_, 1.5 / n_);
    const float point = static_cast<float>(rng.uniform(-1, 1));
    for (long i = 0; i < n_; ++i)
      for (auto* v : {&x_host_, &y_host_, &z_host_}) {
        float& p = (*v)[i];
        if (k == 0) p = point;
        if (k == 1 && i % 2) p = (*v)[i - 1];
        if (k == 2) p *= 100;
      }
    if (k == 2)
      for (long i = 0; i < n_; i += 3) m_host_[i] = 0;
    x_.upload(x_host_);
    y_.upload(y_host_);
    z_.upload(z_host_);
    m_.upload(m_host_);
  }
  void call() override {
    nbody_accel(x_.data(), y_.data(), z_.data(), m_.data(), ax_.data(), ay_.data(), az_.data(), n_,
                1e-3f);
  }

 private:
  long n_;
  std::vector<float> x_host_, y_host_, z_host_, m_host_;
  cuda::DeviceBuffer<float> x_, y_, z_, m_, ax_, ay_, az_;
};

int main(int argc, char** argv) {
  return cuda::main<Nbody>(argc, argv);
}
