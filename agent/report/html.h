// What every kopt HTML page shares: escaping and the style sheet.
#pragma once

#include <string>

#include "util/json.h"

namespace kopt {

/// `text` with <, >, & and " escaped, for HTML text and attribute values.
std::string html_escape(const std::string& text);

/// The style sheet of kopt's pages (a run's report, a campaign's).
extern const char* const kReportStyle;

/// A chart's canvas (drawn by the page's chart script from the spec of the same name), or a
/// paragraph saying why it is missing when `spec` is null.
std::string chart_canvas(const char* name, const Json& spec, const std::string& missing);

}  // namespace kopt
