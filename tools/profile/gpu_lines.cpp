#include "tools/profile/gpu_lines.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <regex>

#include "tools/profile/gpu_cupti_abi.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> cupti_candidates() {
  std::vector<std::string> paths;
  if (const char* chosen = std::getenv("KOPT_CUPTI_LIB"); chosen && *chosen) return {chosen};
  std::vector<fs::path> roots;
  if (const char* home = std::getenv("CUDA_HOME"); home && *home) roots.emplace_back(home);
  roots.emplace_back("/usr/local/cuda");
  for (const auto& root : roots)
    for (const char* sub : {"lib64", "lib", "extras/CUPTI/lib64"})
      paths.push_back((root / sub / "libcupti.so").string());
  paths.push_back("libcupti.so");
  return paths;
}

}  // namespace

CuptiLineMapper::CuptiLineMapper(void* sass_to_source, void* cubin_crc)
    : sass_to_source_(sass_to_source), cubin_crc_(cubin_crc) {}

Result<std::unique_ptr<CuptiLineMapper>> CuptiLineMapper::load() {
  std::string tried;
  for (const auto& path : cupti_candidates()) {
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      tried += (tried.empty() ? "" : ", ") + path;
      continue;
    }
    void* sass = dlsym(library, "cuptiGetSassToSourceCorrelation");
    void* crc = dlsym(library, "cuptiGetCubinCrc");
    if (sass == nullptr || crc == nullptr)
      return fail(path + " lacks cuptiGetSassToSourceCorrelation (CUPTI older than 11.3?)");
    return std::unique_ptr<CuptiLineMapper>(new CuptiLineMapper(sass, crc));
  }
  return fail("cannot load libcupti (tried " + tried + "; set KOPT_CUPTI_LIB)");
}

Result<const std::string*> CuptiLineMapper::cubin(const fs::path& path) {
  auto it = cubins_.find(path);
  if (it == cubins_.end()) {
    auto bytes = read_file(path);
    if (!bytes) return bytes.error();
    if (bytes->empty()) return fail(path.string() + " is empty");
    it = cubins_.emplace(path, std::move(*bytes)).first;
  }
  return &it->second;
}

Result<SourceLocation> CuptiLineMapper::locate(const fs::path& cubin_path,
                                               const std::string& function, uint64_t pc_offset) {
  auto bytes = cubin(cubin_path);
  if (!bytes) return bytes.error();
  cupti_abi::SassToSourceParams params = {};
  params.size = cupti_abi::kSassToSourceParamsSize;
  params.cubin = (*bytes)->data();
  params.cubinSize = (*bytes)->size();
  params.functionName = function.c_str();
  params.pcOffset = pc_offset;
  const int result = reinterpret_cast<cupti_abi::SassToSourceFunction>(sass_to_source_)(&params);
  SourceLocation location;
  if (params.fileName) location.file = params.fileName;
  if (params.dirName) location.dir = params.dirName;
  location.line = params.lineNumber;
  std::free(params.fileName);
  std::free(params.dirName);
  if (result != cupti_abi::kSuccess || location.line == 0)
    return fail("no line for " + function + "+" + std::to_string(pc_offset) + " (CUPTI result " +
                std::to_string(result) + "; was it built with -lineinfo?)");
  return location;
}

Result<uint64_t> CuptiLineMapper::cubin_crc(const std::string& cubin_bytes) const {
  cupti_abi::CubinCrcParams params = {};
  params.size = cupti_abi::kCubinCrcParamsSize;
  params.cubin = cubin_bytes.data();
  params.cubinSize = cubin_bytes.size();
  const int result = reinterpret_cast<cupti_abi::CubinCrcFunction>(cubin_crc_)(&params);
  if (result != cupti_abi::kSuccess)
    return fail("cuptiGetCubinCrc failed (" + std::to_string(result) + ")");
  return params.cubinCrc;
}

