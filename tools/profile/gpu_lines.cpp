#include "tools/profile/gpu_lines.h"

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "tools/profile/gpu_cupti_abi.h"
#include "util/files.h"
#include "util/json.h"
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

Result<SourceLocation> CuptiLineMapper::lookup(const std::string& cubin,
                                               const PcQuery& query) const {
  cupti_abi::SassToSourceParams params = {};
  params.size = cupti_abi::kSassToSourceParamsSize;
  params.cubin = cubin.data();
  params.cubinSize = cubin.size();
  params.functionName = query.function.c_str();
  params.pcOffset = query.pc_offset;
  const int result = reinterpret_cast<cupti_abi::SassToSourceFunction>(sass_to_source_)(&params);
  SourceLocation location;
  if (params.fileName) location.file = params.fileName;
  if (params.dirName) location.dir = params.dirName;
  location.line = params.lineNumber;
  std::free(params.fileName);
  std::free(params.dirName);
  if (result != cupti_abi::kSuccess || location.line == 0)
    return fail("no line for " + query.function + "+" + std::to_string(query.pc_offset) +
                " (CUPTI result " + std::to_string(result) + "; was it built with -lineinfo?)");
  return location;
}

Result<SourceLocation> CuptiLineMapper::locate(const fs::path& cubin, const std::string& function,
                                               uint64_t pc_offset) {
  return locate_all({{cubin, function, pc_offset}}).at(0);
}

namespace {

// The child's half: looks every query up and writes one JSON line per answer to `fd`.
[[noreturn]] void answer_in_child(
    int fd, const std::vector<PcQuery>& queries,
    const std::function<Result<SourceLocation>(const std::string&, const PcQuery&)>& lookup) {
  std::map<fs::path, std::string> cubins;
  for (const auto& query : queries) {
    auto it = cubins.find(query.cubin);
    if (it == cubins.end()) {
      auto bytes = read_file(query.cubin);
      it = cubins.emplace(query.cubin, bytes ? std::move(*bytes) : std::string()).first;
    }
    Json line;
    if (it->second.empty()) {
      line = {{"error", "cannot read " + query.cubin.string()}};
    } else if (auto where = lookup(it->second, query)) {
      line = {{"file", where->file}, {"dir", where->dir}, {"line", where->line}};
    } else {
      line = {{"error", where.error().message}};
    }
    const std::string text = dump_json(line) + "\n";
    for (size_t done = 0; done < text.size();) {
      const ssize_t n = write(fd, text.data() + done, text.size() - done);
      if (n <= 0 && errno != EINTR) _exit(1);
      if (n > 0) done += static_cast<size_t>(n);
    }
  }
  _exit(0);
}

std::string read_all(int fd) {
  std::string output;
  char buffer[65536];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) != 0;) {
    if (n > 0)
      output.append(buffer, static_cast<size_t>(n));
    else if (errno != EINTR)
      break;
  }
  return output;
}

}  // namespace

std::vector<Result<SourceLocation>> CuptiLineMapper::locate_all(
    const std::vector<PcQuery>& queries) {
  std::vector<Result<SourceLocation>> results;
  if (queries.empty()) return results;
  int fds[2];
  if (pipe(fds) != 0)
    return std::vector<Result<SourceLocation>>(queries.size(), fail("cannot create a pipe"));
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return std::vector<Result<SourceLocation>>(queries.size(), fail("cannot fork a lookup"));
  }
  if (child == 0) {
    close(fds[0]);
    answer_in_child(fds[1], queries, [this](const std::string& cubin, const PcQuery& query) {
      return lookup(cubin, query);
    });
  }
  close(fds[1]);
  const std::string output = read_all(fds[0]);
  close(fds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  for (const auto& line : split(output, '\n')) {
    if (line.empty() || results.size() == queries.size()) continue;
    auto json = parse_json(line, "a CUPTI lookup");
    if (!json) {
      results.push_back(json.error());
    } else if (json->contains("error")) {
      results.push_back(fail(json->value("error", "")));
    } else {
      results.push_back(
          SourceLocation{json->value("file", ""), json->value("dir", ""), json->value("line", 0u)});
    }
  }
  const std::string ended = WIFSIGNALED(status) ? "CUPTI's lookup process died (signal " +
                                                      std::to_string(WTERMSIG(status)) + ")"
                                                : "CUPTI's lookup process ended early";
  while (results.size() < queries.size()) results.push_back(fail(ended));
  return results;
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
  return find_executable("nvdisasm", dirs);
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

std::vector<Result<SourceLocation>> SassLineMapper::locate_all(
    const std::vector<PcQuery>& queries) {
  std::vector<Result<SourceLocation>> results;
  for (const auto& q : queries) results.push_back(locate(q.cubin, q.function, q.pc_offset));
  return results;
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
