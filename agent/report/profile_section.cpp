#include "agent/report/profile_section.h"

#include <fmt/format.h>

#include "agent/record/run_record.h"
#include "agent/report/html.h"
#include "util/json.h"

namespace kopt {

namespace {

constexpr size_t kTopLines = 8;

// The hottest lines of a kopt-profile/1 document, as a table; empty when it has none.
std::string lines_table(const Json& data) {
  const Json lines = json_member(data, "lines");
  if (!lines.is_array() || lines.empty()) return "";
  std::string out =
      "<table><tr><th>share</th><th>line</th><th class=l>code (share includes the functions it "
      "calls)</th></tr>";
  for (size_t i = 0; i < lines.size() && i < kTopLines; ++i) {
    const Json& l = lines[i];
    if (!l.is_object()) continue;
    out += fmt::format(
        "<tr><td>{:.1f}%</td><td>{}</td><td class=l><code class=language-cpp>{}</code></td></tr>",
        100 * l.value("share", 0.0), l.value("line", 0), html_escape(json_text(l, "code")));
  }
  return out + "</table>";
}

// The file a candidate's source was kept in, relative to the current folder as the run's
// folder was given.
std::string kernel_file(const RunView& v, const std::string& id) {
  const std::filesystem::path dir = candidate_folder(v.dir, id);
  for (const char* name : {"kernel.cpp", "kernel.cu"})
    if (std::filesystem::exists(dir / name)) return (dir / name).string();
  return (dir / "kernel.cpp").string();
}

std::string never_profiled(const RunView& v, const std::string& id) {
  const std::string bench = json_text(json_member(v.info, "benchmark"), "name", "BENCH");
  if (id == "original")
    return fmt::format(
        "<p>The original was never profiled in this run (the loop profiles the best when an "
        "iteration begins, and none began). <code>kopt profile {}</code> profiles it.</p>",
        html_escape(bench));
  return fmt::format(
      "<p>{} was never profiled: the loop profiles the best when an iteration begins, and the "
      "run ended before one began from it. <code>kopt profile {} --variant {}</code> profiles "
      "it.</p>",
      html_escape(id), html_escape(bench), html_escape(kernel_file(v, id)));
}

std::string profile_html(const RunView& v, const std::string& id, const std::string& title) {
  std::string out = "<h3>" + html_escape(title) + "</h3>";
  auto found = v.profiles.find(id);
  if (found == v.profiles.end()) return out + never_profiled(v, id);
  const ProfileView& p = found->second;
  const std::string table = lines_table(p.data);
  if (table.empty()) return out + "<pre>" + html_escape(p.text) + "</pre>";
  const std::string header = p.text.substr(0, p.text.find('\n'));
  return out + "<p>" + html_escape(header) + "</p>" + table;
}

}  // namespace

std::string profiles_section(const RunView& v) {
  const std::string best = best_id(v);
  std::string out = "<h2 id=profiles>Where the time goes: the original and the best</h2>";
  out += profile_html(v, "original", "The original");
  if (best == "original") return out + "<p>Nothing beat the original: it is the run's best.</p>";
  return out + profile_html(v, best, "The best, " + best);
}

}  // namespace kopt
