// A campaign's drives, spreads and outliers (fleet/campaign.hpp).
#include <ptsuite/fleet/campaign.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include <ptsuite/util/version.hpp>

namespace ptsuite::fleet {

namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Sample coefficient of variation, %: 0 for fewer than two values or a zero mean.
double cv_pct_of(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  double mean = 0;
  for (const double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  if (mean == 0) return 0;
  double ss = 0;
  for (const double x : v) ss += (x - mean) * (x - mean);
  return 100.0 * std::sqrt(ss / static_cast<double>(v.size() - 1)) / std::fabs(mean);
}

// The run that stands for a drive: its latest complete run, else its latest.
bool better_run(const history::RunRecord& candidate, const history::RunRecord* current) {
  if (current == nullptr) return true;
  const bool c = candidate.status == "complete", k = current->status == "complete";
  return c != k ? c : true;  // runs come oldest first: a later one of the same kind wins
}

CampaignDrive drive_of(const history::RunRecord& r, size_t runs) {
  CampaignDrive d{r.device_serial, r.device_model, r.device_firmware,    r.host, r.id,
                  r.status,        r.compliant,    r.compliance_summary, runs,   {}};
  for (const history::Metric& m : r.metrics) d.metrics[m.test_id + "/" + m.name] = {m.value, m.unit};
  return d;
}

// Spread and outliers of one metric over one model's drives.
void judge_metric(const std::string& model, const std::string& metric, const std::vector<const CampaignDrive*>& drives,
                  CampaignSummary& out) {
  std::vector<double> values;
  std::string unit;
  for (const CampaignDrive* d : drives) {
    if (const auto it = d->metrics.find(metric); it != d->metrics.end()) {
      values.push_back(it->second.value);
      unit = it->second.unit;
    }
  }
  if (values.empty()) return;
  const double median = median_of(values);
  out.spreads.push_back({model, metric, unit, values.size(), *std::min_element(values.begin(), values.end()), median,
                         *std::max_element(values.begin(), values.end()), cv_pct_of(values)});
  if (values.size() < k_outlier_min_drives) return;
  std::vector<double> deviations;
  for (const double x : values) deviations.push_back(std::fabs(x - median));
  const double mad = median_of(deviations);
  for (const CampaignDrive* d : drives) {
    const auto it = d->metrics.find(metric);
    if (it == d->metrics.end()) continue;
    const double x = it->second.value;
    const double deviation_pct = median != 0 ? 100.0 * (x - median) / std::fabs(median) : 0;
    const double z = mad > 0 ? 0.6745 * (x - median) / mad : (x == median ? 0 : std::copysign(INFINITY, x - median));
    if (std::fabs(deviation_pct) >= k_outlier_min_deviation_pct && std::fabs(z) > k_outlier_robust_z) {
      out.outliers.push_back({d->serial, model, metric, unit, x, median, deviation_pct, z});
    }
  }
}

}  // namespace

CampaignSummary summarize_campaign(const std::string& campaign, const std::vector<history::RunRecord>& runs) {
  CampaignSummary out;
  out.tool = {"ptsuite", std::string(version()), std::string(git_revision())};
  out.campaign = campaign;
  out.outlier_rule = {k_outlier_robust_z, k_outlier_min_deviation_pct, k_outlier_min_drives};
  std::map<std::string, const history::RunRecord*> chosen;  // by serial
  std::map<std::string, size_t> count;
  for (const history::RunRecord& r : runs) {
    const auto label = r.labels.find("campaign");
    if (label == r.labels.end() || label->second != campaign) continue;
    ++count[r.device_serial];
    if (better_run(r, chosen[r.device_serial])) chosen[r.device_serial] = &r;
  }
  for (const auto& [serial, r] : chosen) out.drives.push_back(drive_of(*r, count[serial]));
  std::stable_sort(out.drives.begin(), out.drives.end(),
                   [](const CampaignDrive& a, const CampaignDrive& b) { return a.model < b.model; });
  std::map<std::string, std::vector<const CampaignDrive*>> by_model;
  for (const CampaignDrive& d : out.drives) by_model[d.model].push_back(&d);
  for (const auto& [model, drives] : by_model) {
    std::vector<std::string> metrics;
    for (const CampaignDrive* d : drives) {
      for (const auto& [name, m] : d->metrics) {
        if (std::find(metrics.begin(), metrics.end(), name) == metrics.end()) metrics.push_back(name);
      }
    }
    for (const std::string& metric : metrics) judge_metric(model, metric, drives, out);
  }
  return out;
}

}  // namespace ptsuite::fleet
