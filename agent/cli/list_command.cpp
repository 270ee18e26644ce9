#include <cstdio>

#include "agent/cli/commands.h"
#include "tools/benchmark/benchmark.h"

namespace kopt::cli {

namespace {

int run_list(const Args& args) {
  const std::filesystem::path suite =
      args.has("suite") ? std::filesystem::path(args.get("suite")) : default_suite();
  const auto benches = list_benchmarks(suite);
  if (benches.empty())
    throw UsageError{"no benchmarks under " + suite.string() +
                     (std::filesystem::is_directory(suite) ? "" : " (no such folder)")};
  int broken = 0;
  const bool paths = args.flag("paths");
  std::printf("%-22s %-7s %s\n", "BENCHMARK", "LANG", paths ? "FOLDER" : "SUMMARY");
  for (const auto& bench : benches) {
    if (!bench) {
      std::fprintf(stderr, "kopt list: %s\n", bench.error().message.c_str());
      ++broken;
      continue;
    }
    std::printf("%-22s %-7s %s\n", bench->name.c_str(), to_string(bench->language).c_str(),
                paths ? bench->dir.c_str() : bench->summary.c_str());
  }
  return broken ? 1 : 0;
}

}  // namespace

CommandSpec list_command() {
  return {"list",
          "List the benchmarks of the suite with their summaries",
          {{"--suite", "Folder holding benchmark folders (default: kopt's own suite)", "", false,
            false, "KOPT_SUITE"},
           {"--paths", "Show each benchmark's folder instead of its summary", "", true}},
          run_list};
}

}  // namespace kopt::cli
