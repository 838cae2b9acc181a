// The campaign report's campaign.csv (report/campaign_report.hpp campaign_csv).
#include <fmt/format.h>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <ptsuite/report/campaign_report.hpp>
#include <ptsuite/util/text.hpp>

namespace ptsuite::report {

namespace {

// Every headline metric of the campaign, once, as "test/name (unit)", sorted by name.
std::vector<std::pair<std::string, std::string>> metric_columns(const results::CampaignSummary& s) {
  std::set<std::pair<std::string, std::string>> names;
  for (const results::CampaignDrive& d : s.drives) {
    for (const auto& [name, m] : d.metrics) names.emplace(name, m.unit);
  }
  return {names.begin(), names.end()};
}

// A field a spreadsheet shows as text: a leading = + - @ (a formula) behind a quote.
std::string inert(const std::string& s) {
  return !s.empty() && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@') ? "'" + s : s;
}

}  // namespace

std::string campaign_csv(const results::CampaignSummary& s) {
  const std::vector<std::pair<std::string, std::string>> metrics = metric_columns(s);
  std::string out = "campaign,serial,model,firmware,host,history_id,status,compliant,verdict,runs";
  for (const auto& [name, unit] : metrics) {
    out += ',';
    append_csv_field(out, inert(fmt::format("{} ({})", name, unit)));
  }
  out += '\n';
  for (const results::CampaignDrive& d : s.drives) {
    for (const std::string& field : {s.campaign, d.serial, d.model, d.firmware, d.host}) {
      append_csv_field(out, inert(field));
      out += ',';
    }
    out += fmt::format("{},", d.history_id);
    append_csv_field(out, inert(d.status));
    out += fmt::format(",{},", d.compliant ? "true" : "false");
    append_csv_field(out, inert(d.verdict));
    out += fmt::format(",{}", d.runs);
    for (const auto& [name, unit] : metrics) {
      out += ',';
      const auto it = d.metrics.find(name);
      if (it != d.metrics.end() && it->second.unit == unit && std::isfinite(it->second.value)) {
        out += fmt::format("{:.9g}", it->second.value);
      }
    }
    out += '\n';
  }
  return out;
}

}  // namespace ptsuite::report
