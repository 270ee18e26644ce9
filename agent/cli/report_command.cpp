#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "agent/cli/commands.h"
#include "agent/cli/experiment.h"
#include "agent/cli/run_options.h"
#include "agent/report/campaign_report.h"
#include "agent/report/campaign_view.h"
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
  Roofs roofs{
      flops / 1e9, bandwidth / 1e9,
      fmt::format("{}'s peak {} FLOP/s and DRAM bandwidth{}, as the run's roofline tool "
                  "used them",
                  view.peaks.value("name", "the machine's"), view.precision,
                  view.peaks.contains("cache_bandwidth") ? " (and each cache level's)" : "")};
  roofs.peak_int_gops = view.peaks.value("int", 0.0) / 1e9;
  for (const Json& level : view.peaks.value("cache_bandwidth", Json::array()))
    if (level.is_object() && level.value("bandwidth", 0.0) > 0)
      roofs.cache_gbytes_per_s.emplace_back(fmt::format("L{}", level.value("level", 0)),
                                            level.value("bandwidth", 0.0) / 1e9);
  return roofs;
}

std::optional<Roofs> roofs_for(const Args& args, const RunView& view) {
  if (args.has("peak-gflops") && args.has("peak-gbs"))
    return Roofs{args.get_double("peak-gflops"), args.get_double("peak-gbs"),
                 "given on the command line"};
  return recorded_roofs(view);
}

// The lowest and highest 1-minute load average the runs recorded, at their starts and ends.
std::string load_range(const std::vector<RunView>& views) {
  std::vector<double> loads;
  for (const RunView& view : views)
    for (const Json* at : {&json_member(json_member(view.info, "host"), "load_at_start"),
                           &json_member(view.summary, "load_at_end")})
      if (at->is_array() && !at->empty() && (*at)[0].is_number())
        loads.push_back((*at)[0].get<double>());
  if (loads.empty()) return "";
  const auto [low, high] = std::minmax_element(loads.begin(), loads.end());
  return fmt::format("1-minute load average from {:.2f} to {:.2f} over the runs' starts and ends",
                     *low, *high);
}

// Where the campaign's runs were made: each of host, cpu, compiler, flags, kopt and model with
// its distinct values over the runs, the dates from the first run's start to the last one's
// end, and the range of the load.
std::vector<std::pair<std::string, std::string>> campaign_provenance(
    const std::vector<RunView>& views) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* label : {"host", "cpu", "compiler", "flags", "kopt", "model"}) {
    std::vector<std::string> values;
    for (const RunView& view : views)
      for (const auto& [name, value] : provenance(view))
        if (name == label && std::find(values.begin(), values.end(), value) == values.end())
          values.push_back(value);
    std::string joined;
    for (const auto& v : values) joined += (joined.empty() ? "" : "; ") + v;
    if (!joined.empty()) out.emplace_back(label, joined);
  }
  std::string first, last;
  for (const RunView& view : views) {
    const std::string created = view.info.value("created", "");
    const std::string finished = view.summary.is_object() ? view.summary.value("finished", "") : "";
    if (!created.empty() && (first.empty() || created < first)) first = created;
    last = std::max({last, created, finished});
  }
  if (!first.empty()) out.emplace_back("date", first + " to " + last);
  if (const std::string load = load_range(views); !load.empty()) out.emplace_back("load", load);
  return out;
}

// A campaign's page, after each of its runs' own (the links): DIR/report.html.
int report_campaign(const Args& args, const std::filesystem::path& folder) {
  auto lines = read_index(folder);
  if (!lines) throw UsageError{lines.error().message};
  const std::vector<Json> latest = latest_per_cell(*lines);
  std::filesystem::path name = std::filesystem::absolute(folder).lexically_normal();
  if (name.filename().empty()) name = name.parent_path();
  CampaignPage page{name.filename().string(), compare_campaign(latest), {}, {}};
  std::vector<RunView> views;
  for (const Json& line : latest) {
    // The index names a run folder inside the campaign: one plain path component, never a path
    // that would put a page elsewhere.
    const std::string run = line.value("run", "");
    const std::filesystem::path component(run);
    if (run.empty() || component.has_parent_path() || component.is_absolute() || run == "." ||
        run == ".." || !std::filesystem::exists(folder / run / "run.json"))
      continue;
    try {  // A run whose records cannot be read is linked to its folder instead.
      views.push_back(open_run_view(folder / run));
      const RunView& view = views.back();
      if (write_file_atomic(folder / run / "report.html",
                            render_html_report(view, roofs_for(args, view))))
        page.run_links[run] = run + "/report.html";
    } catch (const std::exception& e) {
      std::fprintf(stderr, "kopt report: %s: no page (%s)\n", run.c_str(), e.what());
    }
  }
  page.provenance = campaign_provenance(views);
  const std::filesystem::path file =
      args.has("html") ? std::filesystem::path(args.get("html")) : folder / "report.html";
  if (auto st = write_file_atomic(file, render_campaign_report(page)); !st)
    throw UsageError{st.error().message};
  fmt::print("{}\n", file.string());
  return 0;
}

int run_report(const Args& args) {
  const std::filesystem::path given = args.get("RUN");
  if (std::filesystem::exists(given / kIndexFileName)) return report_campaign(args, given);
  const std::filesystem::path dir = run_dir(args);
  const RunView view = open_run_view(dir);
  const std::filesystem::path file =
      args.has("html") ? std::filesystem::path(args.get("html")) : dir / "report.html";
  // Atomic: a report.html that is a link (a run folder from elsewhere) is replaced, never
  // followed to overwrite the file it names.
  if (auto st = write_file_atomic(file, render_html_report(view, roofs_for(args, view))); !st)
    throw UsageError{st.error().message};
  fmt::print("{}\n", file.string());
  return 0;
}

}  // namespace

CommandSpec report_command() {
  return {
      "report",
      "Write a self-contained HTML report of a run (trajectory, roofline, reasoning, diffs), or "
      "of a campaign (its comparison drawn, each run linked to its own report)",
      {{"RUN", "Run folder, name or id; or a campaign folder (kopt campaign --into)", "", false,
        true},
       {"--html", "Where to write the page (default: RUN/report.html)"},
       {"--peak-gflops",
        "Peak GFLOP/s for the roofs (default: the machine the run's roofline tool used)"},
       {"--peak-gbs", "Peak memory bandwidth in GB/s for the roofs"},
       {"--out", "Folder of runs (default: $KOPT_RUNS or ./runs)"}},
      run_report};
}

}  // namespace kopt::cli
