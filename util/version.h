// kopt's version and the commit it was built from (git describe, "-dirty" when the working tree
// had changes, "unknown" outside a git checkout); written into every run record and report.
#pragma once

namespace kopt {

extern const char* const kKoptVersion;
extern const char* const kKoptCommit;

}  // namespace kopt
