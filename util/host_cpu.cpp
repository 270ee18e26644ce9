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

namespace {

const std::string& cpuinfo_text() {
  static const std::string text = [] {
    std::ifstream in("/proc/cpuinfo");
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  }();
  return text;
}

}  // namespace

const std::string& host_cpu_identity() {
  static const std::string identity = cpu_identity_of(cpuinfo_text());
  return identity;
}

const std::string& host_cpu_model() {
  static const std::string model = [] {
    for (const auto& line : split(cpuinfo_text(), '\n'))
      if (starts_with(line, "model name")) return trim(line.substr(line.find(':') + 1));
    return std::string("unknown cpu");
  }();
  return model;
}

}  // namespace kopt
