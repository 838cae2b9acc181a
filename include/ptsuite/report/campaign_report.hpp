// Contract: the reports of a fleet campaign (results/campaign.hpp, docs/fleet.md "Campaign
// report"), rendered from the typed record only, so `ptsuite fleet report` and `ptsuite report
// DIR` (re-rendering campaign.json) write the same bytes:
//   campaign_html()  campaign.html: one page, no script: the outliers (or that there are none,
//                    with the rule), every drive (serial, model, firmware, host, history id,
//                    status, verdict, runs), the spread per model and metric; the signer when
//                    the document is signed
//   campaign_text()  summary.txt: the same in plain text, one line per drive and per outlier
//   campaign_csv()   campaign.csv: one row per drive, a column per headline metric ("test/name
//                    (unit)"), empty where the drive's run has no such figure
// Every string from a device or the history is escaped for its format. Pure functions.
#pragma once

#include <string>

#include <ptsuite/results/campaign.hpp>

namespace ptsuite::report {

std::string campaign_html(const results::CampaignSummary& summary);
std::string campaign_text(const results::CampaignSummary& summary);
std::string campaign_csv(const results::CampaignSummary& summary);

}  // namespace ptsuite::report
