#include "harness.h"
#include "kernel.h"

// Size n: n embeddings of dimension 100 with entries in [-1, 1).
class CosineSimilarity : public kopt_bench::Problem {
 public:
  static constexpr int kDim = 100;
  explicit CosineSimilarity(long n) : n_(n), emb_(n * kDim), sim_(n * n) { output("sim", sim_); }
  void fill(kopt_bench::Rng& rng) override { rng.fill(emb_, -1.0, 1.0); }
  void call() override { cosine_similarity(emb_.data(), n_, kDim, sim_.data()); }

 private:
  long n_;
  std::vector<double> emb_, sim_;
};

int main(int argc, char** argv) {
  return kopt_bench::main<CosineSimilarity>(argc, argv);
}
