// The campaign report's page (report/campaign_report.hpp campaign_html): one HTML file, no script.
#include <fmt/format.h>
#include <cmath>

#include <ptsuite/report/campaign_report.hpp>
#include <ptsuite/util/text.hpp>

namespace ptsuite::report {

using results::CampaignDrive;
using results::CampaignSummary;
using results::MetricSpread;
using results::Outlier;

namespace {

std::string esc(const std::string& s) { return markup_escape(s, MarkupFlavor::html); }

std::string number_cell(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : "&infin;"; }

const char* k_style =
    "body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}"
    "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left}td.n{text-align:right}"
    ".bad{color:#a00}.good{color:#060}.note{color:#666;font-size:90%}";

std::string drives_table(const CampaignSummary& s) {
  std::string out =
      "<h2>Drives</h2><table><tr><th>serial</th><th>model</th><th>firmware</th><th>host</th><th>history id</th>"
      "<th>status</th><th>verdict</th><th>runs</th></tr>";
  for (const CampaignDrive& d : s.drives) {
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td>"
        "<td class=\"{}\">{}</td><td class=\"n\">{}</td></tr>",
        esc(d.serial), esc(d.model), esc(d.firmware), esc(d.host), d.history_id, esc(d.status),
        d.compliant ? "good" : "bad", esc(d.verdict), d.runs);
  }
  return out + "</table>";
}

std::string outliers_list(const CampaignSummary& s) {
  if (s.outliers.empty()) {
    return fmt::format(
        "<p class=\"good\">No outlier: no drive lies more than {} robust z-scores and {} % from its "
        "model's median on any headline metric (models of at least {} drives).</p>",
        s.outlier_rule.robust_z, s.outlier_rule.min_deviation_pct, s.outlier_rule.min_drives);
  }
  std::string out = "<h2>Outliers</h2><ul>";
  for (const Outlier& o : s.outliers) {
    out += fmt::format(
        "<li class=\"bad\"><b>{}</b> ({}): {} = {} {}, {:+.1f} % from the model's median {} {} "
        "(robust z {})</li>",
        esc(o.serial), esc(o.model), esc(o.metric), number_cell(o.value), esc(o.unit), o.deviation_pct,
        number_cell(o.median), esc(o.unit),
        std::isfinite(o.robust_z) ? fmt::format("{:.1f}", o.robust_z) : std::string("beyond any: MAD 0"));
  }
  return out + "</ul>";
}

std::string spread_tables(const CampaignSummary& s) {
  std::string out;
  std::string model;
  for (const MetricSpread& m : s.spreads) {
    if (out.empty() || m.model != model) {
      out += (out.empty() ? "" : "</table>") +
             fmt::format(
                 "<h2>Spread across the drives of {}</h2><table><tr><th>metric</th><th>unit</th>"
                 "<th>drives</th><th>min</th><th>median</th><th>max</th><th>CV %</th></tr>",
                 esc(m.model.empty() ? "(no model)" : m.model));
      model = m.model;
    }
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td><td class=\"n\">{:.2f}</td></tr>",
        esc(m.metric), esc(m.unit), m.drives, number_cell(m.min), number_cell(m.median), number_cell(m.max), m.cv_pct);
  }
  return out.empty() ? "<p class=\"note\">No headline metric recorded.</p>" : out + "</table>";
}

std::string signer_line(const CampaignSummary& s) {
  if (!s.attestation) return {};
  return fmt::format("<p>Signed with key {} on {}.</p>", esc(s.attestation->key_fingerprint),
                     esc(s.attestation->signed_utc));
}

}  // namespace

std::string campaign_html(const CampaignSummary& s) {
  size_t compliant = 0;
  for (const CampaignDrive& d : s.drives) compliant += d.compliant ? 1 : 0;
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Campaign {}</title><style>{}</style>"
      "</head><body><h1>Campaign {}</h1><p>{} drive(s), {} compliant; {} outlier finding(s). Every figure is the "
      "history's headline metric of the drive's latest complete run (<code>ptsuite history show ID</code>); "
      "<code>ptsuite fleet compare --campaign {}</code> overlays the runs. ptsuite {} (git {}).</p>{}{}{}{}"
      "</body></html>\n",
      esc(s.campaign), k_style, esc(s.campaign), s.drives.size(), compliant, s.outliers.size(), esc(s.campaign),
      esc(s.tool.version), esc(s.tool.git_revision), signer_line(s), outliers_list(s), drives_table(s),
      spread_tables(s));
}

}  // namespace ptsuite::report
