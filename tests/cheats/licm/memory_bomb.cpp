// Allocates without end.
// expect: oom
#include <cstddef>
#include <vector>

#include "kernel.h"

void standardize(const double*, const double*, const double*, double* y, long, long, double,
                 double) {
  std::vector<char*> hoard;
  while (true) hoard.push_back(new char[size_t{1} << 28]);
  y[0] = static_cast<double>(hoard.size());
}
