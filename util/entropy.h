// Numbers a candidate cannot predict: each comes from the operating system's generator, so no
// number seen (a check seed, a nonce) tells anything about the next.
#pragma once

#include <cstdint>

namespace kopt {

/// 64 bits from getrandom(2); a system without it is a fatal setup problem (throws).
uint64_t unpredictable_u64();

}  // namespace kopt
