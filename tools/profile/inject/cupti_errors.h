// Failed CUPTI calls as values: which call failed, with what result, and the reason kopt reports
// ("insufficient-privileges", "no-device", ...). The injection library never ends the program it
// profiles; it records the first failure in error.json and stops profiling.
#pragma once

#include <cupti.h>

#include <string>

namespace kopt::inject {

/// Why profiling could not happen, as kopt categorizes it.
struct CuptiFailure {
  std::string call;     ///< The CUPTI function that failed ("cuptiPCSamplingEnable").
  int code = 0;         ///< Its CUptiResult.
  std::string reason;   ///< "insufficient-privileges", "no-device", "not-supported", "cupti-error".
  std::string message;  ///< One line for a person: what happened and what to do.
};

/// The reason category of a CUPTI result.
std::string reason_of(CUptiResult result);

/// Describes a failed call in one line, with advice for the common causes.
CuptiFailure describe_failure(const std::string& call, CUptiResult result);

}  // namespace kopt::inject
