#include "agent/report/svg.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace kopt::svg {

namespace {

constexpr int kLeft = 70, kRight = 20, kTop = 34, kBottom = 50;

// Maps data to pixels on one axis.
struct Axis {
  double lo, hi;
  bool log;
  int from, to;
  double map(double v) const {
    const double a = log ? std::log10(std::max(v, 1e-300)) : v, l = log ? std::log10(lo) : lo,
                 h = log ? std::log10(hi) : hi;
    return from + (to - from) * (h > l ? (a - l) / (h - l) : 0.5);
  }
};

// 1, 2 or 5 times a power of ten, at least `raw`.
double nice_step(double raw) {
  if (raw <= 0) return 1;
  const double power = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw) return m * power;
  return 10 * power;
}

Axis fit(std::vector<double> values, bool log, int from, int to) {
  values.erase(std::remove_if(values.begin(), values.end(),
                              [&](double v) { return !std::isfinite(v) || (log && v <= 0); }),
               values.end());
  if (values.empty()) return {1, 10, log, from, to};
  double lo = *std::min_element(values.begin(), values.end()),
         hi = *std::max_element(values.begin(), values.end());
  if (log) {
    lo = std::pow(10, std::floor(std::log10(lo)));
    hi = std::pow(10, std::ceil(std::log10(hi * 1.0001)));
  } else {
    const double step = nice_step((hi - lo) / 5);
    lo = std::floor(std::max(0.0, lo - step / 2) / step) * step;
    hi = std::ceil((hi + step / 2) / step) * step;
  }
  return {lo, hi, log, from, to};
}

std::string ticks(const Axis& axis, bool horizontal, int other) {
  std::string out;
  std::vector<double> marks;
  if (axis.log) {
    for (double v = axis.lo; v <= axis.hi * 1.0001; v *= 10) marks.push_back(v);
  } else {
    const double step = nice_step((axis.hi - axis.lo) / 6);
    for (double v = axis.lo; v <= axis.hi + step / 1000; v += step) marks.push_back(v);
  }
  for (double v : marks) {
    const double p = axis.map(v);
    const std::string text = fmt::format("{:.3g}", v);
    if (horizontal)
      out += fmt::format(
          R"svg(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" class="grid"/><text x="{0:.1f}" y="{3}" text-anchor="middle">{4}</text>)svg",
          p, kTop, other, other + 16, text);
    else
      out += fmt::format(
          R"svg(<line x1="{1}" y1="{0:.1f}" x2="{2}" y2="{0:.1f}" class="grid"/><text x="{3}" y="{4:.1f}" text-anchor="end">{5}</text>)svg",
          p, kLeft, other, kLeft - 6, p + 4, text);
  }
  return out;
}

}  // namespace

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string render(const Chart& c) {
  std::vector<double> xs, ys;
  for (const auto& p : c.points) {
    xs.push_back(p.x);
    ys.insert(ys.end(), {p.y, p.y_low > 0 ? p.y_low : p.y, p.y_high > 0 ? p.y_high : p.y});
  }
  for (const auto& l : c.lines)
    for (const auto& [x, y] : l.points) xs.push_back(x), ys.push_back(y);
  const Axis x = fit(xs, c.log_x, kLeft, c.width - kRight),
             y = fit(ys, c.log_y, c.height - kBottom, kTop);
  std::string out = fmt::format(
      R"svg(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" class="chart">)svg",
      c.width, c.height);
  out +=
      fmt::format(R"svg(<text x="{}" y="20" class="title">{}</text>)svg", kLeft, escape(c.title));
  out += ticks(x, true, c.height - kBottom) + ticks(y, false, c.width - kRight);
  out += fmt::format(R"svg(<text x="{}" y="{}" text-anchor="middle">{}</text>)svg",
                     (kLeft + c.width - kRight) / 2, c.height - 10, escape(c.x_label));
  out += fmt::format(
      R"svg(<text x="14" y="{0}" transform="rotate(-90 14 {0})" text-anchor="middle">{1}</text>)svg",
      (kTop + c.height - kBottom) / 2, escape(c.y_label));
  for (const auto& l : c.lines) {
    std::string path;
    for (const auto& [px, py] : l.points)
      path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "M" : " L", x.map(px), y.map(py));
    out += fmt::format(R"svg(<path d="{}" fill="none" stroke="{}" stroke-width="2"{}/>)svg", path,
                       l.color, l.dashed ? R"svg( stroke-dasharray="6 4")svg" : "");
    if (!l.label.empty() && !l.points.empty())
      out += fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" fill="{}" class="small">{}</text>)svg",
                         x.map(l.points.back().first) - 4, y.map(l.points.back().second) - 6,
                         l.color, escape(l.label));
  }
  for (const auto& p : c.points) {
    const double px = x.map(p.x), py = y.map(p.y);
    if (p.y_low > 0 && p.y_high > 0)
      out += fmt::format(
          R"svg(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="{3}"/>)svg", px,
          y.map(p.y_low), y.map(p.y_high), p.color);
    out += fmt::format(
        R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="5" stroke="{}" fill="{}"><title>{}</title></circle>)svg",
        px, py, p.color, p.filled ? p.color : "white", escape(p.label));
    out += fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" class="small">{}</text>)svg", px + 7,
                       py - 7, escape(p.label));
  }
  return out + "</svg>";
}

}  // namespace kopt::svg
