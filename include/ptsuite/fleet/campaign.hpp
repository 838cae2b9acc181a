// Contract: a campaign on one page (docs/fleet.md "Campaign report"): every drive of the
// campaign (the history's runs labelled campaign=NAME; a drive run more than once counts with
// its latest complete run, else its latest), its verdict and headline figures (history/
// run_record.hpp headline metrics), and per model and metric the spread across the model's
// drives: n, min, median, max and the coefficient of variation (sample standard deviation /
// mean, %). An outlier is a drive whose value lies more than k_outlier_robust_z robust
// z-scores (0.6745 (x - median) / MAD, Iglewicz and Hoaglin's modified z) from its model's
// median AND at least k_outlier_min_deviation_pct away from it (so that identical drives, with a
// MAD near 0, do not flag noise); with a MAD of 0 the deviation alone decides. Needs at least
// k_outlier_min_drives drives of the model. summarize_campaign() is pure; the tool record is
// this ptsuite's. The page is report/campaign_report.hpp's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <ptsuite/history/run_record.hpp>
#include <ptsuite/results/campaign.hpp>

namespace ptsuite::fleet {

inline constexpr double k_outlier_robust_z = 3.5;
inline constexpr double k_outlier_min_deviation_pct = 5.0;
inline constexpr size_t k_outlier_min_drives = 3;

// The record is the "ptsuite.campaign" document's (results/campaign.hpp); these names keep
// fleet's callers short.
using CampaignDrive = results::CampaignDrive;
using MetricSpread = results::MetricSpread;
using Outlier = results::Outlier;
using CampaignSummary = results::CampaignSummary;

// `runs` as the history lists them with metrics (oldest first).
CampaignSummary summarize_campaign(const std::string& campaign, const std::vector<history::RunRecord>& runs);

}  // namespace ptsuite::fleet
