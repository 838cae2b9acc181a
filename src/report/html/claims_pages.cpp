// Spec-sheet validation pages (`ptsuite validate`, docs/validate.md): the verdict and one row
// per claim (declared, measured, margin, tolerance), a chart of each claim's measurement as a
// percentage of its declared value, the measurement points with their conditions, source and
// steady state, each steady-state point's measurement window and determination, and the
// compliance table.
#include <ptsuite/report/html/test_pages.hpp>

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <optional>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/header.hpp>
#include <ptsuite/results/segment_result.hpp>
#include <ptsuite/results/validation.hpp>

namespace ptsuite::report::html {

using nlohmann::json;

namespace {

using results::ClaimOutcome;

// A claim's value in its unit: IOPS and MB/s grouped, latencies in microseconds.
std::string claim_value(std::optional<double> v, const std::string& unit) {
  if (!v) return "\u2013";
  if (unit == "IOPS") return fmt_iops(*v) + " IOPS";
  if (unit == "MB/s") return fmt_mbps(*v) + " MB/s";
  return grouped(*v, *v < 10 ? 2 : 1) + " \u00b5s";
}

std::string metric_text(const results::SheetClaim& claim) {
  const std::string& m = claim.metric;
  const std::string& dir = claim.direction;
  if (m == "iops") return dir + " IOPS";
  if (m == "mb_per_s") return dir + " MB/s";
  if (m == "latency_mean") return dir + " mean latency";
  if (m == "latency_max") return dir + " max latency";
  return fmt::format("{} {} % latency", dir, claim.percentile ? fmt::format("{}", *claim.percentile) : "");
}

std::string verdict_html(const std::string& verdict) {
  if (verdict == "pass") return "<span class=\"good\">PASS</span>";
  if (verdict == "fail") return "<span class=\"bad\">FAIL</span>";
  return "<span class=\"bad\">" + text(verdict == "incomplete" ? "INCOMPLETE" : "NOT COVERED") + "</span>";
}

// "+12.4 %", or for a latency miss past -100 % (the measured time is over twice the declared
// one) the ratio a reader grasps: "94.4x the declared value", not "-9341.3 %".
std::string margin_text(const ClaimOutcome& c) {
  if (!c.margin_pct) {
    return "\u2013";
  }
  if (*c.margin_pct < -100 && c.measured && c.claim.declared > 0) {
    return fmt::format("{:.1f}\u00d7 the declared value", *c.measured / c.claim.declared);
  }
  return fmt::format("{:+.1f} %", *c.margin_pct);
}

Block claims_table(const results::ValidationBlock& v) {
  Table t;
  t.css_class = "data";
  t.header = {"Claim", "As stated", "Conditions", "Metric", "Declared", "Measured", "Margin", "Tolerance", "Verdict"};
  t.first_numeric_column = 4;
  for (const ClaimOutcome& c : v.claims) {
    t.rows.push_back({text(c.claim.id), text(c.claim.text), text(c.claim.conditions.text), text(metric_text(c.claim)),
                      text(claim_value(c.claim.declared, c.claim.unit)), text(claim_value(c.measured, c.claim.unit)),
                      text(margin_text(c)), text(fmt::format("{} %", c.claim.tolerance_pct)), verdict_html(c.verdict)});
  }
  return table_block(render_table(t),
                     "Claims: declared vs measured (margin > 0: better than the sheet; a claim passes when its margin "
                     "is at least minus its tolerance; MB/s = 10^6 bytes/s)");
}

std::string verdict_line(const results::ValidationBlock& v) {
  const results::ValidationTotals& t = v.totals;
  std::string line =
      "Verdict: <b>" + verdict_html(v.verdict) + "</b> \u2013 " +
      text(fmt::format("{} of {} claims pass, {} fail, {} not covered", t.pass, t.claims, t.fail, t.not_covered));
  for (const ClaimOutcome& c : v.claims) {
    if (c.verdict == "not covered") {
      line += "<br>" + text(c.claim.id + ": " + c.why.value_or(""));
    }
  }
  for (const std::string& caveat : v.caveats) {
    line += "<br><span class=\"bad\">" + text(caveat) + "</span>";
  }
  return line;
}

// Each judged claim's measurement as % of its declared value, oriented so that 100 % is the
// claim and more is better (latencies: declared / measured).
chart::Chart relative_chart(const results::ValidationBlock& v) {
  std::vector<std::string> categories;
  chart::NamedSeries claimed{"Declared (100 %)", {}};
  chart::NamedSeries measured{"Measured (% of declared)", {}};
  for (const ClaimOutcome& c : v.claims) {
    if (!c.margin_pct) continue;
    const double d = c.claim.declared;
    const double m = c.measured.value_or(std::nan(""));
    const bool higher = c.claim.unit != "us";
    const double pct = higher ? m / d * 100.0 : (m > 0 ? d / m * 100.0 : 0.0);
    const double x = static_cast<double>(categories.size());
    categories.push_back(c.claim.id);
    claimed.points.push_back({x, 100.0});
    measured.points.push_back({x, pct});
  }
  return chart::grouped_bar_chart(
      {"Claims vs Measurement", "100 % = the sheet's value; above is better", "claims-bars"}, "Claim", categories,
      "% of declared (latency: declared / measured)", {claimed, measured}, chart::ScaleKind::log10);
}

std::string source_text(const results::ValidationPoint& p) {
  const results::PointSource& s = p.source;
  if (s.kind == "run") {
    return fmt::format("{} {} {} ({})", s.test.value_or(""), s.phase.value_or(""), s.segment.value_or(""),
                       s.dir.value_or(""));
  }
  return p.read_fill_capacity_multiple
             ? fmt::format("measured after a {} read fill", fmt_capacity_multiple(*p.read_fill_capacity_multiple))
             : std::string("measured");
}

std::string steady_text(const results::ValidationPoint& p) {
  if (!p.steady_state) return "FOB (right after the purge)";
  const results::PointSteadyState& ss = *p.steady_state;
  return fmt::format("{} (Rounds {}\u2013{} of {})", ss.attained ? "attained" : "NOT attained", ss.window_first_round,
                     ss.window_last_round, ss.rounds);
}

Block points_table(const results::ValidationBlock& v) {
  Table t;
  t.css_class = "data";
  t.header = {"Point", "Conditions", "Claims", "Steady state", "Source", "IOPS", "MB/s", "ART (ms)", "99.99 % (ms)"};
  t.first_numeric_column = 5;
  for (const results::ValidationPoint& p : v.points) {
    std::string claims;
    for (const std::string& id : p.claims) claims += (claims.empty() ? "" : ", ") + id;
    const results::DirectionSummary c =
        results::read_segment_summary(p.summary).combined.value_or(results::DirectionSummary{});
    t.rows.push_back({text(p.id), text(p.conditions.text), text(claims), text(steady_text(p)), text(source_text(p)),
                      text(fmt_iops(c.iops)), text(fmt_mbps(c.mb_per_s)), text(fmt_ms(c.latency.mean_ns)),
                      text(fmt_ms(c.latency.percentile_ns("99.99")))});
  }
  return table_block(render_table(t), "Measurement points (read + write combined; per-direction values in the CSV)");
}

}  // namespace

std::vector<Page> claims_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids) {
  const results::ValidationBlock& v = block_or_empty<results::ValidationBlock>(test);
  Rows params;
  params.emplace_back("Spec sheet", text(v.sheet.vendor + " " + v.sheet.model));
  params.emplace_back("TOIO", text("per claim, as the sheet states it (see the claims table)"));
  params.emplace_back("Sheet source", text(v.sheet.source));
  params.emplace_back("Judged", text(v.mode == "from-runs" ? "on existing runs (no device was touched)"
                                                           : "measured: every point from a purge"));
  params.emplace_back("Verdict", verdict_html(v.verdict));
  const auto header = std::make_shared<const PageHeader>(
      test_header(doc.header, test, common_setup_rows(doc.header, test, ""), params));
  std::vector<Page> pages;
  pages.push_back({header,
                   "Spec-Sheet Validation \u2013 Claims vs Measurement",
                   {html_block(element("p", "", verdict_line(v))), claims_table(v)}});
  pages.push_back(
      {header,
       "Spec-Sheet Validation \u2013 Measurement as % of Each Claim",
       {chart_block(relative_chart(v), "Each claim's measurement relative to its declared value", ids, 520)}});
  pages.push_back({header, "Spec-Sheet Validation \u2013 Measurement Points", {points_table(v)}});
  for (const results::RoundPhase& phase : test.phases) {
    for (const results::PhaseTracking& t : phase.tracking) {
      pages.push_back(
          {header,
           "Point " + phase_name(phase) + " \u2013 Steady State Measurement Window",
           {window_block(phase, t, "Claims " + phase_name(phase), ids, 420), determination_block(phase, t)}});
    }
  }
  for (Page& p : compliance_pages(header, test, "Validation")) {
    pages.push_back(std::move(p));
  }
  return pages;
}

}  // namespace ptsuite::report::html
