#include <cstdio>

#include <fmt/format.h>

#include "agent/cli/commands.h"
#include "agent/report/html_report.h"
#include "util/files.h"

namespace kopt::cli {

namespace {

int run_report(const Args& args) {
  const std::string root = args.has("out") ? args.get("out") : default_runs_root().string();
  auto dir = find_run(args.get("RUN"), root);
  if (!dir) throw UsageError{dir.error().message};
  auto view = load_run_view(*dir);
  if (!view) throw UsageError{view.error().message};
  std::optional<Roofs> roofs;
  if (args.has("peak-gflops") && args.has("peak-gbs"))
    roofs = Roofs{args.get_double("peak-gflops"), args.get_double("peak-gbs"),
                  "given on the command line"};
  const std::filesystem::path file =
      args.has("html") ? std::filesystem::path(args.get("html")) : *dir / "report.html";
  if (auto st = write_file(file, render_html_report(*view, roofs)); !st)
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
           {"--peak-gflops", "Peak GFLOP/s for the roofs (default: the measured machine model)"},
           {"--peak-gbs", "Peak memory bandwidth in GB/s for the roofs"},
           {"--out", "Folder of runs (default: $KOPT_RUNS or ./runs)"}},
          run_report};
}

}  // namespace kopt::cli
