// Code on kopt's pages: kernel sources and diffs as HTML, highlighted in the page by
// highlight.js (Debian's libjs-highlight.js, inlined so the page needs no network); without the
// library they stay plain, escaped text.
#pragma once

#include <string>

#include "util/result.h"

namespace kopt {

/// A unified diff as a <pre class=diff>: each line marked added, removed, hunk or file, the code
/// of each added, removed and context line a <code class=language-cpp> the highlighter colours.
std::string diff_html(const std::string& diff);

/// A whole source file as a <pre id=ID><code class=language-cpp>.
std::string source_html(const std::string& source, const std::string& id);

/// The highlighter's text (its script and its style sheet), from Debian's package; the Error
/// names the package.
Result<std::string> highlight_library();

/// What highlights the page's code: the library inlined, its style and the script that runs it
/// over every <code class=language-cpp> (setting <body data-highlighted=N>); or, without the
/// library, a comment saying why the code is plain.
std::string highlight_scripts();

}  // namespace kopt
