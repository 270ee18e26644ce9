#include "tools/profile/callgrind.h"

#include <sstream>

#include "tools/profile/samplers.h"
#include "util/strings.h"

namespace kopt {

namespace {

struct CallgrindState {
  std::string object, function_file, file, function;
  std::string callee_object, callee_file, callee;
  bool call_pending = false;
};

// Applies a "key=value" line; returns false when the line is not one.
bool apply_name(const std::string& line, CallgrindState& s) {
  const auto eq = line.find('=');
  if (eq == std::string::npos || eq > 5) return false;
  const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
  if (key == "ob")
    s.object = value;
  else if (key == "fl")
    s.function_file = s.file = value;
  else if (key == "fi" || key == "fe")
    s.file = value;
  else if (key == "fn")
    s.function = value, s.file = s.function_file;
  else if (key == "cob")
    s.callee_object = value;
  else if (key == "cfi" || key == "cfl")
    s.callee_file = value;
  else if (key == "cfn")
    s.callee = value;
  else if (key == "calls")
    s.call_pending = true;
  else
    return key == "jump" || key == "jcnd";
  return true;
}

void add_cost(int line, uint64_t cost, CallgrindState& s, const std::string& binary,
              const std::string& kernel_file, ProfileBuilder& builder) {
  const bool in_kernel_file = file_name_of(s.file) == kernel_file;
  const bool in_kernel_function = file_name_of(s.function_file) == kernel_file;
  if (s.call_pending) {
    const std::string object = s.callee_object.empty() ? s.object : s.callee_object;
    // The OpenMP runtime calls back into the kernel's outlined functions, whose costs are
    // already on their own lines: its inclusive cost would count them twice.
    const bool runtime = place_of_object(object, false) == where::kOpenMp;
    if (in_kernel_file && !runtime && file_name_of(s.callee_file) != kernel_file)
      builder.add_callee(line, s.callee + " (" + file_name_of(object) + ")", cost);
    s.call_pending = false;
    s.callee_object.clear();
    s.callee_file.clear();
    return;
  }
  if (in_kernel_file || in_kernel_function) {
    if (in_kernel_file) builder.add_self(line, cost);
    builder.add_place(where::kKernel, cost);
    builder.add_function(s.function, "kernel", cost);
    return;
  }
  builder.add_place(place_of_object(s.object, s.object == binary), cost);
  builder.add_function(s.function, file_name_of(s.object), cost);
}

}  // namespace

void attribute_callgrind(const std::string& text, const std::string& binary,
                         const std::string& kernel_file, ProfileBuilder& builder) {
  std::istringstream in(text);
  std::string line;
  CallgrindState state;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || apply_name(line, state)) continue;
    if (!std::isdigit(static_cast<unsigned char>(line[0]))) continue;
    std::istringstream fields(line);
    long position = 0;
    uint64_t cost = 0;
    if (fields >> position >> cost)
      add_cost(static_cast<int>(position), cost, state, binary, kernel_file, builder);
  }
}

Result<CpuProfile> profile_with_callgrind(const ProfileWorkspace& ws,
                                          const SamplerRequest& request) {
  std::vector<std::string> args = {
      "valgrind",        "--tool=callgrind",      "--callgrind-out-file=callgrind.out",
      "--dump-line=yes", "--compress-strings=no", "--compress-pos=no"};
  for (const auto& a : ProfileWorkspace::driver_args(request.call)) args.push_back(a);
  const auto start = std::chrono::steady_clock::now();
  ProcessResult r = ws.run(args, {{"OMP_WAIT_POLICY", "passive"}}, request.timeout);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.spawn_failed || r.exit_code == 127) return fail("valgrind is not installed");
  if (!r.succeeded())
    return fail("the run under callgrind failed (" + r.describe() +
                "): " + trim(tail(r.output, 500)));
  auto text = read_file(ws.path() / "callgrind.out");
  if (!text) return text.error();
  ProfileBuilder builder;
  attribute_callgrind(*text, ws.binary(), request.kernel_file, builder);
  CpuProfile profile;
  profile.profiler = "callgrind";
  profile.event = "Ir";
  profile.unit = "instructions";
  profile.seconds = seconds;
  builder.finish(request.kernel_source, profile);
  if (profile.total == 0) return fail("callgrind counted no instructions");
  return profile;
}

}  // namespace kopt
