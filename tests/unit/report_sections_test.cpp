// The report's code and profile sections: diffs marked line by line for the highlighter, the
// best's source linked, and the profiles of the original and the best read from the record.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "agent/report/code_view.h"
#include "agent/report/html_report.h"
#include "agent/report/profile_section.h"

namespace kopt {
namespace {

// A licm run whose best, 0002, came from its last iteration: only the original was profiled.
RunView run_with_best_unprofiled() {
  RunView v;
  v.dir = "/runs/r";
  v.info = {{"benchmark", {{"name", "licm"}}}, {"config", {{"llm", "scripted"}}}};
  v.status = "finished";
  for (const char* id : {"0001", "0002"}) {
    CandidateView c;
    c.id = id;
    c.accepted = true;
    c.verdict.status = "faster";
    c.source = std::string("int main() { return 0; } // ") + id;
    v.candidates.push_back(c);
  }
  const Json lines =
      Json::array({{{"line", 9}, {"share", 0.5}, {"code", "double d = std::exp(-x);"}},
                   {{"line", 11}, {"share", 0.3}, {"code", "y[i] = d < 1 ? d : 1;"}}});
  v.profiles["original"] = {"profile of licm (current): perf cpu-clock\n...", {{"lines", lines}}};
  return v;
}

TEST(ReportSectionsTest, ShowsTheOriginalsTopLinesAndSaysTheBestWasNeverProfiled) {
  const std::string html = profiles_section(run_with_best_unprofiled());
  EXPECT_NE(html.find("profile of licm (current): perf cpu-clock"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>50.0%</td><td>9</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("y[i] = d &lt; 1 ? d : 1;"), std::string::npos) << html;
  EXPECT_NE(html.find("0002 was never profiled"), std::string::npos) << html;
  EXPECT_NE(html.find("kopt profile licm --variant /runs/r/candidates/0002/kernel.cpp"),
            std::string::npos)
      << html;
}

TEST(ReportSectionsTest, ShowsTheBestsProfileWhenTheLoopProfiledIt) {
  RunView v = run_with_best_unprofiled();
  v.profiles["0002"] = {"profile of the best\n  80.0% line 3", Json()};  // A tool without data.
  const std::string html = profiles_section(v);
  EXPECT_EQ(html.find("never profiled"), std::string::npos) << html;
  EXPECT_NE(html.find("<pre>profile of the best\n  80.0% line 3</pre>"), std::string::npos) << html;
}

TEST(ReportSectionsTest, MarksEachDiffLineAndEscapesItsCode) {
  const std::string html = diff_html("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a<b\n+a>b\n ok\n");
  EXPECT_NE(html.find("<span class=file>--- a/x</span>"), std::string::npos) << html;
  EXPECT_NE(html.find("<span class=hunk>@@ -1 +1 @@</span>"), std::string::npos) << html;
  EXPECT_NE(html.find("<span class=del>-<code class=language-cpp>a&lt;b</code></span>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<span class=add>+<code class=language-cpp>a&gt;b</code></span>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<span class=ctx> <code class=language-cpp>ok</code></span>"),
            std::string::npos)
      << html;
}

TEST(ReportSectionsTest, ThePageLinksTheBestsWholeSourceAndHighlightsOrSaysWhyNot) {
  const std::string html = render_html_report(run_with_best_unprofiled(), std::nullopt);
  EXPECT_NE(html.find("href=\"#best-source\""), std::string::npos);
  EXPECT_NE(html.find("<pre id=\"best-source\"><code class=language-cpp>int main() { return 0; "
                      "} // 0002</code></pre>"),
            std::string::npos)
      << html;
  const bool library = highlight_library().ok();
  EXPECT_EQ(html.find("document.body.dataset.highlighted") != std::string::npos, library);
  EXPECT_EQ(html.find("code not highlighted: no highlight.js") != std::string::npos, !library);
}

TEST(ReportSectionsTest, AFasterCandidateRefusedAsIdenticalSaysItWasRefused) {
  RunView v = run_with_best_unprofiled();
  v.candidates[0].decision = "a significant win";
  v.candidates[1].accepted = false;
  v.candidates[1].verdict.speedup = 1.99;
  v.candidates[1].decision = "identical to 0001";
  EXPECT_EQ(outcome_reason(v.candidates[0]), "promoted: a significant win");
  EXPECT_EQ(outcome_reason(v.candidates[1]), "refused: identical to 0001");
  const std::string html = render_html_report(v, std::nullopt);
  EXPECT_NE(html.find("<b>promoted: a significant win</b>"), std::string::npos) << html;
  EXPECT_NE(html.find("refused: identical to 0001"), std::string::npos) << html;
  v.candidates[1].verdict.status = "incorrect";
  v.candidates[1].verdict.reason = "output 'y' differs";
  EXPECT_EQ(outcome_reason(v.candidates[1]), "output 'y' differs") << "the check's reason first";
}

}  // namespace
}  // namespace kopt
