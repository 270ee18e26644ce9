#include <cstdio>

#include <fmt/format.h>

#include "agent/cli/commands.h"
#include "agent/cli/run_options.h"
#include "agent/report/html_report.h"
#include "util/files.h"

namespace kopt::cli {

namespace {

// The roofs of the machine the run's own roofline tool used, in the precision it was limited by.
std::optional<Roofs> recorded_roofs(const RunView& view) {
  if (!view.peaks.is_object()) return std::nullopt;
  const double flops = view.peaks.value(view.precision, 0.0);
  const double bandwidth = view.peaks.value("dram_bandwidth", 0.0);
  if (flops <= 0 || bandwidth <= 0) return std::nullopt;
  return Roofs{
      flops / 1e9, bandwidth / 1e9,
      fmt::format("{}'s peak {} FLOP/s and DRAM bandwidth, as the run's roofline tool used them",
                  view.peaks.value("name", "the machine's"), view.precision)};
}

int run_report(const Args& args) {
  const std::filesystem::path dir = run_dir(args);
  const RunView view = open_run_view(dir);
  std::optional<Roofs> roofs = recorded_roofs(view);
  if (args.has("peak-gflops") && args.has("peak-gbs"))
    roofs = Roofs{args.get_double("peak-gflops"), args.get_double("peak-gbs"),
                  "given on the command line"};
  const std::filesystem::path file =
      args.has("html") ? std::filesystem::path(args.get("html")) : dir / "report.html";
  if (auto st = write_file(file, render_html_report(view, roofs)); !st)
    throw UsageError{st.error().message};
  fmt::print("{}\n", file.string());
  return 0;
}

}  // namespace

CommandSpec report_command() {
  return {"report",
          "Write a self-contained HTML report of a run: trajectory, roofline, reasoning, diffs",
          {{"RUN", "Run folder, name or id", "", false, true},
           {"--html", "Where to write the page (default: RUN/report.html)"},
           {"--peak-gflops",
            "Peak GFLOP/s for the roofs (default: the machine the run's roofline tool used)"},
           {"--peak-gbs", "Peak memory bandwidth in GB/s for the roofs"},
           {"--out", "Folder of runs (default: $KOPT_RUNS or ./runs)"}},
          run_report};
}

}  // namespace kopt::cli
