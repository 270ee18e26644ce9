#include "tools/profile/inject/output.h"

#include <cupti_pcsampling.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tools/profile/gpu_format.h"

namespace kopt::inject {

namespace fs = std::filesystem;

namespace {

std::string dump_line(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string crc_hex(uint64_t crc) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%016" PRIx64, crc);
  return text;
}

uint64_t cubin_crc(const void* cubin, size_t size) {
  CUpti_GetCubinCrcParams params = {};
  params.size = CUpti_GetCubinCrcParamsSize;
  params.cubin = cubin;
  params.cubinSize = size;
  if (cubin == nullptr || size == 0 || cuptiGetCubinCrc(&params) != CUPTI_SUCCESS) return 0;
  return params.cubinCrc;
}

OutputFolder::OutputFolder(fs::path dir) : dir_(std::move(dir)) {
  if (dir_.empty()) return;
  std::error_code ec;
  fs::create_directories(dir_ / gpu_format::kCubinFolder, ec);
}

OutputFolder OutputFolder::from_environment() {
  const char* dir = std::getenv(gpu_format::kOutVariable);
  return OutputFolder(dir ? fs::path(dir) : fs::path());
}

bool OutputFolder::write_failure(const CuptiFailure& failure) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failed_) return false;
    failed_ = true;
  }
  std::fprintf(stderr, "kopt-cupti: %s\n", failure.message.c_str());
  write_json(gpu_format::kErrorFile, {{"format", gpu_format::kErrorFormat},
                                      {"reason", failure.reason},
                                      {"call", failure.call},
                                      {"code", failure.code},
                                      {"message", failure.message}});
  return true;
}

bool OutputFolder::failed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failed_;
}

uint64_t OutputFolder::write_cubin(const void* data, size_t size) {
  const uint64_t crc = cubin_crc(data, size);
  if (crc == 0 || !valid()) return crc;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!cubins_.insert(crc).second) return crc;
  }
  const fs::path path = dir_ / gpu_format::kCubinFolder / (crc_hex(crc) + ".cubin");
  return write_atomic(path, std::string(static_cast<const char*>(data), size)) ? crc : 0;
}

bool OutputFolder::write_lines(const std::string& name, const nlohmann::json& header,
                               const std::vector<nlohmann::json>& records) {
  std::string text = dump_line(header);
  for (const auto& record : records) text += dump_line(record);
  return write_atomic(dir_ / name, text);
}

bool OutputFolder::write_json(const std::string& name, const nlohmann::json& value) {
  return write_atomic(dir_ / name, dump_line(value));
}

bool OutputFolder::write_atomic(const fs::path& path, const std::string& content) {
  if (!valid()) return false;
  fs::path temp = path;
  temp += ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << content;
    if (!out.flush()) return false;
  }
  std::error_code ec;
  fs::rename(temp, path, ec);
  return !ec;
}

}  // namespace kopt::inject
