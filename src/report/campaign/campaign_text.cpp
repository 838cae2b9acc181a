// The campaign report's summary.txt (report/campaign_report.hpp campaign_text).
#include <fmt/format.h>
#include <cmath>

#include <ptsuite/report/campaign_report.hpp>

namespace ptsuite::report {

namespace {

std::string campaign_number(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : std::string("inf"); }

// One line, whatever a device or the history put in the string: control characters (a newline
// in a model name would forge a line) as '?'.
std::string one_line(const std::string& s) {
  std::string out = s;
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return out;
}

void append_outliers(std::string& out, const results::CampaignSummary& s) {
  if (s.outliers.empty()) {
    out += fmt::format(
        "No outlier (rule: more than {} robust z-scores and {} % from the model's median; models of "
        "at least {} drives).\n",
        s.outlier_rule.robust_z, s.outlier_rule.min_deviation_pct, s.outlier_rule.min_drives);
    return;
  }
  out += "Outliers:\n";
  for (const results::Outlier& o : s.outliers) {
    out += fmt::format(
        "  {} ({}): {} = {} {}, {:+.1f} % from the median {} (robust z {})\n", one_line(o.serial), one_line(o.model),
        one_line(o.metric), campaign_number(o.value), one_line(o.unit), o.deviation_pct, campaign_number(o.median),
        std::isfinite(o.robust_z) ? fmt::format("{:.1f}", o.robust_z) : std::string("beyond any: MAD 0"));
  }
}

}  // namespace

std::string campaign_text(const results::CampaignSummary& s) {
  size_t compliant = 0;
  for (const results::CampaignDrive& d : s.drives) compliant += d.compliant ? 1 : 0;
  std::string out = fmt::format("Campaign {}: {} drive(s), {} compliant, {} outlier finding(s)\n", one_line(s.campaign),
                                s.drives.size(), compliant, s.outliers.size());
  if (s.attestation) {
    out += fmt::format("Signed with key {} on {}\n", one_line(s.attestation->key_fingerprint),
                       one_line(s.attestation->signed_utc));
  }
  append_outliers(out, s);
  out += "Drives (serial, model, firmware, host, history id, status, runs: verdict):\n";
  for (const results::CampaignDrive& d : s.drives) {
    out +=
        fmt::format("  {}  {}  {}  {}  {}  {}  {}: {}\n", one_line(d.serial), one_line(d.model), one_line(d.firmware),
                    one_line(d.host), d.history_id, one_line(d.status), d.runs, one_line(d.verdict));
  }
  out += "Spread per model (metric: drives, min / median / max, CV %):\n";
  for (const results::MetricSpread& m : s.spreads) {
    out += fmt::format("  {}  {} ({}): {}, {} / {} / {}, {:.2f} %\n",
                       one_line(m.model.empty() ? "(no model)" : m.model), one_line(m.metric), one_line(m.unit),
                       m.drives, campaign_number(m.min), campaign_number(m.median), campaign_number(m.max), m.cv_pct);
  }
  return out;
}

}  // namespace ptsuite::report
