#include "util/host_cpu.h"

#include <fstream>
#include <sstream>

#include "util/strings.h"

namespace kopt {

std::string cpu_identity_of(std::string_view cpuinfo) {
  std::string vendor, family, model, flags;
  for (const auto& line : split(cpuinfo, '\n')) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    std::string* field = key == "vendor_id"    ? &vendor
                         : key == "cpu family" ? &family
                         : key == "model"      ? &model
                         : key == "flags"      ? &flags
                                               : nullptr;
    if (field && field->empty()) *field = value;
  }
  if (vendor.empty() && family.empty() && model.empty() && flags.empty()) return {};
  return vendor + "|" + family + "|" + model + "|" + flags;
}

const std::string& host_cpu_identity() {
  static const std::string identity = [] {
    std::ifstream in("/proc/cpuinfo");
    std::ostringstream text;
    text << in.rdbuf();
    return cpu_identity_of(text.str());
  }();
  return identity;
}

}  // namespace kopt
