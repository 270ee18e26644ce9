// From sampled PCs to ranked source lines: every PC is mapped to its line through the captured
// cubin, lines are summed and ranked by samples, each with its top stall reasons. The result is a
// compact text summary for the model and full JSON for the run record.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tools/profile/gpu_lines.h"
#include "tools/profile/gpu_samples.h"
#include "util/json.h"

namespace kopt {

/// One source line's samples.
struct GpuLine {
  std::string file;  ///< As the compiler named it ("kernel.cu").
  uint32_t line = 0;
  uint64_t samples = 0;
  double share = 0;                        ///< Of all user-kernel samples.
  std::map<std::string, uint64_t> stalls;  ///< Short reason name -> samples (plain reasons).
  std::vector<std::string> functions;      ///< Demangled functions whose code is on the line.
  std::string code;                        ///< The line's text, when the source is known.
};

/// One kernel's samples.
struct GpuFunction {
  std::string name;       ///< Mangled.
  std::string demangled;  ///< For people.
  uint64_t samples = 0;
  double share = 0;
};

/// The attributed profile.
struct GpuAttribution {
  std::string line_mapper;  ///< "cupti" or "nvdisasm".
  uint64_t samples = 0;     ///< All samples on PC records (each counted once).
  uint64_t unattributed = 0;
  std::vector<GpuLine> lines;  ///< Ranked, most samples first.
  std::vector<GpuFunction> functions;
  std::map<std::string, uint64_t> stalls;  ///< Over all lines, short names.
  std::vector<std::string> warnings;
};

/// Where the text of source lines comes from: files given by name (the candidate kernel, which
/// was compiled as "kernel.cu" in a workspace that no longer exists), else the file on disk.
struct SourceFiles {
  std::map<std::string, std::string> by_name;  ///< File name -> content.
  /// The text of `line` of `location`'s file, trimmed; empty when unknown.
  std::string line_text(const SourceLocation& location) const;
};

/// Maps every PC of `data` to its line and ranks the lines.
GpuAttribution attribute(const PcSamplingData& data, SassLineMapper& mapper,
                         const SourceFiles& sources);

/// The top `top_lines` lines with share, code and top 3 stall reasons, kernels, overall stalls.
std::string summarize(const GpuAttribution& profile, int top_lines = 10);

/// Everything, for the run record.
Json to_json(const GpuAttribution& profile);

}  // namespace kopt
