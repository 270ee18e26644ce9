#include "tools/profile/gpu_samples.h"

#include <nlohmann/json.hpp>

#include "tools/profile/gpu_format.h"
#include "util/files.h"
#include "util/json.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kNotIssued = "_not_issued";

PcSample parse_pc(const Json& line) {
  PcSample pc;
  pc.cubin_crc = line.at("cubin_crc").get<std::string>();
  pc.function = line.value("function", "");
  pc.function_index = line.value("function_index", 0u);
  pc.pc_offset = line.at("pc_offset").get<uint64_t>();
  for (const auto& [reason, samples] : json_member(line, "stalls").items())
    pc.stalls[reason] = samples.get<uint64_t>();
  return pc;
}

void parse_header(const Json& header, PcSamplingData& data) {
  data.total_samples = header.value("total_samples", uint64_t{0});
  data.dropped_samples = header.value("dropped_samples", uint64_t{0});
  data.non_user_kernel_samples = header.value("non_user_kernel_samples", uint64_t{0});
  data.hardware_buffer_full = header.value("hardware_buffer_full", false);
  for (const auto& [index, name] : json_member(header, "stall_reasons").items())
    data.stall_reasons[static_cast<uint32_t>(std::stoul(index))] = name.get<std::string>();
  for (const auto& warning : json_member(header, "warnings"))
    data.warnings.push_back(warning.get<std::string>());
}

void list_cubins(const fs::path& folder, PcSamplingData& data) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder / gpu_format::kCubinFolder, ec))
    if (entry.path().extension() == ".cubin")
      data.cubins[entry.path().stem().string()] = entry.path();
}

}  // namespace

Result<PcSamplingData> read_pc_sampling(const fs::path& folder) {
  const fs::path path = folder / gpu_format::kSamplesFile;
  auto text = read_file(path);
  if (!text) {
    return fail(injection_started(folder)
                    ? "the injection library wrote no PC samples (the program made no CUDA "
                      "context, or ended without running its exit handlers)"
                    : "the injection library was not loaded (CUDA ignored " +
                          std::string(gpu_format::kInjectionVariable) + ")");
  }
  PcSamplingData data;
  const std::vector<std::string> lines = split(*text, '\n');
  if (lines.empty() || trim(lines[0]).empty()) return fail(path.string() + " is empty");
  for (size_t i = 0; i < lines.size(); ++i) {
    if (trim(lines[i]).empty()) continue;
    auto line = parse_json(lines[i], path.string() + " line " + std::to_string(i + 1));
    if (!line) return line.error();
    try {
      if (i == 0) {
        if (line->value("format", "") != gpu_format::kSamplesFormat)
          return fail(path.string() + " is not " + gpu_format::kSamplesFormat);
        parse_header(*line, data);
      } else {
        data.pcs.push_back(parse_pc(*line));
      }
    } catch (const nlohmann::json::exception& e) {
      return fail(path.string() + " line " + std::to_string(i + 1) + " is malformed: " + e.what());
    } catch (const std::logic_error& e) {
      return fail(path.string() + " line " + std::to_string(i + 1) + " is malformed: " + e.what());
    }
  }
  list_cubins(folder, data);
  return data;
}

std::optional<CuptiError> read_cupti_error(const fs::path& folder) {
  auto json = read_json_file(folder / gpu_format::kErrorFile);
  if (!json || !json->is_object()) return std::nullopt;
  CuptiError error;
  error.reason = json->value("reason", "cupti-error");
  error.call = json->value("call", "");
  error.code = json->value("code", 0);
  error.message = json->value("message", "CUPTI failed");
  return error;
}

bool injection_started(const fs::path& folder) {
  std::error_code ec;
  return fs::exists(folder / gpu_format::kInjectionFile, ec);
}

std::string short_stall_name(const std::string& reason) {
  for (std::string_view prefix :
       {"smsp__pcsamp_warps_issue_stalled_", "smsp__pcsamp_warp_stall_", "smsp__pcsamp_"})
    if (starts_with(reason, prefix)) return reason.substr(prefix.size());
  return reason;
}

bool is_not_issued(const std::string& reason) {
  return reason.ends_with(kNotIssued);
}

uint64_t sample_count(const std::map<std::string, uint64_t>& stalls) {
  uint64_t plain = 0, not_issued = 0;
  for (const auto& [reason, samples] : stalls)
    (is_not_issued(reason) ? not_issued : plain) += samples;
  return plain > 0 ? plain : not_issued;
}

}  // namespace kopt
