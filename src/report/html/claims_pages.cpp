// Spec-sheet validation pages (`ptsuite validate`, docs/validate.md): the verdict and one row
// per claim (declared, measured, margin, tolerance), a chart of each claim's measurement as a
// percentage of its declared value, the measurement points with their conditions, source and
// steady state, each steady-state point's measurement window and determination, and the
// compliance table.
#include <ptsuite/report/html/test_pages.hpp>

#include <fmt/format.h>

#include <memory>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/header.hpp>

namespace ptsuite::report::html {

using nlohmann::json;

namespace {

// A claim's value in its unit: IOPS and MB/s grouped, latencies in microseconds.
std::string claim_value(const json& v, const json& claim) {
  if (!v.is_number()) return "\u2013";
  const std::string unit = str(at(claim, "unit"));
  if (unit == "IOPS") return fmt_iops(num(v)) + " IOPS";
  if (unit == "MB/s") return fmt_mbps(num(v)) + " MB/s";
  return grouped(num(v), num(v) < 10 ? 2 : 1) + " \u00b5s";
}

std::string metric_text(const json& claim) {
  const std::string m = str(at(claim, "metric"));
  const std::string dir = str(at(claim, "direction"));
  if (m == "iops") return dir + " IOPS";
  if (m == "mb_per_s") return dir + " MB/s";
  if (m == "latency_mean") return dir + " mean latency";
  if (m == "latency_max") return dir + " max latency";
  return fmt::format("{} {} % latency", dir, str(at(claim, "percentile")));
}

std::string verdict_html(const std::string& verdict) {
  if (verdict == "pass") return "<span class=\"good\">PASS</span>";
  if (verdict == "fail") return "<span class=\"bad\">FAIL</span>";
  return "<span class=\"bad\">" + text(verdict == "incomplete" ? "INCOMPLETE" : "NOT COVERED") + "</span>";
}

Block claims_table(const json& v) {
  Table t;
  t.css_class = "data";
  t.header = {"Claim", "As stated", "Conditions", "Metric", "Declared", "Measured", "Margin", "Tolerance", "Verdict"};
  t.first_numeric_column = 4;
  for (const json& c : at(v, "claims")) {
    const json& margin = at(c, "margin_pct");
    t.rows.push_back({text(str(at(c, "id"))), text(str(at(c, "text"))), text(str(at(c, {"conditions", "text"}))),
                      text(metric_text(c)), text(claim_value(at(c, "declared"), c)),
                      text(claim_value(at(c, "measured"), c)),
                      text(margin.is_number() ? fmt::format("{:+.1f} %", num(margin)) : "\u2013"),
                      text(fmt::format("{} %", str(at(c, "tolerance_pct")))), verdict_html(str(at(c, "verdict")))});
  }
  return table_block(render_table(t),
                     "Claims: declared vs measured (margin > 0: better than the sheet; a claim passes when its margin "
                     "is at least minus its tolerance; MB/s = 10^6 bytes/s)");
}

std::string verdict_line(const json& v) {
  const json& t = at(v, "totals");
  std::string line = "Verdict: <b>" + verdict_html(str(at(v, "verdict"))) + "</b> \u2013 " +
                     text(fmt::format("{} of {} claims pass, {} fail, {} not covered", str(at(t, "pass")),
                                      str(at(t, "claims")), str(at(t, "fail")), str(at(t, "not_covered"))));
  for (const json& c : at(v, "claims")) {
    if (str(at(c, "verdict")) == "not covered") {
      line += "<br>" + text(str(at(c, "id")) + ": " + str(at(c, "why")));
    }
  }
  for (const json& caveat : at(v, "caveats")) {
    line += "<br><span class=\"bad\">" + text(str(caveat)) + "</span>";
  }
  return line;
}

// Each judged claim's measurement as % of its declared value, oriented so that 100 % is the
// claim and more is better (latencies: declared / measured).
chart::Chart relative_chart(const json& v) {
  std::vector<std::string> categories;
  chart::NamedSeries claimed{"Declared (100 %)", {}};
  chart::NamedSeries measured{"Measured (% of declared)", {}};
  for (const json& c : at(v, "claims")) {
    if (!at(c, "margin_pct").is_number()) continue;
    const double d = num(at(c, "declared"));
    const double m = num(at(c, "measured"));
    const bool higher = str(at(c, "unit")) != "us";
    const double pct = higher ? m / d * 100.0 : (m > 0 ? d / m * 100.0 : 0.0);
    const double x = static_cast<double>(categories.size());
    categories.push_back(str(at(c, "id")));
    claimed.points.push_back({x, 100.0});
    measured.points.push_back({x, pct});
  }
  return chart::grouped_bar_chart(
      {"Claims vs Measurement", "100 % = the sheet's value; above is better", "claims-bars"}, "Claim", categories,
      "% of declared (latency: declared / measured)", {claimed, measured}, chart::ScaleKind::log10);
}

std::string source_text(const json& p) {
  const json& s = at(p, "source");
  if (str(at(s, "kind")) == "run") {
    return fmt::format("{} {} {} ({})", str(at(s, "test")), str(at(s, "phase")), str(at(s, "segment")),
                       str(at(s, "dir")));
  }
  const json& fill = at(p, "read_fill");
  return fill.is_object()
             ? fmt::format("measured after a {} read fill", fmt_capacity_multiple(num(at(fill, "capacity_multiple"))))
             : std::string("measured");
}

std::string steady_text(const json& p) {
  const json& ss = at(p, "steady_state");
  if (!ss.is_object()) return "FOB (right after the purge)";
  return fmt::format("{} (Rounds {}\u2013{} of {})", at(ss, "attained") == true ? "attained" : "NOT attained",
                     str(at(ss, "window_first_round")), str(at(ss, "window_last_round")), str(at(ss, "rounds")));
}

Block points_table(const json& v) {
  Table t;
  t.css_class = "data";
  t.header = {"Point", "Conditions", "Claims", "Steady state", "Source", "IOPS", "MB/s", "ART (ms)", "99.99 % (ms)"};
  t.first_numeric_column = 5;
  for (const json& p : at(v, "points")) {
    std::string claims;
    for (const json& id : at(p, "claims")) claims += (claims.empty() ? "" : ", ") + str(id);
    const json& c = at(at(p, "summary"), "combined");
    t.rows.push_back({text(str(at(p, "id"))), text(str(at(p, {"conditions", "text"}))), text(claims),
                      text(steady_text(p)), text(source_text(p)), text(fmt_iops(num(at(c, "iops")))),
                      text(fmt_mbps(num(at(c, "mb_per_s")))), text(fmt_ms(num(at(c, {"latency_ns", "mean"})))),
                      text(fmt_ms(num(at(at(at(c, "latency_ns"), "percentiles"), "99.99"))))});
  }
  return table_block(render_table(t), "Measurement points (read + write combined; per-direction values in the CSV)");
}

}  // namespace

std::vector<Page> claims_pages(const json& results, const json& test, IdSource& ids) {
  const json& v = at(test, "validation");
  const json& sheet = at(v, "sheet");
  Rows params;
  params.emplace_back("Spec sheet", text(str(at(sheet, "vendor")) + " " + str(at(sheet, "model"))));
  params.emplace_back("TOIO", text("per claim, as the sheet states it (see the claims table)"));
  params.emplace_back("Sheet source", text(str(at(sheet, "source"))));
  params.emplace_back("Judged", text(str(at(v, "mode")) == "from-runs" ? "on existing runs (no device was touched)"
                                                                       : "measured: every point from a purge"));
  params.emplace_back("Verdict", verdict_html(str(at(v, "verdict"))));
  const auto header =
      std::make_shared<const PageHeader>(test_header(results, test, common_setup_rows(results, test, ""), params));
  std::vector<Page> pages;
  pages.push_back({header,
                   "Spec-Sheet Validation \u2013 Claims vs Measurement",
                   {html_block(element("p", "", verdict_line(v))), claims_table(v)}});
  pages.push_back(
      {header,
       "Spec-Sheet Validation \u2013 Measurement as % of Each Claim",
       {chart_block(relative_chart(v), "Each claim's measurement relative to its declared value", ids, 520)}});
  pages.push_back({header, "Spec-Sheet Validation \u2013 Measurement Points", {points_table(v)}});
  for (const json& phase : at(test, "phases")) {
    for (const json& t : at(phase, "tracking")) {
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
