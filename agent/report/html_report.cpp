#include "agent/report/html_report.h"

#include <fmt/format.h>

#include "agent/report/svg.h"

namespace kopt {

using svg::escape;

namespace {

const char* kStyle = R"(
body{font-family:system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#222}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:4px 8px;text-align:right}
th{background:#f4f4f4}td.l,th.l{text-align:left}
.faster{color:#137333;font-weight:600}.incorrect,.rejected,.build-failed,.error,.no-candidate{color:#b3261e}
pre{background:#f7f7f7;padding:8px;overflow-x:auto;font-size:12px}
.add{color:#137333}.del{color:#b3261e}.hunk{color:#1a56db}
svg.chart{border:1px solid #ddd;margin:8px 0}svg text{font-size:12px}svg .title{font-size:14px;font-weight:600}
svg .small{font-size:10px}svg .grid{stroke:#eee}
)";

std::string speedup_cell(const CandidateVerdict& v) {
  return v.speedup > 0 ? fmt::format("{:.2f}x [{:.2f}, {:.2f}]", v.speedup, v.ci_low, v.ci_high)
                       : "-";
}

std::string colored_diff(const std::string& diff) {
  std::string out;
  size_t start = 0;
  while (start < diff.size()) {
    size_t end = diff.find('\n', start);
    if (end == std::string::npos) end = diff.size();
    const std::string line = diff.substr(start, end - start);
    const char* cls = line.rfind("@@", 0) == 0  ? "hunk"
                      : line.rfind("+", 0) == 0 ? "add"
                      : line.rfind("-", 0) == 0 ? "del"
                                                : "";
    out += *cls ? fmt::format("<span class=\"{}\">{}</span>\n", cls, escape(line))
                : escape(line) + "\n";
    start = end + 1;
  }
  return out;
}

std::string trajectory(const RunView& v) {
  svg::Chart c{"Speedup over the original, per candidate (intervals at the decision's level)",
               "candidate",
               "speedup",
               false,
               false,
               {},
               {}};
  svg::Line best{{}, "#137333", false, "best so far"};
  double best_so_far = 1;
  int index = 0;
  for (const auto& cand : v.candidates) {
    ++index;
    if (cand.verdict.speedup <= 0) continue;
    c.points.push_back({static_cast<double>(index), cand.verdict.speedup, cand.verdict.ci_low,
                        cand.verdict.ci_high, cand.id, cand.accepted ? "#137333" : "#1f77b4",
                        cand.accepted});
    if (cand.accepted) best_so_far = cand.verdict.speedup;
    best.points.push_back({static_cast<double>(index), best_so_far});
  }
  if (!best.points.empty()) c.lines.push_back(best);
  if (v.human.speedup > 0 && index > 0)
    c.lines.push_back(
        {{{1, v.human.speedup}, {static_cast<double>(std::max(index, 2)), v.human.speedup}},
         "#d97706",
         true,
         "human"});
  c.lines.push_back(
      {{{1, 1}, {static_cast<double>(std::max(index, 2)), 1}}, "#888", true, "original"});
  return svg::render(c);
}

std::string roofline(const RunView& v, const std::optional<Roofs>& roofs) {
  const double flops = v.reference.flops, bytes = v.reference.bytes;
  if (flops <= 0 || bytes <= 0)
    return "<p>No roofline: the benchmark's analytic work gives no floating-point operations.</p>";
  const double intensity = flops / bytes;
  svg::Chart c{"Roofline (analytic intensity, achieved GFLOP/s)",
               "arithmetic intensity (FLOP/byte)",
               "GFLOP/s",
               true,
               true,
               {},
               {}};
  c.points.push_back({intensity, v.reference.original_gflops, 0, 0, "original", "#888", true});
  if (v.human.gflops > 0)
    c.points.push_back({intensity * 1.15, v.human.gflops, 0, 0, "human", "#d97706", true});
  for (const auto& cand : v.candidates)
    if (cand.verdict.gflops > 0)
      c.points.push_back({intensity / 1.15, cand.verdict.gflops, 0, 0, cand.id,
                          cand.accepted ? "#137333" : "#1f77b4", cand.accepted});
  std::string note;
  if (roofs && roofs->peak_gflops > 0 && roofs->peak_gbytes_per_s > 0) {
    const double ridge = roofs->peak_gflops / roofs->peak_gbytes_per_s;
    const double lo = std::min(intensity, ridge) / 20, hi = std::max(intensity, ridge) * 20;
    c.lines.push_back({{{lo, lo * roofs->peak_gbytes_per_s},
                        {ridge, roofs->peak_gflops},
                        {hi, roofs->peak_gflops}},
                       "#444",
                       false,
                       "roof"});
    note = fmt::format("<p>Roofs: {:.3g} GFLOP/s, {:.3g} GB/s ({}).</p>", roofs->peak_gflops,
                       roofs->peak_gbytes_per_s, escape(roofs->source));
  } else {
    note = "<p>No machine model: run <code>kopt machine</code> to draw the roofs.</p>";
  }
  return svg::render(c) + note;
}

std::string summary_table(const RunView& v) {
  std::string out =
      "<table><tr><th class=l>variant</th><th>ms per call</th><th>original's ms in the same "
      "evaluation</th><th>speedup over the original ["
      "CI]</th><th>GFLOP/s</th><th>GB/s</th></tr>";
  out += fmt::format(
      "<tr><td "
      "class=l>original</td><td>{:.4g}</td><td></td><td>1</td><td>{:.3g}</td><td></td></tr>",
      v.reference.original_ms, v.reference.original_gflops);
  if (v.human.status.empty())
    out +=
        "<tr><td class=l>human</td><td colspan=5 class=l>no human version in this "
        "benchmark</td></tr>";
  else
    out += fmt::format(
        "<tr><td "
        "class=l>human</td><td>{:.4g}</td><td>{:.4g}</td><td>{}</td><td>{:.3g}</td><td>{:.3g}"
        "</td></tr>",
        v.human.candidate_ms, v.human.original_ms, speedup_cell(v.human), v.human.gflops,
        v.human.gbytes_per_s);
  for (const auto& c : v.candidates)
    if (c.accepted)
      out += fmt::format(
          "<tr><td class=l>{} (best so far)</td><td>{:.4g}</td><td>{:.4g}</td><td "
          "class=faster>{}</td><td>{:.3g}</td><td>{:.3g}</td></tr>",
          c.id, c.verdict.candidate_ms, c.verdict.original_ms, speedup_cell(c.verdict),
          c.verdict.gflops, c.verdict.gbytes_per_s);
  out += "</table>";
  const Json h = v.summary.is_object() ? v.summary.value("versus_human", Json()) : Json();
  if (h.is_object())
    out += fmt::format(
        "<p>{} timed head to head against the human version in one alternated evaluation: "
        "{:.4g} ms against {:.4g} ms, <b>{:.2f}x [{:.2f}, {:.2f}]</b> ({}).</p>",
        escape(h.value("id", "")), h.value("ms", 0.0), h.value("baseline_ms", 0.0),
        h.value("speedup", 0.0), h.value("ci_low", 0.0), h.value("ci_high", 0.0),
        escape(h.value("status", "")));
  return out;
}

std::string iterations(const RunView& v) {
  std::string out;
  for (const auto& it : v.iterations) {
    out += fmt::format("<h2>Iteration {} (from {}, {}{:.1f}k tokens{})</h2>", it.number,
                       escape(it.best_before), it.tokens_estimated ? "~" : "",
                       (it.input_tokens + it.output_tokens) / 1000.0,
                       it.tokens_estimated ? ", estimated" : "");
    if (!it.analysis.empty()) out += "<h3>Analyst</h3><pre>" + escape(it.analysis) + "</pre>";
    for (const auto& c : v.candidates) {
      if (c.iteration != it.number) continue;
      out += fmt::format("<h3>Candidate {} <span class=\"{}\">{}</span> {}{}</h3>", c.id,
                         c.verdict.status, c.verdict.status, escape(speedup_cell(c.verdict)),
                         c.verdict.candidate_ms > 0
                             ? fmt::format(" ({:.4g} ms; the original {:.4g} ms)",
                                           c.verdict.candidate_ms, c.verdict.original_ms)
                             : "");
      if (!c.summary.empty()) out += "<p>" + escape(c.summary) + "</p>";
      if (!c.verdict.correct() && !c.verdict.reason.empty())
        out += "<p class=incorrect>" + escape(c.verdict.reason) + "</p>";
      if (!c.diff.empty()) out += "<pre>" + colored_diff(c.diff) + "</pre>";
    }
  }
  return out;
}

}  // namespace

std::string render_html_report(const RunView& v, const std::optional<Roofs>& roofs) {
  const std::string id = v.dir.filename().string();
  std::string html = fmt::format(
      "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>kopt run "
      "{}</title><style>{}</style></head><body>",
      escape(id), kStyle);
  html += fmt::format(
      "<h1>kopt run {}</h1><p>Benchmark <b>{}</b>, model <code>{}</code>, status {}{}.</p>",
      escape(id), escape(v.info["benchmark"].value("name", "?")),
      escape(v.info["config"].value("llm", "?")), escape(v.status),
      v.stop_rule.empty() ? "" : " (" + escape(v.stop_rule + ": " + v.stop_reason) + ")");
  html += summary_table(v) + trajectory(v) + roofline(v, roofs) + iterations(v);
  return html + "</body></html>\n";
}

}  // namespace kopt
