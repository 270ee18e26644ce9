#include <cstdio>
#include <iostream>

#include "agent/cli/commands.h"
#include "tools/benchmark/benchmark.h"
#include "util/json.h"

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
  const bool paths = args.flag("paths"), json = args.flag("json");
  Json all = Json::array();
  if (!json) std::printf("%-22s %-7s %s\n", "BENCHMARK", "LANG", paths ? "FOLDER" : "SUMMARY");
  for (const auto& bench : benches) {
    if (!bench) {
      std::fprintf(stderr, "kopt list: %s\n", bench.error().message.c_str());
      ++broken;
      continue;
    }
    if (json)
      all.push_back({{"name", bench->name},
                     {"kind", bench->is_program() ? "program" : "function"},
                     {"language", to_string(bench->language)},
                     {"summary", bench->summary},
                     {"folder", bench->dir.string()},
                     {"human", bench->has_human},
                     {"check_sizes", bench->check_sizes},
                     {"time_size", bench->time_size}});
    else
      std::printf("%-22s %-7s %s\n", bench->name.c_str(), to_string(bench->language).c_str(),
                  paths ? bench->dir.c_str() : bench->summary.c_str());
  }
  if (json) std::cout << dump_json(all, 2) << "\n";
  return broken ? 1 : 0;
}

}  // namespace

CommandSpec list_command() {
  return {"list",
          "List the benchmarks of the suite with their summaries",
          {{"--suite", "Folder holding benchmark folders (default: kopt's own suite)", "", false,
            false, "KOPT_SUITE"},
           {"--paths", "Show each benchmark's folder instead of its summary", "", true},
           {"--json", "Print the benchmarks as a JSON array", "", true}},
          run_list};
}

}  // namespace kopt::cli
