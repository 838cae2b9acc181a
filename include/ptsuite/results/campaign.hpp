// Contract: a fleet campaign on one page (docs/fleet.md "Campaign report"), the "ptsuite.campaign"
// document kind (results/document_kinds.def; schema pts/schema/campaign.schema.json): every drive
// of the campaign with its verdict and headline figures, and per model and metric the spread
// across the model's drives and the outliers. fleet/campaign.hpp computes it from the history
// (summarize_campaign()); `ptsuite fleet report` writes it as campaign.json and ends like every
// run (lifecycle/finish_run.hpp: reports, manifest; a campaign is not a run, so no history record);
// report/campaign_report.hpp renders it, so `ptsuite report`, `verify` and `sign` take it like any
// document. to_json() and read_campaign() agree field for field; the reader is tolerant like every
// results reader (results/json_read.hpp). Plain values; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <ptsuite/results/attestation.hpp>
#include <ptsuite/results/run_header.hpp>

namespace ptsuite::results {

inline constexpr char k_campaign_kind[] = "ptsuite.campaign";

// A headline figure of a drive's run (history/run_record.hpp's Metric, by "test/name").
struct CampaignMetric {
  double value = 0;
  std::string unit;  // "IOPS", "MB/s", "ns", "drive fills"
};

struct CampaignDrive {
  std::string serial, model, firmware, host;
  int64_t history_id = 0;  // the run counted for the drive, in the history it was read from
  std::string status;      // the run's status: "complete", "interrupted", ...
  bool compliant = false;
  std::string verdict;
  size_t runs = 0;                                // runs of this drive in the campaign
  std::map<std::string, CampaignMetric> metrics;  // by "test/metric"
};

struct MetricSpread {
  std::string model, metric, unit;  // metric: "test/name"
  size_t drives = 0;
  double min = 0, median = 0, max = 0, cv_pct = 0;
};

struct Outlier {
  std::string serial, model, metric, unit;
  double value = 0, median = 0, deviation_pct = 0;
  double robust_z = 0;  // infinite when the model's MAD is 0 (written as null)
};

// The rule the outliers were found by (fleet/campaign.hpp's constants, disclosed in the document).
struct OutlierRule {
  double robust_z = 0;           // more than this many robust z-scores from the model's median
  double min_deviation_pct = 0;  // and at least this far from it, %
  size_t min_drives = 0;         // models of fewer drives are not judged
};

struct CampaignSummary {
  std::string kind = k_campaign_kind;
  ToolRecord tool;  // the ptsuite that summarized the history
  std::string campaign;
  std::vector<CampaignDrive> drives;  // by model, then serial
  std::vector<MetricSpread> spreads;
  std::vector<Outlier> outliers;
  OutlierRule outlier_rule;
  std::optional<AttestationRecord> attestation;  // `ptsuite sign`'s
};

void to_json(nlohmann::json& j, const CampaignSummary& summary);
CampaignSummary read_campaign(const nlohmann::json& document);

}  // namespace ptsuite::results
