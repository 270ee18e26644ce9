#include "agent/report/campaign_report.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include <fmt/format.h>

#include "agent/report/charts.h"
#include "agent/report/html.h"

namespace kopt {

namespace {

constexpr const char* kPalette[] = {"#1a73e8", "#137333", "#b3261e", "#9334e6",
                                    "#e37400", "#007b83", "#5f6368", "#c5221f"};

std::string label_of(const Json& row) {
  return row.value("llm", "") + " · " + row.value("strategy", "");
}

std::vector<std::string> distinct(const Json& rows,
                                  const std::function<std::string(const Json&)>& key) {
  std::vector<std::string> out;
  for (const Json& r : rows)
    if (std::find(out.begin(), out.end(), key(r)) == out.end()) out.push_back(key(r));
  return out;
}

double number(const Json& v) {
  return v.is_number() ? v.get<double>() : 0;
}

// A chart with one point per benchmark for each model x strategy (side by side around the
// benchmark's tick), from `value` (nothing where it gives null), plus `extra` datasets.
Json per_benchmark_chart(const Json& rows, const std::string& title, const Json& y,
                         const std::function<Json(const Json&)>& value, Json extra) {
  const auto benches = distinct(rows, [](const Json& r) { return r.value("benchmark", ""); });
  const auto labels = distinct(rows, label_of);
  Json datasets = Json::array();
  bool any = false;
  for (size_t k = 0; k < labels.size(); ++k) {
    const double offset =
        labels.size() > 1 ? (static_cast<double>(k) / (labels.size() - 1) - 0.5) * 0.4 : 0;
    Json points = Json::array();
    for (const Json& r : rows) {
      if (label_of(r) != labels[k]) continue;
      Json p = value(r);
      if (p.is_null()) continue;
      const auto at = std::find(benches.begin(), benches.end(), r.value("benchmark", ""));
      p["x"] = static_cast<double>(at - benches.begin() + 1) + offset;
      p["id"] = r.value("benchmark", "") + " · " + labels[k];
      points.push_back(p);
      any = true;
    }
    datasets.push_back({{"type", "scatter"},
                        {"label", labels[k]},
                        {"data", points},
                        {"pointBackgroundColor", kPalette[k % std::size(kPalette)]},
                        {"pointRadius", 6},
                        {"kind", "candidates"}});
  }
  if (!any) return nullptr;
  const double right = static_cast<double>(benches.size()) + 0.5;
  for (Json& d : extra) {
    if (d.value("kind", "") != "reference") continue;
    for (Json& p : d["data"]) p["x"] = p["x"].get<double>() < 1 ? 0.5 : right;
  }
  for (Json& d : extra) datasets.push_back(d);
  Json x = chart_axis("benchmark", false);
  x["min"] = 0.5;
  x["max"] = right;
  return {{"title", title}, {"ids", benches}, {"datasets", datasets}, {"x", x}, {"y", y}};
}

Json speedup_chart(const Json& rows) {
  Json human = Json::array();
  const auto benches = distinct(rows, [](const Json& r) { return r.value("benchmark", ""); });
  for (size_t b = 0; b < benches.size(); ++b)
    for (const Json& r : rows)
      if (r.value("benchmark", "") == benches[b] && r["median_human_speedup"].is_number()) {
        human.push_back({{"x", static_cast<double>(b + 1)},
                         {"y", r["median_human_speedup"]},
                         {"id", benches[b] + " · human version"},
                         {"status", "median over its runs"},
                         {"speedup", r["median_human_speedup"]}});
        break;
      }
  Json extra =
      Json::array({{{"type", "scatter"},
                    {"label", "human version"},
                    {"data", human},
                    {"pointStyle", "star"},
                    {"pointRadius", 9},
                    {"borderColor", "#d97706"},
                    {"kind", "human"}},
                   chart_line("original", "#888888",
                              Json::array({{{"x", 0}, {"y", 1}}, {{"x", 1}, {"y", 1}}}), true)});
  return per_benchmark_chart(
      rows,
      "Best speedup over the original: median over seeds, bar from the lowest to the highest run",
      chart_axis("speedup over the original (log)", true),
      [](const Json& r) -> Json {
        if (!r["median_best_speedup"].is_number()) return nullptr;
        double low = 0, high = 0;
        for (const Json& s : r["seeds"]) {
          if (!s["best_speedup"].is_number()) continue;
          const double v = std::max(1.0, s["best_speedup"].get<double>());
          low = low > 0 ? std::min(low, v) : v;
          high = std::max(high, v);
        }
        return {
            {"y", r["median_best_speedup"]},
            {"speedup", r["median_best_speedup"]},
            {"status", fmt::format("median of {} finished runs (range)", r.value("finished", 0))},
            {"low", low},
            {"high", high}};
      },
      extra);
}

Json share_chart(const Json& rows) {
  Json extra =
      Json::array({chart_line("the human version", "#d97706",
                              Json::array({{{"x", 0}, {"y", 100}}, {{"x", 1}, {"y", 100}}}), true),
                   chart_line("the original", "#888888",
                              Json::array({{{"x", 0}, {"y", 0}}, {{"x", 1}, {"y", 0}}}), true)});
  return per_benchmark_chart(
      rows, "Share of the human version's speedup reached, log(best) / log(human), in %",
      chart_axis("% of the human speedup, as log(best) / log(human)", false),
      [](const Json& r) -> Json {
        if (!r["median_human_share"].is_number()) return nullptr;
        const double share = 100 * r["median_human_share"].get<double>();
        return {{"y", share},
                {"speedup", r["median_best_speedup"]},
                {"status", fmt::format("{:.0f}% of the human speedup; best", share)}};
      },
      extra);
}

std::string ratio(const Json& v, const char* format = "{:.2f}x") {
  return v.is_number() ? fmt::format(fmt::runtime(format), v.get<double>()) : "-";
}

std::string models_table(const Json& models) {
  std::string out =
      "<table><tr><th class=l>model</th><th class=l>strategy</th><th>benchmarks</th><th>geometric "
      "mean of the best speedups</th><th>reached the human version</th></tr>";
  for (const Json& m : models)
    out += fmt::format(
        "<tr><td class=l>{}</td><td class=l>{}</td><td>{}</td><td>{}</td><td>{} of {}</td></tr>",
        html_escape(m.value("llm", "")), html_escape(m.value("strategy", "")),
        m.value("benchmarks", 0), ratio(m["geomean_best_speedup"]), m.value("reached_human", 0),
        m.value("benchmarks_with_human", 0));
  return out + "</table>";
}

// A link to a file under the campaign folder: "./" first (a name like "javascript:x" stays a
// path) and every byte but letters, digits and "-._~/" percent-encoded.
std::string relative_href(const std::string& path) {
  std::string out = "./";
  for (unsigned char c : path)
    out += std::isalnum(c) || std::strchr("-._~/", c) ? std::string(1, static_cast<char>(c))
                                                      : fmt::format("%{:02X}", c);
  return out;
}

// Each run of a row, linked to its page.
std::string seed_links(const Json& row, const CampaignPage& page) {
  std::string out;
  for (const Json& s : row["seeds"]) {
    const std::string run = s.value("run", "");
    const std::string text = fmt::format(
        "seed {}: {}", s.value("seed", uint64_t{0}),
        s.value("status", "") == "finished" ? ratio(s["best_speedup"]) : s.value("status", ""));
    auto link = page.run_links.find(run);
    out += (out.empty() ? "" : "<br>") +
           (run.empty() ? html_escape(text)
                        : fmt::format("<a href=\"{}\" class=\"{}\">{}</a>",
                                      html_escape(relative_href(
                                          link != page.run_links.end() ? link->second : run + "/")),
                                      html_escape(s.value("status", "")), html_escape(text)));
  }
  return out;
}

std::string rows_table(const Json& rows, const CampaignPage& page) {
  std::string out =
      "<table><tr><th class=l>benchmark</th><th class=l>model</th><th class=l>strategy</th>"
      "<th>finished</th><th>median best</th><th>top run [CI]</th><th>human</th><th>share of "
      "human</th><th>reached human</th><th>correct / faster / all</th><th>tokens</th><th>cost</th>"
      "<th>wall</th><th class=l>runs</th></tr>";
  for (const Json& r : rows) {
    const Json& top = r["top"];
    out += fmt::format(
        "<tr><td class=l>{}</td><td class=l>{}</td><td class=l>{}</td><td>{} of {}</td>"
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} of {}</td><td>{} / {} / {}</td>"
        "<td>{:.1f}k</td><td>${:.2f}</td><td>{:.0f} s</td><td class=\"l runs\">{}</td></tr>",
        html_escape(r.value("benchmark", "")), html_escape(r.value("llm", "")),
        html_escape(r.value("strategy", "")), r.value("finished", 0), r.value("runs", 0),
        ratio(r["median_best_speedup"]),
        top.is_object() ? fmt::format("{:.2f}x [{:.2f}, {:.2f}]", number(top["speedup"]),
                                      number(top["ci_low"]), number(top["ci_high"]))
                        : "-",
        ratio(r["median_human_speedup"]),
        r["median_human_share"].is_number()
            ? fmt::format("{:.0f}%", 100 * r["median_human_share"].get<double>())
            : "-",
        r.value("reached_human", 0), r.value("finished", 0), r.value("correct", 0),
        r.value("faster", 0), r.value("candidates", 0), r.value("tokens", int64_t{0}) / 1000.0,
        r.value("cost_usd", 0.0), r.value("wall_s", 0.0), seed_links(r, page));
  }
  return out + "</table>";
}

// How many runs ended in each status.
std::string run_counts(const Json& rows) {
  std::map<std::string, int> by;
  int all = 0;
  for (const Json& r : rows)
    for (const Json& s : r["seeds"]) ++by[s.value("status", "")], ++all;
  std::string out = fmt::format("{} runs", all);
  for (const auto& [status, n] : by) out += fmt::format(", {} {}", n, html_escape(status));
  return out;
}

}  // namespace

