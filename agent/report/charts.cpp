#include "agent/report/charts.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "agent/report/html.h"
#include "util/files.h"

namespace kopt {

namespace {

constexpr const char* kChartLibrary = "/usr/share/javascript/chart.js/chart.min.js";

// The nearest of ..., 0.5, 1, 2, 5, 10, ... above `value` (or below it): a log axis's bound.
double round_125(double value, bool up) {
  const double decade = std::pow(10.0, std::floor(std::log10(value)));
  if (!up) return value >= 5 * decade ? 5 * decade : value >= 2 * decade ? 2 * decade : decade;
  for (double m : {1.0, 2.0, 5.0})
    if (m * decade >= value) return m * decade;
  return 10 * decade;
}

}  // namespace

const char* status_colour(const std::string& status, bool accepted) {
  if (accepted) return "#137333";
  if (status == "faster") return "#1a73e8";
  if (status == "not-faster" || status == "correct") return "#5f6368";
  if (status == "slower") return "#e37400";
  return "#b3261e";
}

Json chart_line(const std::string& label, const std::string& colour, Json points, bool dashed) {
  Json dataset = {{"type", "line"},        {"label", label},     {"data", std::move(points)},
                  {"borderColor", colour}, {"pointRadius", 0},   {"borderWidth", 1.5},
                  {"fill", false},         {"kind", "reference"}};
  if (dashed) dataset["borderDash"] = {6, 4};
  return dataset;
}

Json chart_axis(const std::string& title, bool log) {
  return {{"type", log ? "logarithmic" : "linear"},
          {"title", {{"display", true}, {"text", title}}}};
}

Json point_detail(const std::string& id, const CandidateVerdict& v, const std::string& why) {
  return {{"id", id},
          {"status", v.status},
          {"speedup", v.speedup},
          {"low", v.ci_low},
          {"high", v.ci_high},
          {"ms", v.candidate_ms},
          {"baseline_ms", v.original_ms},
          {"why", why}};
}

Json trajectory_chart(const RunView& v) {
  Json timed = Json::array(), untimed = Json::array(), best = Json::array();
  Json colours = Json::array(), ids = Json::array();
  double best_so_far = 1, lowest = 1, highest = std::max(1.0, v.human.speedup);
  for (size_t i = 0; i < v.candidates.size(); ++i) {
    const CandidateView& c = v.candidates[i];
    const double x = static_cast<double>(i + 1);
    ids.push_back(c.id);
    if (c.verdict.speedup > 0) {
      Json p = point_detail(c.id, c.verdict, outcome_reason(c));
      p["x"] = x;
      p["y"] = c.verdict.speedup;
      timed.push_back(p);
      colours.push_back(status_colour(c.verdict.status, c.accepted));
      lowest = std::min(lowest, c.verdict.ci_low > 0 ? c.verdict.ci_low : c.verdict.speedup);
      highest = std::max({highest, c.verdict.speedup, c.verdict.ci_high});
      if (c.accepted) best_so_far = c.verdict.speedup;
    } else {
      untimed.push_back(
          {{"x", x}, {"id", c.id}, {"status", c.verdict.status}, {"why", outcome_reason(c)}});
    }
    best.push_back({{"x", x}, {"y", best_so_far}});
  }
  const double floor = lowest / 1.5;
  for (auto& p : untimed) p["y"] = floor;
  const double right = std::max<double>(2, static_cast<double>(v.candidates.size()));
  Json datasets = Json::array();
  datasets.push_back({{"type", "scatter"},
                      {"label", "candidates (interval at the decision's level)"},
                      {"data", timed},
                      {"pointBackgroundColor", colours},
                      {"pointRadius", 5},
                      {"kind", "candidates"}});
  datasets.push_back({{"type", "scatter"},
                      {"label", "not timed (incorrect, refused, no kernel)"},
                      {"data", untimed},
                      {"pointStyle", "crossRot"},
                      {"pointRadius", 7},
                      {"borderColor", "#b3261e"},
                      {"kind", "untimed"}});
  Json best_line = chart_line("best so far", "#137333", best, false);
  best_line["stepped"] = "before";
  datasets.push_back(best_line);
  // The original and human lines span the whole axis, a single candidate's included.
  auto level = [&](double y) {
    return Json::array({{{"x", 0.5}, {"y", y}}, {{"x", right + 0.5}, {"y", y}}});
  };
  datasets.push_back(chart_line("original", "#888888", level(1), true));
  if (v.human.speedup > 0)
    datasets.push_back(chart_line(fmt::format("human ({:.2f}x)", v.human.speedup), "#d97706",
                                  level(v.human.speedup), true));
  Json x = chart_axis("candidate", false);
  x["min"] = 0.5;
  x["max"] = right + 0.5;
  Json y = chart_axis("speedup over the original (log)", true);
  y["min"] = round_125(floor / 1.1, false);  // Every interval inside the plot, the crosses too.
  y["max"] = round_125(highest * 1.1, true);
  return {{"title", "Speedup over the original, per candidate"},
          {"ids", ids},
          {"datasets", datasets},
          {"x", x},
          {"y", y}};
}

Json roofline_chart(const RunView& v, const Roofs& roofs) {
  const double flops = v.reference.flops, bytes = v.reference.bytes;
  if (flops <= 0) return bandwidth_chart(v, roofs);
  if (bytes <= 0 || roofs.peak_gflops <= 0 || roofs.peak_gbytes_per_s <= 0) return Json();
  const double intensity = flops / bytes;
  const double ridge = roofs.peak_gflops / roofs.peak_gbytes_per_s;
  double fastest = roofs.peak_gbytes_per_s;  // The highest memory roof: L1's where measured.
  for (const auto& [name, rate] : roofs.cache_gbytes_per_s) fastest = std::max(fastest, rate);
  const double attainable = std::min(roofs.peak_gflops, fastest * intensity);
  const double dram_attainable = std::min(roofs.peak_gflops, roofs.peak_gbytes_per_s * intensity);
  Json points = Json::array(), colours = Json::array();
  auto add = [&](const std::string& id, double gflops, const CandidateVerdict* verdict,
                 const std::string& colour) {
    if (gflops <= 0) return;
    Json p = verdict ? point_detail(id, *verdict, "") : Json{{"id", id}};
    p["x"] = intensity;
    p["y"] = gflops;
    p["above_roof"] = gflops > attainable * 1.02;
    p["above_dram"] = !p["above_roof"] && gflops > dram_attainable * 1.02;
    points.push_back(p);
    colours.push_back(colour);
  };
  add("original", v.reference.original_gflops, nullptr, "#888888");
  if (!v.human.status.empty()) add("human", v.human.gflops, &v.human, "#d97706");
  for (const auto& c : v.candidates)
    add(c.id, c.verdict.gflops, &c.verdict, status_colour(c.verdict.status, c.accepted));
  const double lo = std::min(intensity, roofs.peak_gflops / fastest) / 20,
               hi = std::max(intensity, ridge) * 20;
  Json datasets = Json::array();
  datasets.push_back({{"type", "scatter"},
                      {"label", "variants (analytic intensity, achieved rate)"},
                      {"data", points},
                      {"pointBackgroundColor", colours},
                      {"pointRadius", 5},
                      {"kind", "variants"}});
  datasets.push_back(chart_line(
      fmt::format("roof: {:.3g} GFLOP/s, {:.3g} GB/s", roofs.peak_gflops, roofs.peak_gbytes_per_s),
      "#333333",
      Json::array({{{"x", lo}, {"y", lo * roofs.peak_gbytes_per_s}},
                   {{"x", ridge}, {"y", roofs.peak_gflops}},
                   {{"x", hi}, {"y", roofs.peak_gflops}}}),
      false));
  static const char* kCacheColours[] = {"#9334e6", "#1a73e8", "#007b83", "#5f6368"};
  for (size_t i = 0; i < roofs.cache_gbytes_per_s.size(); ++i) {
    const auto& [name, rate] = roofs.cache_gbytes_per_s[i];
    datasets.push_back(
        chart_line(fmt::format("{} roof: {:.3g} GB/s", name, rate),
                   kCacheColours[i % std::size(kCacheColours)],
                   Json::array({{{"x", lo}, {"y", lo * rate}},
                                {{"x", roofs.peak_gflops / rate}, {"y", roofs.peak_gflops}}}),
                   true));
  }
  return {{"title", "Roofline: achieved GFLOP/s at the benchmark's analytic intensity"},
          {"datasets", datasets},
          {"x", chart_axis("arithmetic intensity, FLOP per byte (log)", true)},
          {"y", chart_axis("GFLOP/s (log)", true)},
          {"note", roofs.source}};
}

Json samples_chart(const RunView& v) {
  const std::vector<double>* baseline = nullptr;
  const std::vector<double>* candidate = nullptr;
  std::string title, baseline_name, candidate_name;
  if (!v.comparisons.empty()) {
    const ComparisonView& h = v.comparisons.back();
    baseline = &h.baseline_samples_ms;
    candidate = &h.candidate_samples_ms;
    baseline_name = h.baseline;
    candidate_name = h.candidate;
  } else {
    // The best's evaluation against the original; when nothing beat it, the last one timed.
    const CandidateView* shown = find_candidate(v, best_id(v));
    for (auto c = v.candidates.rbegin(); !shown && c != v.candidates.rend(); ++c)
      if (!c->candidate_samples_ms.empty()) shown = &*c;
    if (shown) {
      baseline = &shown->baseline_samples_ms;
      candidate = &shown->candidate_samples_ms;
      baseline_name = "original";
      candidate_name = shown->id;
    } else if (!v.human_samples_ms.empty()) {  // No candidate timed: the human version's.
      baseline = &v.human_baseline_samples_ms;
      candidate = &v.human_samples_ms;
      baseline_name = "original";
      candidate_name = "human";
    }
  }
  if (!baseline || baseline->empty() || candidate->empty()) return Json();
  Json datasets = Json::array();
  const std::pair<const std::vector<double>*, std::string> sides[] = {{baseline, baseline_name},
                                                                      {candidate, candidate_name}};
  for (size_t side = 0; side < 2; ++side) {
    std::vector<double> sorted = *sides[side].first;
    std::sort(sorted.begin(), sorted.end());
    auto quantile = [&](double q) { return sorted[static_cast<size_t>(q * (sorted.size() - 1))]; };
    Json samples = Json::array();
    for (size_t i = 0; i < sides[side].first->size(); ++i)  // Spread across the column.
      samples.push_back(
          {{"x", side + 0.7 + 0.6 * std::fmod(i * 0.618034, 1.0)}, {"y", (*sides[side].first)[i]}});
    datasets.push_back({{"type", "scatter"},
                        {"label", sides[side].second + ": each sample (ms per call)"},
                        {"data", samples},
                        {"pointRadius", 2.5},
                        {"backgroundColor", side ? "#1a73e8" : "#888888"},
                        {"kind", "samples"}});
    datasets.push_back({{"type", "line"},
                        {"label", sides[side].second + ": quartiles and median"},
                        {"data", Json::array({{{"x", side + 0.6}, {"y", quantile(0.25)}},
                                              {{"x", side + 1.4}, {"y", quantile(0.25)}},
                                              {{"x", side + 1.4}, {"y", quantile(0.75)}},
                                              {{"x", side + 0.6}, {"y", quantile(0.75)}},
                                              {{"x", side + 0.6}, {"y", quantile(0.25)}},
                                              {{"x", side + 0.6}, {"y", quantile(0.5)}},
                                              {{"x", side + 1.4}, {"y", quantile(0.5)}}})},
                        {"borderColor", "#333333"},
                        {"borderWidth", 1},
                        {"pointRadius", 0},
                        {"kind", "reference"}});
  }
  Json x = chart_axis("", false);
  x["min"] = 0.4;
  x["max"] = 2.6;
  return {{"title", fmt::format("Per-call times: {} against {} (every sample)", candidate_name,
                                baseline_name)},
          {"ids", Json::array({baseline_name, candidate_name})},
          {"datasets", datasets},
          {"x", x},
          {"y", chart_axis("ms per call", false)}};
}

Result<std::string> chart_library() {
  auto text = read_file(kChartLibrary);
  if (!text)
    return fail(std::string("no chart library at ") + kChartLibrary +
                " (Debian's libjs-chart.js; scripts/setup.sh installs it)");
  return *text;
}

std::string chart_script(const Json& charts) {
  // Tooltips name each point; candidates carry their interval as a bar; ticks on log axes are
  // plain numbers; an error anywhere is written into the page, where a reader (and the test)
  // sees it.
  static const char* kDriver = R"JS(
(function () {
  const errors = document.getElementById('chart-errors');
  window.addEventListener('error', e => { errors.textContent += 'chart error: ' + e.message + '\n'; });
  const intervals = {
    id: 'intervals',
    afterDatasetsDraw(chart) {
      const ctx = chart.ctx, y = chart.scales.y;
      chart.data.datasets.forEach((set, i) => {
        if (set.kind !== 'candidates' || !chart.isDatasetVisible(i)) return;
        chart.getDatasetMeta(i).data.forEach((el, j) => {
          const p = set.data[j];
          if (!(p.low > 0 && p.high > 0)) return;
          ctx.save(); ctx.strokeStyle = '#555'; ctx.lineWidth = 1; ctx.beginPath();
          ctx.moveTo(el.x, y.getPixelForValue(p.low)); ctx.lineTo(el.x, y.getPixelForValue(p.high));
          ctx.moveTo(el.x - 4, y.getPixelForValue(p.low)); ctx.lineTo(el.x + 4, y.getPixelForValue(p.low));
          ctx.moveTo(el.x - 4, y.getPixelForValue(p.high)); ctx.lineTo(el.x + 4, y.getPixelForValue(p.high));
          ctx.stroke(); ctx.restore();
        });
      });
    }
  };
  // Each variant's name beside its point (several share the benchmark's one intensity): beside
  // it, else a line higher or lower, else to its left, wherever it overlaps no name already
  // placed and stays inside the plot. The canvas records how many it named and how many of them
  // overlap another (none, unless there was no free place), which the tests read.
  const labels = {
    id: 'labels',
    afterDatasetsDraw(chart) {
      const ctx = chart.ctx, area = chart.chartArea, h = 14, placed = [], items = [];
      const hit = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
      const inside = b => b.x >= area.left && b.x + b.w <= area.right && b.y >= area.top &&
                          b.y + b.h <= area.bottom;
      chart.data.datasets.forEach((set, i) => {
        if (set.kind !== 'variants' || !chart.isDatasetVisible(i)) return;
        chart.getDatasetMeta(i).data.forEach((el, j) => {
          const p = set.data[j];
          const flag = p.above_roof ? ' (above every roof)' : p.above_dram ? ' (above DRAM)' : '';
          items.push({ x: el.x, y: el.y, text: p.id + flag });
        });
      });
      items.sort((a, b) => a.y - b.y);
      ctx.save();
      ctx.font = '11px sans-serif';
      ctx.textBaseline = 'middle';
      let overlaps = 0;
      items.forEach(item => {
        const w = ctx.measureText(item.text).width + 4;
        let box = null;
        for (let step = 0; step < 60 && !box; ++step) {
          const dy = (step % 2 ? 1 : -1) * Math.ceil(step / 2) * h;
          for (const side of [1, -1]) {
            const b = { x: side > 0 ? item.x + 8 : item.x - 8 - w, y: item.y + dy - h / 2, w: w, h: h };
            if (inside(b) && !placed.some(o => hit(o, b))) { box = b; break; }
          }
        }
        if (!box) box = { x: item.x + 8, y: item.y - h / 2, w: w, h: h };
        if (placed.some(o => hit(o, box))) overlaps += 1;
        placed.push(box);
        const left = box.x > item.x;
        if (Math.abs(box.y + h / 2 - item.y) > 1) {
          ctx.strokeStyle = '#999'; ctx.lineWidth = 1; ctx.beginPath();
          ctx.moveTo(item.x + (left ? 5 : -5), item.y);
          ctx.lineTo(left ? box.x : box.x + w, box.y + h / 2); ctx.stroke();
        }
        ctx.fillStyle = '#202124';
        ctx.fillText(item.text, box.x + 2, box.y + h / 2);
      });
      ctx.restore();
      chart.canvas.dataset.labels = placed.length;
      chart.canvas.dataset.labelOverlaps = overlaps;
    }
  };
  // Three significant digits without trailing zeros after the point: 100 stays 100, 2.50 is 2.5.
  const fmt = v => {
    const s = Number(v).toPrecision(3);
    if (s.includes('e')) return s.replace(/\.?0+e/, 'e');
    return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
  };
  function describe(p) {
    if (p.speedup === undefined)
      return p.id + (p.status ? ' ' + p.status : '') + (p.gbs > 0 ? ' ' + fmt(p.gbs) + ' GB/s' : '') +
             (p.above_roof ? ' (ABOVE THE ROOF: check the work or the roofs)' : '') +
             (p.above_dram ? ' (above the DRAM roof: served from cache)' : '') + (p.why ? ': ' + p.why : '');
    let s = p.id + ' ' + p.status + ' ' + fmt(p.speedup) + 'x';
    if (p.low > 0) s += ' [' + fmt(p.low) + ', ' + fmt(p.high) + ']';
    if (p.ms > 0) s += ', ' + fmt(p.ms) + ' ms vs ' + fmt(p.baseline_ms) + ' ms';
    if (p.gbs > 0) s += ', ' + fmt(p.gbs) + ' GB/s';
    if (p.above_roof) s += ' (ABOVE THE ROOF: check the work or the roofs)';
    if (p.above_dram) s += ' (above the DRAM roof: served from cache)';
    return p.why ? [s, p.why] : s;
  }
  let drawn = 0;
  document.querySelectorAll('canvas[data-chart]').forEach(canvas => {
    const spec = KOPT_CHARTS[canvas.dataset.chart];
    if (!spec) return;
    const ids = spec.ids;
    const x = Object.assign({}, spec.x), y = Object.assign({}, spec.y);
    if (ids) {
      x.afterBuildTicks = axis => { axis.ticks = ids.map((_, i) => ({ value: i + 1 })); };
      x.ticks = { autoSkip: true, callback: v => ids[v - 1] !== undefined ? ids[v - 1] : '' };
    }
    if (x.type === 'logarithmic') x.ticks = { callback: v => /^(0\.0*)?[125]/.test(fmt(v)) ? fmt(v) : '' };
    if (y.type === 'logarithmic') y.ticks = { callback: v => /^(0\.0*)?[125]/.test(fmt(v)) ? fmt(v) : '' };
    spec.datasets.forEach(d => {
      if (d.kind === 'variants') d.pointBorderColor = d.data.map(p => p.above_roof ? '#b3261e' : '#000');
      if (d.kind === 'variants') d.pointBorderWidth = d.data.map(p => p.above_roof ? 3 : 1);
    });
    new Chart(canvas, {
      data: { datasets: spec.datasets },
      plugins: [intervals, labels],
      options: {
        animation: false, responsive: false,
        parsing: { xAxisKey: 'x', yAxisKey: 'y' },
        scales: { x: x, y: y },
        plugins: {
          title: { display: true, text: spec.title },
          tooltip: {
            filter: item => item.dataset.kind !== 'reference',
            callbacks: { label: item => describe(item.raw) }
          }
        }
      }
    });
    drawn += 1;
  });
  document.body.dataset.chartsDrawn = drawn;
})();
)JS";
  // Text from a model or a candidate may hold "</script>" or "<!--": every '<' (only ever inside
  // a JSON string) becomes the escape \u003c, which the page's script reads back as '<'.
  std::string data;
  for (char c : dump_json(charts)) data += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return "<script>const KOPT_CHARTS = " + data + ";</script><script>" + kDriver + "</script>";
}

std::string chart_scripts(const Json& charts) {
  auto library = chart_library();
  if (!library)
    return "<p class=incorrect>No charts: " + html_escape(library.error().message) + ".</p>";
  return "<script>" + *library + "</script>" + chart_script(charts);
}

}  // namespace kopt
