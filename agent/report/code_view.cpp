#include "agent/report/code_view.h"

#include <fmt/format.h>

#include "agent/record/diff.h"
#include "agent/report/html.h"
#include "util/files.h"

namespace kopt {

namespace {

constexpr const char* kHighlightDir = "/usr/share/javascript/highlight.js/";

// Highlights every <code class=language-cpp> (a diff's lines one by one) with whichever
// highlight.js Debian ships: version 9 and 10 take (language, code), 11 takes (code, options).
constexpr const char* kHighlightDriver = R"JS(
(function () {
  if (typeof hljs === 'undefined') return;
  const major = parseInt(String(hljs.versionString || '9').split('.')[0], 10);
  const cpp = code => major >= 11 ? hljs.highlight(code, { language: 'cpp', ignoreIllegals: true }).value
                                  : hljs.highlight('cpp', code, true).value;
  let done = 0;
  document.querySelectorAll('code.language-cpp').forEach(el => {
    el.innerHTML = cpp(el.textContent);
    done += 1;
  });
  document.body.dataset.highlighted = done;
})();
)JS";

// The library's text made safe to inline: the page's browser test refuses any "@import" in the
// page (a style sheet fetched from outside), and the library names Objective-C's @import in a
// string, where "\u0069" reads as the same "i".
std::string inlinable(std::string script) {
  for (size_t at = script.find("@import"); at != std::string::npos; at = script.find("@import", at))
    script.replace(at + 1, 1, "\\u0069");
  return script;
}

}  // namespace

std::string diff_html(const std::string& diff) {
  std::string out = "<pre class=diff>";
  for_each_diff_line(diff, [&](std::string_view line, DiffLine kind) {
    if (kind == DiffLine::file || kind == DiffLine::hunk) {
      out += fmt::format("<span class={}>{}</span>\n", kind == DiffLine::file ? "file" : "hunk",
                         html_escape(std::string(line)));
      return;
    }
    const char* cls = kind == DiffLine::added ? "add" : kind == DiffLine::removed ? "del" : "ctx";
    const std::string mark(line.substr(0, 1)), code(line.empty() ? "" : line.substr(1));
    out += fmt::format("<span class={}>{}<code class=language-cpp>{}</code></span>\n", cls,
                       html_escape(mark), html_escape(code));
  });
  return out + "</pre>";
}

std::string source_html(const std::string& source, const std::string& id) {
  return fmt::format("<pre id=\"{}\"><code class=language-cpp>{}</code></pre>", html_escape(id),
                     html_escape(source));
}

Result<std::string> highlight_library() {
  const std::string dir = kHighlightDir;
  auto script = read_file(dir + "highlight.min.js");
  if (!script)
    return fail("no highlight.js at " + dir +
                "highlight.min.js (Debian's libjs-highlight.js; scripts/setup.sh installs it)");
  auto style = read_file(dir + "styles/github.css");
  return "<style>" + (style ? *style : std::string()) + "</style><script>" + inlinable(*script) +
         "</script>";
}

std::string highlight_scripts() {
  auto library = highlight_library();
  if (!library)
    return "<!-- code not highlighted: " + html_escape(library.error().message) + " -->";
  return *library + "<script>" + kHighlightDriver + "</script>";
}

}  // namespace kopt
