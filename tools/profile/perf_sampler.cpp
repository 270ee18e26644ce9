#include <chrono>

#include "tools/profile/perf_script.h"
#include "tools/profile/samplers.h"
#include "util/strings.h"

namespace kopt {

namespace {

std::string why(const std::string& what, const ProcessResult& result) {
  return what + " failed (" + result.describe() + "): " + trim(tail(result.output, 500));
}

std::string hex_lines(const std::vector<uint64_t>& addresses) {
  std::string text;
  char buffer[32];
  for (uint64_t a : addresses) {
    std::snprintf(buffer, sizeof buffer, "0x%llx\n", static_cast<unsigned long long>(a));
    text += buffer;
  }
  return text;
}

Result<LineTable> resolve_lines(const ProfileWorkspace& ws,
                                const std::vector<uint64_t>& addresses) {
  if (addresses.empty()) return LineTable{};
  ProcessResult r = ws.run({"addr2line", "-e", "bench", "-a", "-f", "-i", "-C"}, {},
                           std::chrono::seconds(300), hex_lines(addresses));
  if (!r.succeeded()) return fail(why("addr2line", r));
  return parse_addr2line(r.output);
}

}  // namespace

std::vector<std::string> perf_record_args(int frequency, const std::vector<std::string>& driver) {
  std::vector<std::string> args = {"perf",
                                   "record",
                                   "-q",
                                   "-N",
                                   "-e",
                                   "cpu-clock:u",
                                   "-F",
                                   std::to_string(frequency),
                                   "--call-graph",
                                   "dwarf,8192",
                                   "-o",
                                   "perf.data",
                                   "--"};
  args.insert(args.end(), driver.begin(), driver.end());
  return args;
}

Status perf_available(const ProfileWorkspace& ws) {
  ProcessResult r = ws.run(
      {"perf", "record", "-q", "-N", "-e", "cpu-clock:u", "-o", "probe.data", "--", "/bin/true"},
      {}, std::chrono::seconds(60));
  if (r.spawn_failed || r.exit_code == 127) return fail("perf is not installed (linux-perf)");
  if (!r.succeeded()) return fail(why("perf record", r));
  return {};
}

Result<CpuProfile> profile_with_perf(const ProfileWorkspace& ws, const SamplerRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  ProcessResult recorded =
      ws.run(perf_record_args(request.frequency, ProfileWorkspace::driver_args(request.call)), {},
             request.timeout);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!recorded.succeeded()) return fail(why("the profiled run", recorded));
  ProcessResult script = ws.run({"sh", "-c",
                                 "perf script -i perf.data -F tid,ip,sym,symoff,dso "
                                 "--max-stack 32 > script.txt"},
                                {}, request.timeout);
  if (!script.succeeded()) return fail(why("perf script", script));
  auto text = read_file(ws.path() / "script.txt");
  if (!text) return text.error();
  const auto samples = parse_perf_script(*text);
  if (samples.empty()) return fail("perf recorded no samples (the run was too short?)");
  auto table = resolve_lines(ws, lookup_addresses(samples, ws.binary()));
  if (!table) return table.error();
  ProfileBuilder builder;
  attribute_samples(samples, *table, ws.binary(), request.kernel_file, builder);
  CpuProfile profile;
  profile.profiler = "perf";
  profile.event = "cpu-clock";
  profile.unit = "samples";
  profile.frequency = request.frequency;
  profile.seconds = seconds;
  builder.finish(request.kernel_source, profile);
  return profile;
}

}  // namespace kopt
