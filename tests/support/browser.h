// Reading kopt's HTML pages as a browser builds them: Debian's headless Chromium.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sandbox/process.h"
#include "util/json.h"

namespace kopt::test {

/// Runs Debian's headless Chromium with `args`; its output (stderr with the console) and stdout.
inline ProcessResult chromium(const std::filesystem::path& home, std::vector<std::string> args) {
  const char* binary = "/usr/bin/chromium";
  EXPECT_EQ(access(binary, X_OK), 0)
      << "Debian's chromium is missing; scripts/setup.sh installs it";
  ProcessSpec spec;
  spec.argv = {binary, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
               "--v=0"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.env = {{"PATH", "/usr/bin:/bin"}, {"HOME", home.string()}};
  spec.timeout = std::chrono::seconds(120);
  return LocalProcessRunner().run(spec);
}

/// The URLs a page asked for that are not its own file (file:, data:, blob:, about:), read from
/// Chromium's net log: requests the page made carry its file:// isolation key, which Chromium's
/// own background requests (its update and account servers) do not.
inline std::vector<std::string> external_requests(const std::filesystem::path& net_log) {
  std::vector<std::string> urls;
  auto log = read_json_file(net_log);
  EXPECT_TRUE(log) << "no net log from Chromium: " << (log ? "" : log.error().message);
  if (!log) return urls;
  for (const Json& event : json_member(*log, "events")) {
    const Json& params = json_member(event, "params");
    const std::string url = json_text(params, "url");
    if (url.empty() || json_text(params, "network_isolation_key").rfind("file://", 0) != 0)
      continue;
    bool own = false;
    for (const char* scheme : {"file:", "data:", "blob:", "about:"})
      own = own || url.rfind(scheme, 0) == 0;
    if (!own) urls.push_back(url);
  }
  return urls;
}

/// Renders `page` (an HTML file) in headless Chromium and reads it as the browser built it: the
/// charts drawn (at least `charts`), no script error, no two point labels overlapping, nothing
/// fetched from outside the page (in its markup or on Chromium's net log), and each of `texts` in
/// it. Leaves a screenshot beside it
/// (the page's name with .png). Returns the page's DOM.
inline std::string expect_page_renders(const std::filesystem::path& page, int charts,
                                       const std::vector<std::string>& texts) {
  const std::filesystem::path dir = page.parent_path();
  const std::string url = "file://" + page.string();
  const std::filesystem::path net_log = dir / "net-log.json";
  ProcessResult dom = chromium(dir, {"--dump-dom", "--log-net-log=" + net_log.string(), url});
  EXPECT_TRUE(dom.succeeded()) << dom.output;
  for (const auto& outside : external_requests(net_log))
    ADD_FAILURE() << "the page fetches " << outside;
  std::filesystem::remove(net_log);
  const std::string& html = dom.output;
  const size_t drawn = html.find("data-charts-drawn=\"");
  EXPECT_NE(drawn, std::string::npos) << "the page's script did not finish";
  if (drawn == std::string::npos) return html;
  EXPECT_GE(std::atoi(html.c_str() + drawn + 19), charts) << "charts missing from the page";
  EXPECT_NE(html.find("<div id=\"chart-errors\"></div>"), std::string::npos)
      << "a script error in the page";
  EXPECT_EQ(html.find("Uncaught"), std::string::npos) << "a script error in the page";
  // Every chart that names its points says how many names overlap another: none may.
  for (size_t at = html.find("data-label-overlaps=\""); at != std::string::npos;
       at = html.find("data-label-overlaps=\"", at + 1))
    EXPECT_EQ(std::atoi(html.c_str() + at + 21), 0) << "labels drawn over each other";
  for (const char* outside : {"src=\"http", "href=\"http", "src=\"//", "url(http", "@import"})
    EXPECT_EQ(html.find(outside), std::string::npos) << "the page fetches " << outside;
  for (const auto& text : texts)
    EXPECT_NE(html.find(text), std::string::npos) << "the page does not show '" << text << "'";
  std::filesystem::path shot = page;
  shot.replace_extension(".png");
  ProcessResult taken = chromium(
      dir, {"--hide-scrollbars", "--window-size=1200,1600", "--screenshot=" + shot.string(), url});
  EXPECT_TRUE(std::filesystem::exists(shot)) << taken.output;
  if (std::filesystem::exists(shot)) {
    EXPECT_GT(std::filesystem::file_size(shot), 50000u) << "the screenshot looks blank";
  }
  return html;
}

}  // namespace kopt::test
