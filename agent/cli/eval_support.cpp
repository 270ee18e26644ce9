#include "agent/cli/eval_support.h"

#include <fmt/format.h>

#include <cstdio>

#include "sandbox/sandbox.h"
#include "util/files.h"
#include "util/strings.h"

namespace kopt::cli {

namespace {

constexpr uintmax_t kMaxVariantBytes = 1 << 20;

}  // namespace

std::vector<OptionSpec> evaluator_options() {
  return {{"--suite", "Folder holding benchmark folders (default: kopt's own suite)", "", false,
           false, "KOPT_SUITE"},
          {"--no-sandbox", "Run candidate code without bubblewrap (recorded in every result)", "",
           true}};
}

Benchmark load_benchmark_arg(const Args& args, const std::string& name) {
  const std::filesystem::path suite =
      args.has("suite") ? std::filesystem::path(args.get("suite")) : default_suite();
  auto bench = find_benchmark(name, suite);
  if (!bench) throw UsageError{bench.error().message};
  return std::move(bench).value();
}

void refuse_program(const Benchmark& bench) {
  if (bench.is_program())
    throw UsageError{bench.name + " is a whole program " + kNoProgramEvidence};
}

EvaluatorSession::EvaluatorSession(const Args& args)
    : runner_(std::make_unique<LocalProcessRunner>()) {
  const bool sandbox = !args.flag("no-sandbox");
  if (sandbox) {
    if (auto usable = probe_sandbox(); !usable)
      throw UsageError{
          usable.error().message +
          "; kopt does not run candidate code unconfined unless you pass --no-sandbox"};
  } else {
    std::fprintf(stderr,
                 "kopt: warning: --no-sandbox: candidate code runs unconfined (recorded)\n");
  }
  evaluator_ = std::make_unique<LocalEvaluator>(default_context(*runner_, sandbox));
}

namespace {

// A program variant given as a folder: the editable files it holds, as one bundle.
Variant program_folder_variant(const Benchmark& bench, const std::filesystem::path& folder) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& name : bench.program.editable) {
    if (!std::filesystem::exists(folder / name)) continue;
    auto content = read_file(folder / name, kMaxVariantBytes);
    if (!content) throw UsageError{content.error().message};
    files.emplace_back(name, std::move(*content));
  }
  if (files.empty())
    throw UsageError{folder.string() + " holds none of " + bench.name +
                     "'s editable files: " + join(bench.program.editable, ", ")};
  return {folder.filename().string(), make_bundle(files)};
}

}  // namespace

Variant load_variant(const Benchmark& bench, const std::string& variant) {
  if (bench.is_program() && variant == "original") {
    auto source = original_source(bench);
    if (!source) throw UsageError{source.error().message};
    return {"original", std::move(*source)};
  }
  if (bench.is_program() && std::filesystem::is_directory(variant)) {
    std::filesystem::path folder = std::filesystem::path(variant).lexically_normal();
    if (folder.filename().empty()) folder = folder.parent_path();  // "fast/"
    return program_folder_variant(bench, folder);
  }
  std::filesystem::path path;
  if (variant == "original")
    path = bench.kernel_path();
  else if (variant == "human" && !bench.has_human)
    throw UsageError{"benchmark " + bench.name + " has no human version (no " + bench.human_file() +
                     ")"};
  else if (variant == "human")
    path = bench.human_path();
  else
    path = variant;
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw UsageError{path.string() + " is not a regular file"};
  if (std::filesystem::exists(status) && std::filesystem::file_size(path, ec) > kMaxVariantBytes)
    throw UsageError{fmt::format("{} is larger than {} KiB; a kernel file is smaller",
                                 path.string(), kMaxVariantBytes >> 10)};
  auto source = read_file(path);
  if (!source) throw UsageError{source.error().message};
  const std::string label =
      (variant == "original" || variant == "human") ? variant : path.filename().string();
  return {label, std::move(*source)};
}

}  // namespace kopt::cli
