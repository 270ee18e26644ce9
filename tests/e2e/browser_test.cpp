// The browser check the report tests rely on (tests/support/browser.h) catches what it claims
// to: a page that reaches outside itself, by its markup or by its script.
#include "../support/browser.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "util/files.h"

namespace kopt {
namespace {

// Loads `html` in headless Chromium with its net log on; the requests that left the page.
std::vector<std::string> requests_of(const std::string& html) {
  TempDir dir("kopt-browser-");
  const auto page = dir.path() / "page.html";
  const auto net_log = dir.path() / "net-log.json";
  EXPECT_TRUE(write_file(page, html));
  ProcessResult dom = test::chromium(
      dir.path(), {"--dump-dom", "--log-net-log=" + net_log.string(), "file://" + page.string()});
  EXPECT_TRUE(dom.succeeded()) << dom.output;
  return test::external_requests(net_log);
}

TEST(BrowserCheckTest, SeesAnImageAStyleSheetAndAFetchFromOutside) {
  const auto urls = requests_of(
      "<html><head><link rel=stylesheet href=\"http://styles.invalid/s.css\"></head><body>"
      "<img src=\"http://images.invalid/i.png\"><script>fetch('https://api.invalid/x')"
      ".catch(() => {});</script></body></html>");
  auto asked = [&](const std::string& url) {
    return std::find(urls.begin(), urls.end(), url) != urls.end();
  };
  EXPECT_TRUE(asked("http://styles.invalid/s.css"));
  EXPECT_TRUE(asked("http://images.invalid/i.png"));
  EXPECT_TRUE(asked("https://api.invalid/x"));
}

TEST(BrowserCheckTest, ASelfContainedPageAsksForNothing) {
  const auto urls = requests_of(
      "<html><body><img src=\"data:image/gif;base64,R0lGODlhAQABAAAAACw=\"><script>"
      "document.body.dataset.done = 1;</script></body></html>");
  EXPECT_TRUE(urls.empty()) << urls.front();
}

}  // namespace
}  // namespace kopt
