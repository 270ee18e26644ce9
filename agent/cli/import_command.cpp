// `kopt import polybench DIR`: the kernels of the user's PolyBench/C tree as a suite, with a
// table of what imported, what checks cleanly, why not, and the original's time.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include <nlohmann/json.hpp>

#include "agent/cli/commands.h"
#include "agent/cli/eval_support.h"
#include "agent/cli/status_line.h"
#include "tools/import/polybench_import.h"
#include "util/strings.h"

namespace kopt::cli {

namespace {

const std::vector<std::string> kDatasets = {"MINI", "SMALL", "MEDIUM", "LARGE", "EXTRALARGE"};

std::string read_dataset(const Args& args) {
  const std::string dataset = args.get("dataset");
  if (std::find(kDatasets.begin(), kDatasets.end(), dataset) == kDatasets.end())
    throw UsageError{"--dataset must be one of " + join(kDatasets, ", ") + ", not '" + dataset +
                     "'"};
  return dataset;
}

// The kernels --only names (all without it); UsageError for a name the tree lacks.
std::vector<PolybenchKernel> chosen(std::vector<PolybenchKernel> kernels, const Args& args) {
  if (!args.has("only")) return kernels;
  std::vector<PolybenchKernel> kept;
  for (const auto& name : split(args.get("only"), ',')) {
    auto it = std::find_if(kernels.begin(), kernels.end(),
                           [&](const PolybenchKernel& k) { return k.name == trim(name); });
    if (it == kernels.end()) throw UsageError{"--only: the tree has no kernel '" + name + "'"};
    kept.push_back(*it);
  }
  return kept;
}

// A reason on the table's one line.
std::string flattened(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text.size() > 240 ? text.substr(0, 240) + "..." : text;
}

void print_table(const std::vector<ImportedKernel>& rows, double seconds) {
  fmt::print("{:<16} {:<8} {:<7} {:>6} {:>10}  {}\n", "kernel", "imported", "check", "n",
             "time (ms)", "sizes; why not");
  int imported = 0, clean = 0;
  for (const auto& r : rows) {
    imported += r.imported;
    clean += r.clean;
    const std::string check = !r.imported ? "-" : r.clean ? "clean" : "FAILED";
    const std::string time = r.imported ? fmt::format("{:.3f}", r.time_ms) : "-";
    fmt::print("{:<16} {:<8} {:<7} {:>6} {:>10}  {}\n", r.name, r.imported ? "yes" : "no", check,
               r.imported ? std::to_string(r.time_size) : "-", time,
               r.reason.empty() ? r.sizes : flattened(r.reason));
  }
  fmt::print("{} of {} imported, {} check cleanly ({:.0f} s)\n", imported, rows.size(), clean,
             seconds);
}

int run_import_polybench(const Args& args) {
  PolybenchImport request;
  request.root = args.get("DIR");
  request.suite = args.has("suite") ? args.get("suite") : "polybench";
  request.dataset = read_dataset(args);
  request.replace = args.flag("force");
  auto found = find_polybench_kernels(request.root);
  if (!found) throw UsageError{found.error().message};
  const auto kernels = chosen(std::move(*found), args);
  EvaluatorSession session(args);
  StatusLine status;
  const auto start = std::chrono::steady_clock::now();
  auto rows =
      import_polybench(session.evaluator(), request, kernels,
                       [&](const std::string& kernel, const std::string& stage) {
                         status.update(fmt::format("kopt import: {}: {}...", kernel, stage));
                       });
  status.clear();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (args.flag("json")) {
    Json report = to_json(rows, request);
    report["seconds"] = seconds;
    fmt::print("{}\n", dump_json(report, 2));
  } else {
    print_table(rows, seconds);
  }
  const bool all = std::all_of(rows.begin(), rows.end(), [](const auto& r) { return r.imported; });
  return all ? kExitOk : kExitFailed;
}

}  // namespace

CommandSpec import_polybench_command() {
  std::vector<OptionSpec> options = {
      {"DIR", "Your PolyBench/C 4.2 tree (the folder with utilities/polybench.h)", "", false, true},
      {"--only", "KERNEL,KERNEL: only these kernels (names as in the tree: gemm, fdtd-2d)"},
      {"--dataset", "The PolyBench dataset whose sizes are the time size: " + join(kDatasets, ", "),
       "MEDIUM"},
      {"--force", "Replace the kernels' folders where they exist", "", true},
      {"--json", "Print the table as JSON", "", true}};
  for (auto& o : evaluator_options()) options.push_back(o);
  for (auto& o : options)
    if (o.name == "--suite")
      o.help = "Folder to make the suite in, one folder per kernel (default: ./polybench)";
  return {"import polybench",
          "Make a suite of the kernels of your PolyBench/C tree, each checked and timed", options,
          run_import_polybench};
}

}  // namespace kopt::cli
