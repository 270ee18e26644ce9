// Mapping a sampled PC (a function of a cubin and an offset into it) to the source line it was
// compiled from, through the cubin's line table (nvcc -lineinfo). Two implementations behind one
// seam: CUPTI's cuptiGetSassToSourceCorrelation (the default; libcupti is loaded at run time and
// needs no GPU) and `nvdisasm --print-line-info` (when libcupti cannot be loaded).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sandbox/process.h"
#include "util/result.h"

namespace kopt {

/// A source line; `file` as the compiler saw it (often relative to `dir`).
struct SourceLocation {
  std::string file;
  std::string dir;
  uint32_t line = 0;
};

/// One instruction to locate.
struct PcQuery {
  std::filesystem::path cubin;
  std::string function;  ///< Mangled, as CUPTI reports it.
  uint64_t pc_offset = 0;
};

/// The seam: where an instruction of a cubin came from.
class SassLineMapper {
 public:
  virtual ~SassLineMapper() = default;
  /// "cupti" or "nvdisasm", for records.
  virtual std::string name() const = 0;
  /// The source line of the instruction at `pc_offset` in `function` (mangled) of `cubin`.
  virtual Result<SourceLocation> locate(const std::filesystem::path& cubin,
                                        const std::string& function, uint64_t pc_offset) = 0;
  /// Every query at once, in order (the default asks locate() for each).
  virtual std::vector<Result<SourceLocation>> locate_all(const std::vector<PcQuery>& queries);
};

/// cuptiGetSassToSourceCorrelation from a libcupti loaded at run time. CUPTI caches line tables
/// by cubin CRC, and the CRC leaves the line table out: two cubins with the same machine code and
/// shifted source lines (a comment added above a kernel) would get the first one's lines. So
/// every batch of lookups runs in a forked child whose cache starts empty, and kopt's own process
/// never fills it; a cubin that crashes CUPTI cannot take kopt down either.
class CuptiLineMapper : public SassLineMapper {
 public:
  /// Loads libcupti: $KOPT_CUPTI_LIB, else the CUDA toolkit's ($CUDA_HOME, /usr/local/cuda),
  /// else the loader's search path.
  static Result<std::unique_ptr<CuptiLineMapper>> load();

  std::string name() const override { return "cupti"; }
  Result<SourceLocation> locate(const std::filesystem::path& cubin, const std::string& function,
                                uint64_t pc_offset) override;
  std::vector<Result<SourceLocation>> locate_all(const std::vector<PcQuery>& queries) override;
  /// The CRC CUPTI gives these cubin bytes (the key of PC records).
  Result<uint64_t> cubin_crc(const std::string& cubin_bytes) const;

 private:
  CuptiLineMapper(void* sass_to_source, void* cubin_crc);
  /// One lookup in this process (only ever called in the child).
  Result<SourceLocation> lookup(const std::string& cubin, const PcQuery& query) const;

  void* sass_to_source_;
  void* cubin_crc_;
};

/// One instruction's line from nvdisasm's listing.
struct LineTableEntry {
  uint64_t pc_offset = 0;
  SourceLocation location;
};

/// Function name -> its instructions' lines, in address order, from the text of
/// `nvdisasm --print-line-info` (sections ".text.<function>", "//## File "...", line N" markers).
std::map<std::string, std::vector<LineTableEntry>> parse_nvdisasm_lines(const std::string& listing);

/// Runs nvdisasm once per cubin and looks PCs up in its listing.
class NvdisasmLineMapper : public SassLineMapper {
 public:
  NvdisasmLineMapper(ProcessRunner& runner, std::string nvdisasm)
      : runner_(runner), nvdisasm_(std::move(nvdisasm)) {}

  /// $KOPT_NVDISASM, else nvdisasm beside nvcc or on the PATH; empty when there is none.
  static std::string find();

  std::string name() const override { return "nvdisasm"; }
  Result<SourceLocation> locate(const std::filesystem::path& cubin, const std::string& function,
                                uint64_t pc_offset) override;

 private:
  using Table = std::map<std::string, std::vector<LineTableEntry>>;
  Result<const Table*> table(const std::filesystem::path& cubin);

  ProcessRunner& runner_;
  std::string nvdisasm_;
  std::map<std::filesystem::path, Table> tables_;
};

/// CUPTI's mapper if libcupti loads, else nvdisasm's; the Error names both reasons.
Result<std::unique_ptr<SassLineMapper>> default_line_mapper(ProcessRunner& runner);

}  // namespace kopt
