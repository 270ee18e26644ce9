// Small SVG charts for the HTML report: log-scaled axes, points, lines and labels, written
// as text with no scripts and no external resources.
#pragma once

#include <string>
#include <vector>

namespace kopt::svg {

/// One plotted point.
struct Point {
  double x = 0, y = 0;
  double y_low = 0, y_high = 0;  ///< Error bar (0, 0: none).
  std::string label;
  std::string color = "#1f77b4";
  bool filled = true;
};

/// A line through data points (a roof, a trajectory).
struct Line {
  std::vector<std::pair<double, double>> points;
  std::string color = "#888";
  bool dashed = false;
  std::string label;
};

/// A chart of points and lines on linear or logarithmic axes.
struct Chart {
  std::string title, x_label, y_label;
  bool log_x = false, log_y = false;
  std::vector<Point> points;
  std::vector<Line> lines;
  int width = 720, height = 380;
};

/// The chart as an <svg> element.
std::string render(const Chart& chart);

/// Escapes text for HTML and SVG.
std::string escape(const std::string& text);

}  // namespace kopt::svg
