// Forks until the machine runs out of processes.
// expect: process
#include <unistd.h>

#include "kernel.h"

void standardize(const double*, const double*, const double*, double*, long, long, double, double) {
  while (true) fork();
}
