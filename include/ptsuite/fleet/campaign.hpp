// Contract: a campaign on one page (docs/fleet.md "Campaign report"): every drive of the
// campaign (the history's runs labelled campaign=NAME; a drive run more than once counts with
// its latest complete run, else its latest), its verdict and headline figures (history/
// run_record.hpp headline metrics), and per model and metric the spread across the model's
// drives: n, min, median, max and the coefficient of variation (sample standard deviation /
// mean, %). An outlier is a drive whose value lies more than k_outlier_robust_z robust
// z-scores (0.6745 (x - median) / MAD, Iglewicz and Hoaglin's modified z) from its model's
// median AND at least k_outlier_min_deviation_pct away from it (so that identical drives, with a
// MAD near 0, do not flag noise); with a MAD of 0 the deviation alone decides. Needs at least
// k_outlier_min_drives drives of the model. summarize_campaign() is pure; the page is one HTML
// file with no script.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <ptsuite/history/run_record.hpp>

namespace ptsuite::fleet {

inline constexpr double k_outlier_robust_z = 3.5;
inline constexpr double k_outlier_min_deviation_pct = 5.0;
inline constexpr size_t k_outlier_min_drives = 3;

struct CampaignDrive {
  std::string serial, model, firmware, host;
  int64_t history_id = 0;
  std::string status;
  bool compliant = false;
  std::string verdict;
  size_t runs = 0;                                 // runs of this drive in the campaign
  std::map<std::string, history::Metric> metrics;  // by "test/metric"
};

struct MetricSpread {
  std::string model, metric, unit;  // metric: "test/name"
  size_t drives = 0;
  double min = 0, median = 0, max = 0, cv_pct = 0;
};

struct Outlier {
  std::string serial, model, metric, unit;
  double value = 0, median = 0, deviation_pct = 0, robust_z = 0;
};

struct CampaignSummary {
  std::string campaign;
  std::vector<CampaignDrive> drives;  // by model, then serial
  std::vector<MetricSpread> spreads;
  std::vector<Outlier> outliers;
};

// `runs` as the history lists them with metrics (oldest first).
CampaignSummary summarize_campaign(const std::string& campaign, const std::vector<history::RunRecord>& runs);
std::string render_campaign_html(const CampaignSummary& summary);
void to_json(nlohmann::json& j, const CampaignSummary& summary);

}  // namespace ptsuite::fleet
