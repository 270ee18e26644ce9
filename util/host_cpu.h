// The identity of the CPU kopt runs on, for everything that must not outlive a change of CPU:
// binaries built with -march=native (the build cache) and the local model's llama-server.
#pragma once

#include <string>
#include <string_view>

namespace kopt {

/// "vendor|family|model|flags" of the first processor in `cpuinfo` (the text of /proc/cpuinfo),
/// as scripts/cpu-identity.sh prints it; empty when the text has none of these fields.
std::string cpu_identity_of(std::string_view cpuinfo);

/// cpu_identity_of(/proc/cpuinfo) for this machine, read once.
const std::string& host_cpu_identity();

}  // namespace kopt
