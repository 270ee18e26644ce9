#include "agent/report/html_report.h"

#include <cmark.h>
#include <fmt/format.h>

#include <cstdlib>

#include "agent/report/code_view.h"
#include "agent/report/html.h"
#include "agent/report/profile_section.h"

namespace kopt {

namespace {

std::string speedup_cell(const CandidateVerdict& v) {
  return v.speedup > 0 ? fmt::format("{:.2f}x [{:.2f}, {:.2f}]", v.speedup, v.ci_low, v.ci_high)
                       : "-";
}

// The candidates never timed, below the trajectory.
std::string untimed_list(const RunView& v) {
  std::string untimed;
  for (const auto& c : v.candidates)
    if (c.verdict.speedup <= 0)
      untimed += fmt::format("{}<a href=\"#c{}\">{}</a> ({})", untimed.empty() ? "" : ", ",
                             html_escape(c.id), html_escape(c.id), html_escape(c.verdict.status));
  return untimed.empty() ? ""
                         : "<p>Never timed (crosses at the chart's floor): " + untimed + ".</p>";
}

// Where and how the run was made: host, CPU, compiler, flags, kopt, dates, model, load.
std::string provenance_table(const RunView& v) {
  std::string out = "<table class=provenance>";
  for (const auto& [label, value] : provenance(v))
    out += fmt::format("<tr><th class=l>{}</th><td class=l>{}</td></tr>", html_escape(label),
                       html_escape(value));
  return out + "</table>";
}

// The analyst's answer, rendered from Markdown (raw HTML in it is dropped).
std::string markdown(const std::string& text) {
  char* html = cmark_markdown_to_html(text.data(), text.size(), CMARK_OPT_DEFAULT);
  std::string out = html ? html : "";
  std::free(html);
  return "<div class=analysis>" + out + "</div>";
}

std::string ms_cell(double ms) {
  return ms > 0 ? fmt::format("{:.4g}", ms) : "";
}

// Every evaluation of the run: what was timed against what, and what was decided and why.
std::string evaluations_table(const RunView& v) {
  std::string out =
      "<table><tr><th>iter</th><th class=l>candidate</th><th class=l>from</th><th "
      "class=l>verdict</th><th>baseline ms</th><th>candidate ms</th><th>speedup "
      "[CI]</th><th class=l>decision and reason</th></tr>";
  for (const auto& c : v.candidates) {
    out += fmt::format(
        "<tr><td>{}</td><td class=l><a href=\"#c{}\">{}</a></td><td class=l>{}</td><td "
        "class=\"l {}\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=l>{}{}{}</td></tr>",
        c.iteration, html_escape(c.id), html_escape(c.id), html_escape(c.parent),
        html_escape(c.verdict.status), html_escape(c.verdict.status),
        ms_cell(c.verdict.original_ms), ms_cell(c.verdict.candidate_ms),
        html_escape(speedup_cell(c.verdict)), c.accepted ? "<b>" : "",
        html_escape(outcome_reason(c)), c.accepted ? "</b>" : "");
    for (const auto& h : v.comparisons)
      if (h.candidate == c.id)
        out += fmt::format(
            "<tr class=h2h><td></td><td class=l colspan=2>head to head against {}</td><td "
            "class=l>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=l>one alternated "
            "evaluation</td></tr>",
            html_escape(h.baseline), html_escape(h.verdict.status), ms_cell(h.verdict.original_ms),
            ms_cell(h.verdict.candidate_ms), html_escape(speedup_cell(h.verdict)));
  }
  return out + "</table>";
}

std::string summary_table(const RunView& v) {
  if (v.reference.status.empty() && v.candidates.empty())
    return "<p>Nothing was timed: the run stopped before its first evaluation.</p>";
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
  else if (v.human.speedup <= 0)
    out += fmt::format("<tr><td class=l>human</td><td colspan=5 class=\"l {}\">{}: {}</td></tr>",
                       html_escape(v.human.status), html_escape(v.human.status),
                       html_escape(v.human.reason));
  else
    out += fmt::format(
        "<tr><td "
        "class=l>human</td><td>{:.4g}</td><td>{:.4g}</td><td>{}</td><td>{:.3g}</td><td>{:.3g}"
        "</td></tr>",
        v.human.candidate_ms, v.human.original_ms, speedup_cell(v.human), v.human.gflops,
        v.human.gbytes_per_s);
  const std::string best = best_id(v);
  for (const auto& c : v.candidates)
    if (c.accepted)
      out += fmt::format(
          "<tr><td class=l>{}</td><td>{:.4g}</td><td>{:.4g}</td><td "
          "class=faster>{}</td><td>{:.3g}</td><td>{:.3g}</td></tr>",
          c.id == best ? fmt::format("<a href=\"#best-source\">{}</a> (the run's best)", c.id)
                       : c.id + " (promoted, later surpassed)",
          c.verdict.candidate_ms, c.verdict.original_ms, speedup_cell(c.verdict), c.verdict.gflops,
          c.verdict.gbytes_per_s);
  out += "</table>";
  const Json h = v.summary.is_object() ? v.summary.value("versus_human", Json()) : Json();
  if (h.is_object())
    out += fmt::format(
        "<p>{} timed head to head against the human version in one alternated evaluation: "
        "{:.4g} ms against {:.4g} ms, <b>{:.2f}x [{:.2f}, {:.2f}]</b> ({}).</p>",
        html_escape(h.value("id", "")), h.value("ms", 0.0), h.value("baseline_ms", 0.0),
        h.value("speedup", 0.0), h.value("ci_low", 0.0), h.value("ci_high", 0.0),
        html_escape(h.value("status", "")));
  return out;
}

// The best's whole source (the original's when nothing beat it), the target of the page's links.
std::string best_source(const RunView& v) {
  const std::string best = best_id(v);
  const CandidateView* c = find_candidate(v, best);
  auto text = c ? Result<std::string>(c->source) : benchmark_source(v, "original");
  std::string out = "<h2>The best's source: " + html_escape(best) + "</h2>";
  if (!text) return out + "<p id=best-source>" + html_escape(text.error().message) + ".</p>";
  if (!c) out += "<p>Nothing beat the original; its source:</p>";
  return out + source_html(*text, "best-source");
}

std::string iterations(const RunView& v) {
  std::string out;
  for (const auto& it : v.iterations) {
    out += fmt::format("<h2>Iteration {} (from {}, {}{:.1f}k tokens{})</h2>", it.number,
                       html_escape(it.best_before), it.tokens_estimated ? "~" : "",
                       (it.input_tokens + it.output_tokens) / 1000.0,
                       it.tokens_estimated ? ", estimated" : "");
    // The evidence the analyst was given: where the time of the iteration's starting point goes.
    if (!it.profile.empty())
      out += fmt::format("<h3>Profile of {}</h3><pre>{}</pre>", html_escape(it.best_before),
                         html_escape(it.profile));
    if (!it.roofline.empty())
      out += fmt::format("<h3>Roofline of {}</h3><pre>{}</pre>", html_escape(it.best_before),
                         html_escape(it.roofline));
    if (!it.analysis.empty()) out += "<h3>Analyst</h3>" + markdown(it.analysis);
    for (const auto& c : v.candidates) {
      if (c.iteration != it.number) continue;
      out += fmt::format("<h3 id=\"c{}\">Candidate {} <span class=\"{}\">{}</span> {}{}</h3>",
                         html_escape(c.id), html_escape(c.id), html_escape(c.verdict.status),
                         html_escape(c.verdict.status), html_escape(speedup_cell(c.verdict)),
                         c.verdict.candidate_ms > 0
                             ? fmt::format(" ({:.4g} ms; the original {:.4g} ms)",
                                           c.verdict.candidate_ms, c.verdict.original_ms)
                             : "");
      if (!c.summary.empty()) out += "<p>" + html_escape(c.summary) + "</p>";
      if (const std::string why = outcome_reason(c); !why.empty())
        out += fmt::format("<p class=\"{}\">{}</p>", c.verdict.correct() ? "decision" : "incorrect",
                           html_escape(why));
      if (!c.diff.empty()) out += diff_html(c.diff);
    }
  }
  return out;
}

}  // namespace

std::string render_html_report(const RunView& v, const std::optional<Roofs>& roofs) {
  const std::string id = v.dir.filename().string();
  std::string html = fmt::format(
      "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>kopt run "
      "{}</title><style>{}</style></head><body><div id=chart-errors></div>",
      html_escape(id), kReportStyle);
  html += fmt::format(
      "<h1>kopt run {}</h1><p>Benchmark <b>{}</b>, status {}{}. <a href=\"#best-source\">The "
      "best's source</a>, <a href=\"#profiles\">where the time goes</a>.</p>",
      html_escape(id), html_escape(v.info["benchmark"].value("name", "?")),
      html_escape(v.status == "stopped"
                      ? "stopped before it finished (kopt resume " + id + " continues it)"
                      : v.status),
      v.stop_rule.empty() ? "" : " (" + html_escape(v.stop_rule + ": " + v.stop_reason) + ")");
  Json charts = {{"trajectory", trajectory_chart(v)},
                 {"roofline", roofs ? roofline_chart(v, *roofs) : Json()},
                 {"samples", samples_chart(v)}};
  html += provenance_table(v) + summary_table(v);
  if (v.candidates.empty()) {
    html += "<p>No candidate yet.</p>";
    charts["trajectory"] = Json();
  } else {
    html += "<h2>Evaluations</h2>" + evaluations_table(v) + "<h2>Trajectory</h2>" +
            chart_canvas("trajectory", charts["trajectory"], "") + untimed_list(v);
  }
  html += "<h2>Timing samples</h2>" +
          chart_canvas("samples", charts["samples"], "Nothing was timed in this run.");
  html += "<h2>Roofline</h2>" +
          chart_canvas("roofline", charts["roofline"],
                       v.reference.bytes <= 0
                           ? "No roofline: no evaluation recorded the benchmark's analytic bytes."
                           : "No roofs: the run's roofline tool never ran (it records the "
                             "machine's peaks); give --peak-gflops and --peak-gbs to draw them.");
  html += profiles_section(v) + best_source(v) + iterations(v);
  return html + chart_scripts(charts) + highlight_scripts() + "</body></html>\n";
}

}  // namespace kopt
