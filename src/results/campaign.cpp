// The "ptsuite.campaign" document's writer and reader (results/campaign.hpp).
#include <ptsuite/results/campaign.hpp>

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/record_writers.hpp>

namespace ptsuite::results {

namespace {

using nlohmann::json;

json metrics_json(const std::map<std::string, CampaignMetric>& metrics) {
  json out = json::object();
  for (const auto& [name, m] : metrics) out.emplace(name, json{{"value", m.value}, {"unit", m.unit}});
  return out;
}

json drive_json(const CampaignDrive& d) {
  return json{{"serial", d.serial},
              {"model", d.model},
              {"firmware", d.firmware},
              {"host", d.host},
              {"history_id", d.history_id},
              {"status", d.status},
              {"compliant", d.compliant},
              {"verdict", d.verdict},
              {"runs", d.runs},
              {"metrics", metrics_json(d.metrics)}};
}

json spread_json(const MetricSpread& m) {
  return json{{"model", m.model}, {"metric", m.metric}, {"unit", m.unit}, {"drives", m.drives},
              {"min", m.min},     {"median", m.median}, {"max", m.max},   {"cv_pct", m.cv_pct}};
}

json outlier_json(const Outlier& o) {
  return json{{"serial", o.serial},
              {"model", o.model},
              {"metric", o.metric},
              {"unit", o.unit},
              {"value", o.value},
              {"median", o.median},
              {"deviation_pct", o.deviation_pct},
              {"robust_z", std::isfinite(o.robust_z) ? json(o.robust_z) : json()}};
}

template <typename T, typename F>
json array_of(const std::vector<T>& items, F&& to) {
  json out = json::array();
  for (const T& item : items) out.push_back(to(item));
  return out;
}

CampaignDrive read_drive(const json& d) {
  CampaignDrive out;
  out.serial = str(d, "serial");
  out.model = str(d, "model");
  out.firmware = str(d, "firmware");
  out.host = str(d, "host");
  if (const json& id = at(d, "history_id"); id.is_number_integer()) out.history_id = id.get<int64_t>();
  out.status = str(d, "status");
  out.compliant = flag(at(d, "compliant"));
  out.verdict = str(d, "verdict");
  out.runs = count(at(d, "runs"));
  const json& metrics = at(d, "metrics");
  if (metrics.is_object()) {
    for (const auto& [name, m] : metrics.items()) out.metrics[name] = {num(at(m, "value")), str(m, "unit")};
  }
  return out;
}

MetricSpread read_spread(const json& m) {
  return {str(m, "model"),   str(m, "metric"),     str(m, "unit"),    count(at(m, "drives")),
          num(at(m, "min")), num(at(m, "median")), num(at(m, "max")), num(at(m, "cv_pct"))};
}

Outlier read_outlier(const json& o) {
  const json& z = at(o, "robust_z");
  return {str(o, "serial"),
          str(o, "model"),
          str(o, "metric"),
          str(o, "unit"),
          num(at(o, "value")),
          num(at(o, "median")),
          num(at(o, "deviation_pct")),
          z.is_number() ? z.get<double>() : std::numeric_limits<double>::infinity()};
}

}  // namespace

void to_json(json& j, const CampaignSummary& s) {
  j = json{{"kind", s.kind},
           {"tool", s.tool},
           {"campaign", s.campaign},
           {"drives", array_of(s.drives, drive_json)},
           {"spreads", array_of(s.spreads, spread_json)},
           {"outliers", array_of(s.outliers, outlier_json)},
           {"outlier_rule",
            {{"robust_z", s.outlier_rule.robust_z},
             {"min_deviation_pct", s.outlier_rule.min_deviation_pct},
             {"min_drives", s.outlier_rule.min_drives}}}};
  if (s.attestation) j.emplace("attestation", attestation_json(*s.attestation));
}

CampaignSummary read_campaign(const json& j) {
  CampaignSummary s;
  s.kind = str(j, "kind");
  s.tool = {str(at(j, {"tool", "name"})), str(at(j, {"tool", "version"})), str(at(j, {"tool", "git_revision"}))};
  s.campaign = str(j, "campaign");
  s.drives = read_each(at(j, "drives"), read_drive);
  s.spreads = read_each(at(j, "spreads"), read_spread);
  s.outliers = read_each(at(j, "outliers"), read_outlier);
  const json& rule = at(j, "outlier_rule");
  s.outlier_rule = {num(at(rule, "robust_z")), num(at(rule, "min_deviation_pct")), count(at(rule, "min_drives"))};
  s.attestation = read_attestation(j);
  return s;
}

}  // namespace ptsuite::results
