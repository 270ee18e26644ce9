#include "util/entropy.h"

#include <sys/random.h>

#include <cerrno>
#include <stdexcept>

namespace kopt {

uint64_t unpredictable_u64() {
  uint64_t value = 0;
  auto* bytes = reinterpret_cast<unsigned char*>(&value);
  size_t got = 0;
  while (got < sizeof value) {
    const ssize_t n = getrandom(bytes + got, sizeof value - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("getrandom failed: the system has no random source");
    got += static_cast<size_t>(n);
  }
  return value;
}

}  // namespace kopt
