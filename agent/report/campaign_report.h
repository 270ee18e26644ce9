// `kopt report DIR` on a campaign folder: one self-contained HTML page with the comparison of
// its runs (agent/report/campaign_view.h) drawn and tabulated, each run linked to its own page.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "util/json.h"

namespace kopt {

struct CampaignPage {
  std::string name;                              ///< The campaign folder's name.
  Json comparison;                               ///< compare_campaign()'s result.
  std::map<std::string, std::string> run_links;  ///< Run folder -> its page, relative to DIR.
  /// Where and how the runs were made (host, cpu, compiler, kopt, dates): label and value, a
  /// value listing every distinct one of the runs'.
  std::vector<std::pair<std::string, std::string>> provenance;
};

/// The page as HTML text.
std::string render_campaign_report(const CampaignPage& page);

}  // namespace kopt
