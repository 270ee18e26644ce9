// Sleeps forever: kopt must kill it within its timeout and leave no process behind.
// expect: timeout
#include <chrono>
#include <thread>

#include "kernel.h"

void standardize(const double*, const double*, const double*, double*, long, long, double, double) {
  while (true) std::this_thread::sleep_for(std::chrono::hours(1));
}
