#include "sandbox/sandbox.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "util/files.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

// System folders a compiler and a program need; the user's files stay invisible.
const char* const kSystemFolders[] = {"/usr",   "/bin", "/sbin", "/lib", "/lib64",
                                      "/lib32", "/etc", "/opt",  "/sys"};

// $KOPT_BWRAP names the bubblewrap binary (tests point it at nothing to see kopt refuse).
std::string find_bwrap() {
  if (const char* chosen = std::getenv("KOPT_BWRAP"); chosen && *chosen)
    return access(chosen, X_OK) == 0 ? chosen : "";
  return find_executable("bwrap", {"/usr/bin", "/usr/local/bin", "/bin"});
}

void add_bind(std::vector<std::string>& args, const char* kind, const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return;
  fs::path real = fs::canonical(path, ec);
  if (ec) return;
  args.insert(args.end(), {kind, real.string(), path.string()});
}

}  // namespace

ResourceLimits candidate_limits(uint64_t memory_bytes, uint64_t cpu_seconds) {
  ResourceLimits limits;
  limits.cpu_seconds = cpu_seconds;
  limits.file_size_bytes = 1ull << 30;
  limits.open_files = 256;
  limits.processes = 2048;
  limits.address_space_bytes = memory_bytes;
  return limits;
}

Status probe_sandbox() {
  const std::string bwrap = find_bwrap();
  if (bwrap.empty()) return fail("bubblewrap (bwrap) is not installed");
  ProcessSpec probe;
  probe.argv = {"/bin/true"};
  probe.timeout = std::chrono::seconds(20);
  probe.env = {{"PATH", "/usr/bin:/bin"}};
  SandboxPolicy policy;
  fs::path workspace = fs::temp_directory_path();
  ProcessResult result = LocalProcessRunner().run(confine(probe, workspace, policy));
  if (!result.succeeded())
    return fail("bubblewrap cannot create its namespaces here (" + result.describe() +
                "): " + result.output);
  return {};
}

ProcessSpec confine(const ProcessSpec& inner, const fs::path& workspace,
                    const SandboxPolicy& policy) {
  ProcessSpec spec = inner;
  spec.limits = policy.limits;
  spec.run_as_uid = policy.uid;
  if (spec.cwd.empty()) spec.cwd = workspace;
  if (!policy.enabled) return spec;

  std::vector<std::string> args = {find_bwrap(),
                                   "--unshare-all",
                                   "--die-with-parent",
                                   "--new-session",
                                   "--clearenv",
                                   "--cap-drop",
                                   "ALL"};
  for (const char* folder : kSystemFolders) add_bind(args, "--ro-bind", folder);
  // The private /tmp comes before the binds below, which may lie under /tmp and must stay visible.
  args.insert(args.end(), {"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"});
  for (const auto& folder : policy.read_only) add_bind(args, "--ro-bind", folder);
  for (const auto& device : policy.devices) add_bind(args, "--dev-bind", device);
  args.insert(args.end(),
              {"--bind", workspace.string(), workspace.string(), "--chdir", spec.cwd.string()});
  for (const auto& [key, value] : inner.env) args.insert(args.end(), {"--setenv", key, value});
  args.push_back("--");
  args.insert(args.end(), inner.argv.begin(), inner.argv.end());
  spec.argv = std::move(args);
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  return spec;
}

void share_workspace(const fs::path& workspace, const SandboxPolicy& policy) {
  if (geteuid() != 0 || policy.uid < 0) return;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(workspace, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (chown(it->path().c_str(), policy.uid, policy.uid) != 0) continue;
  }
  if (chown(workspace.c_str(), policy.uid, policy.uid) != 0) return;
}

std::string describe(const SandboxPolicy& policy) {
  return policy.enabled ? "bubblewrap" : "none (--no-sandbox)";
}

}  // namespace kopt
