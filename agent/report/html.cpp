#include "agent/report/html.h"

#include <fmt/format.h>

namespace kopt {

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
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

const char* const kReportStyle = R"(
body{font-family:system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#222}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:4px 8px;text-align:right}
th{background:#f4f4f4}td.l,th.l{text-align:left}td.runs{white-space:nowrap}
.faster{color:#137333;font-weight:600}.incorrect,.rejected,.build-failed,.error,.no-candidate,.failed,.interrupted{color:#b3261e}
pre{background:#f7f7f7;padding:8px;overflow-x:auto;font-size:12px}
.add{color:#137333;background:#e6ffec}.del{color:#b3261e;background:#ffebe9}.hunk{color:#1a56db}
.file{font-weight:600}pre code{background:none;padding:0}pre.diff code{display:inline}
td code{font-size:12px;white-space:pre}
canvas{border:1px solid #ddd;margin:8px 0}#chart-errors{color:#b3261e;white-space:pre}
.decision{color:#444}tr.h2h td{color:#555;font-size:13px}table.provenance td,table.provenance th{font-size:13px}
.analysis{background:#fafafa;border-left:3px solid #ddd;padding:4px 12px}
)";

std::string chart_canvas(const char* name, const Json& spec, const std::string& missing) {
  if (spec.is_null()) return "<p>" + html_escape(missing) + "</p>";
  std::string out = fmt::format("<canvas data-chart=\"{}\" width=1000 height=420></canvas>", name);
  if (spec.contains("note")) out += "<p>Roofs: " + html_escape(spec.value("note", "")) + ".</p>";
  return out;
}

}  // namespace kopt