std::string render_campaign_report(const CampaignPage& page) {
  const Json& rows = page.comparison["rows"];
  std::string html = fmt::format(
      "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>kopt campaign "
      "{0}</title><style>{1}</style></head><body><div id=chart-errors></div><h1>kopt campaign "
      "{0}</h1><p>{2}. An interrupted run is resumed, and a finished one kept, by running the "
      "same kopt campaign again into this folder.</p>",
      html_escape(page.name), kReportStyle, run_counts(rows));
  const Json charts = {{"speedups", speedup_chart(rows)}, {"share", share_chart(rows)}};
  if (!page.provenance.empty()) {
    html += "<table class=provenance>";
    for (const auto& [label, value] : page.provenance)
      html += fmt::format("<tr><th class=l>{}</th><td class=l>{}</td></tr>", html_escape(label),
                          html_escape(value));
    html += "</table>";
  }
  html += "<h2>Per model and strategy</h2>" + models_table(page.comparison["models"]);
  html += "<h2>Best speedup per benchmark</h2>" +
          chart_canvas("speedups", charts["speedups"], "No run has finished yet.");
  html += "<h2>Share of the human speedup</h2>" +
          chart_canvas("share", charts["share"],
                       "No finished run has a human version faster than the original.");
  html += "<h2>Runs</h2>" + rows_table(rows, page) +
          "<p>Median best: the median over seeds of each finished run's best speedup over the "
          "original (1 when none beat it). Top run: the best run's, with its interval at kopt's "
          "decision level. Share of human: log(best) / log(human), the median over seeds: 100% "
          "matches the human version, 0% the original. Reached human: runs whose best was not "
          "significantly slower than the human version, timed head to head.</p>";
  return html + chart_scripts(charts) + "</body></html>\n";
}

}  // namespace kopt
