#include "tools/machine/host.h"

#include <cstdlib>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

std::string read_trimmed(const fs::path& path) {
  auto text = read_file(path);
  return text ? trim(*text) : std::string();
}

// Number of CPUs in a sysfs list such as "0-3,8,10-11".
int count_cpu_list(const std::string& list) {
  int count = 0;
  for (const auto& range : split(list, ',')) {
    const auto dash = range.find('-');
    if (range.empty()) continue;
    if (dash == std::string::npos)
      ++count;
    else
      count += std::stoi(range.substr(dash + 1)) - std::stoi(range.substr(0, dash)) + 1;
  }
  return std::max(count, 1);
}

void read_cpuinfo(HostInfo& host) {
  std::ifstream in("/proc/cpuinfo");
  std::string line, flags;
  std::set<std::pair<std::string, std::string>> cores;
  std::string package;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    if (key == "model name" && host.cpu_model.empty()) host.cpu_model = value;
    if (key == "physical id") package = value;
    if (key == "core id") cores.insert({package, value});
    if (key == "flags" && flags.empty()) flags = " " + value + " ";
  }
  host.cores = static_cast<int>(cores.size());
  for (const char* flag : {"sse4_2", "avx", "avx2", "fma", "avx512f", "avx512vl", "avx512_fp16"})
    if (flags.find(std::string(" ") + flag + " ") != std::string::npos) host.isa.push_back(flag);
  auto has = [&](const char* flag) {
    return std::find(host.isa.begin(), host.isa.end(), flag) != host.isa.end();
  };
  host.vector_bits = has("avx512f") ? 512 : has("avx") ? 256 : 128;
  host.fma = has("fma");
}

void read_caches(HostInfo& host) {
  std::error_code ec;
  const fs::path dir = "/sys/devices/system/cpu/cpu0/cache";
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!starts_with(entry.path().filename().string(), "index")) continue;
    CacheLevel cache;
    cache.level = std::atoi(read_trimmed(entry.path() / "level").c_str());
    cache.type = read_trimmed(entry.path() / "type");
    cache.bytes = parse_cache_size(read_trimmed(entry.path() / "size"));
    cache.shared_by = count_cpu_list(read_trimmed(entry.path() / "shared_cpu_list"));
    cache.instances = std::max(1, host.threads / cache.shared_by);
    if (cache.level > 0 && cache.bytes > 0) host.caches.push_back(cache);
  }
  std::sort(host.caches.begin(), host.caches.end(), [](const auto& a, const auto& b) {
    return std::tie(a.level, a.type) < std::tie(b.level, b.type);
  });
}

}  // namespace

std::vector<double> load_averages() {
  double loads[3] = {};
  const int n = getloadavg(loads, 3);
  return n == 3 ? std::vector<double>(loads, loads + 3) : std::vector<double>{};
}

uint64_t parse_cache_size(const std::string& text) {
  if (text.empty()) return 0;
  const uint64_t number = std::strtoull(text.c_str(), nullptr, 10);
  switch (text.back()) {
    case 'K':
      return number << 10;
    case 'M':
      return number << 20;
    case 'G':
      return number << 30;
    default:
      return number;
  }
}

uint64_t HostInfo::last_level_cache_bytes() const {
  if (caches.empty()) return 0;
  const CacheLevel& last = caches.back();
  return last.bytes * static_cast<uint64_t>(last.instances);
}

HostInfo read_host_info() {
  HostInfo host;
  host.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  read_cpuinfo(host);
  if (host.cores == 0) host.cores = host.threads;
  if (host.cpu_model.empty()) host.cpu_model = "unknown cpu";
  read_caches(host);
  return host;
}

namespace {

std::string size_text(uint64_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  return fmt::format("{} KiB", bytes >> 10);
}

std::string cache_text(const CacheLevel& c, int threads) {
  std::string name = "L" + std::to_string(c.level);
  if (c.type == "Data") name += "d";
  if (c.type == "Instruction") name += "i";
  const std::string scope = c.instances <= 1 || c.shared_by >= threads
                                ? "shared"
                                : fmt::format("per {} thread(s)", c.shared_by);
  return fmt::format("{} {} {}", name, size_text(c.bytes), scope);
}

}  // namespace

std::string host_text(const HostInfo& host) {
  std::string text = fmt::format("Host: {}, {} core(s) ({} hardware thread(s)); SIMD up to {} bits",
                                 host.cpu_model, host.cores, host.threads, host.vector_bits);
  if (!host.isa.empty()) text += " (" + join(host.isa, " ") + ")";
  if (host.fma) text += ", FMA";
  std::vector<std::string> caches;
  for (const auto& c : host.caches)
    if (c.type != "Instruction") caches.push_back(cache_text(c, host.threads));
  if (!caches.empty()) text += "; caches " + join(caches, ", ");
  return text + ".";
}

Json to_json(const HostInfo& host) {
  Json caches = Json::array();
  for (const auto& c : host.caches)
    caches.push_back({{"level", c.level},
                      {"type", c.type},
                      {"bytes", c.bytes},
                      {"shared_by", c.shared_by},
                      {"instances", c.instances}});
  return {{"cpu_model", host.cpu_model},
          {"cores", host.cores},
          {"threads", host.threads},
          {"vector_bits", host.vector_bits},
          {"fma", host.fma},
          {"isa", host.isa},
          {"caches", caches}};
}

HostInfo host_info_from_json(const Json& doc) {
  HostInfo host;
  host.cpu_model = doc.value("cpu_model", "");
  host.cores = doc.value("cores", 0);
  host.threads = doc.value("threads", 0);
  host.vector_bits = doc.value("vector_bits", 128);
  host.fma = doc.value("fma", false);
  host.isa = doc.value("isa", std::vector<std::string>{});
  for (const auto& c : doc.value("caches", Json::array()))
    host.caches.push_back({c.value("level", 0), c.value("type", ""), c.value("bytes", uint64_t{0}),
                           c.value("shared_by", 1), c.value("instances", 1)});
  return host;
}

}  // namespace kopt