std::map<std::string, std::vector<LineTableEntry>> parse_nvdisasm_lines(
    const std::string& listing) {
  static const std::regex section(R"(^\s*\.section\s+\.text\.([^,\s]+))");
  static const std::regex marker(R"re(^\s*//## File "([^"]*)", line (\d+))re");
  static const std::regex instruction(R"re(^\s*/\*([0-9a-fA-F]+)\*/)re");
  std::map<std::string, std::vector<LineTableEntry>> table;
  std::vector<LineTableEntry>* current = nullptr;
  SourceLocation location;
  std::smatch match;
  for (const auto& line : split(listing, '\n')) {
    if (std::regex_search(line, match, section)) {
      current = &table[match[1].str()];
      location = {};
    } else if (std::regex_search(line, match, marker)) {
      const fs::path file(match[1].str());
      location.file = file.filename().string();
      location.dir = file.parent_path().string();
      location.line = static_cast<uint32_t>(std::stoul(match[2].str()));
    } else if (current && location.line > 0 && std::regex_search(line, match, instruction)) {
      current->push_back({std::stoull(match[1].str(), nullptr, 16), location});
    }
  }
  return table;
}

std::string NvdisasmLineMapper::find() {
  if (const char* chosen = std::getenv("KOPT_NVDISASM"); chosen && *chosen)
    return access(chosen, X_OK) == 0 ? chosen : "";
  std::vector<std::string> dirs;
  if (const char* home = std::getenv("CUDA_HOME"); home && *home)
    dirs.push_back(std::string(home) + "/bin");
  dirs.push_back("/usr/local/cuda/bin");
  if (const char* path = std::getenv("PATH"))
    for (const auto& dir : split(path, ':')) dirs.push_back(dir);
  for (const auto& dir : dirs) {
    const fs::path candidate = fs::path(dir) / "nvdisasm";
    if (!dir.empty() && access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

Result<const NvdisasmLineMapper::Table*> NvdisasmLineMapper::table(const fs::path& cubin) {
  auto it = tables_.find(cubin);
  if (it != tables_.end()) return &it->second;
  ProcessSpec spec;
  spec.argv = {nvdisasm_, "--print-line-info", "-c", cubin.string()};
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  spec.timeout = std::chrono::seconds(120);
  spec.output_cap = 256u << 20;
  ProcessResult result = runner_.run(spec);
  if (!result.succeeded())
    return fail("nvdisasm failed on " + cubin.string() + " (" + result.describe() +
                "): " + trim(tail(result.output, 300)));
  return &tables_.emplace(cubin, parse_nvdisasm_lines(result.output)).first->second;
}

Result<SourceLocation> NvdisasmLineMapper::locate(const fs::path& cubin,
                                                  const std::string& function, uint64_t pc_offset) {
  auto lines = table(cubin);
  if (!lines) return lines.error();
  auto entries = (*lines)->find(function);
  if (entries == (*lines)->end() || entries->second.empty())
    return fail("nvdisasm lists no lines for " + function + " (was it built with -lineinfo?)");
  const auto& list = entries->second;
  auto after =
      std::upper_bound(list.begin(), list.end(), pc_offset,
                       [](uint64_t pc, const LineTableEntry& e) { return pc < e.pc_offset; });
  if (after == list.begin())
    return fail("no line for " + function + "+" + std::to_string(pc_offset));
  return std::prev(after)->location;
}

Result<std::unique_ptr<SassLineMapper>> default_line_mapper(ProcessRunner& runner) {
  auto cupti = CuptiLineMapper::load();
  if (cupti) return std::unique_ptr<SassLineMapper>(std::move(*cupti));
  const std::string nvdisasm = NvdisasmLineMapper::find();
  if (!nvdisasm.empty())
    return std::unique_ptr<SassLineMapper>(new NvdisasmLineMapper(runner, nvdisasm));
  return fail(cupti.error().message + "; and no nvdisasm was found (set KOPT_NVDISASM)");
}

}  // namespace kopt
