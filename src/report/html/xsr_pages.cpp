// Cross Stimulus Recovery report pages (PTS 2.0.2 §12; pts-spec.md §3.6): throughput vs time
// over the three access groups, throughput / ART / MRT vs time, and the recovery table.
#include <ptsuite/report/html/test_pages.hpp>

#include <fmt/format.h>

#include <cmath>
#include <memory>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/header.hpp>
#include <ptsuite/results/xsr.hpp>

namespace ptsuite::report::html {

namespace {

// One series per access group of a sample value against test time.
std::vector<chart::NamedSeries> per_group(const results::XsrBlock& xsr, double (*value)(const results::XsrSample&),
                                          double y_div, double t_div) {
  std::vector<chart::NamedSeries> out;
  for (const results::XsrGroup& g : xsr.groups) {
    chart::NamedSeries s{g.name + " (" + g.stimulus + ")", {}};
    for (const results::XsrSample& sample : xsr.samples) {
      if (sample.group == g.name) {
        s.points.push_back({sample.end_s / t_div, value(sample) / y_div});
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

double mb_per_s(const results::XsrSample& s) { return s.mb_per_s; }
double art_ns(const results::XsrSample& s) { return s.latency_mean_ns; }
double mrt_ns(const results::XsrSample& s) { return static_cast<double>(s.latency_max_ns); }

Block groups_table(const results::XsrBlock& xsr) {
  Table t;
  t.css_class = "data";
  t.header = {"Access group", "Stimulus",          "Duration",      "Samples",
              "Average MB/s", "End-of-group MB/s", "Peak ART (ms)", "Peak MRT (ms)"};
  t.first_numeric_column = 2;
  for (const results::XsrGroup& g : xsr.groups) {
    t.rows.push_back({text(g.name), text(g.stimulus), text(fmt_duration_ns(g.duration_ns)),
                      text(std::to_string(g.samples)), text(fmt_mbps(g.average_mb_per_s)),
                      text(fmt_mbps(g.end_mb_per_s)), text(fmt_ms(g.peak_latency_mean_ns)),
                      text(fmt_ms(static_cast<double>(g.peak_latency_max_ns)))});
  }
  return table_block(render_table(t), "Access groups: throughput (MB/s, 10^6 bytes/s) and peak response times");
}

std::string recovery_html(const results::XsrRecovery& r) {
  const std::string rule =
      fmt::format("{} reaching {} % of access-1's {} throughput ({} MB/s)", r.group, r.threshold_pct,
                  r.reference == "access-1-end" ? "end-of-group" : "average", fmt_mbps(r.threshold_mb_per_s));
  if (r.recovered) {
    const double s = r.recovery_time_s.value_or(std::nan(""));
    return "Recovery time: <b>" + text(fmt::format("{} min ({} s)", grouped(s / 60, 1), grouped(s, 1))) +
           "</b> \u2013 " +
           text(rule + ", at sample " + (r.recovery_sample ? std::to_string(*r.recovery_sample) : std::string()));
  }
  return "Recovery time: <span class=\"bad\">NOT RECOVERED</span> \u2013 " + text(rule + " never happened");
}

}  // namespace

std::vector<Page> xsr_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids) {
  const results::XsrBlock& xsr = block_or_empty<results::XsrBlock>(test);
  const double end_s = xsr.samples.empty() ? 0 : xsr.samples.back().end_s;
  const bool minutes = !(end_s < 600);
  const double t_div = minutes ? 60 : 1;
  const std::string t_label = minutes ? "Time (min)" : "Time (s)";

  Rows params;
  std::string groups;
  for (const results::XsrGroup& g : xsr.groups) {
    groups += (groups.empty() ? "" : "; ") + g.name + ": " + g.stimulus + ", " + fmt_duration_ns(g.duration_ns);
  }
  params.emplace_back("Stimulus", text(groups.empty() ? "\u2013" : groups));
  params.emplace_back("TOIO", text(toio_text(test.header.toio)));
  params.emplace_back("Sample", text(fmt_duration_ns(xsr.sample_duration_ns)));
  params.emplace_back("Recovery", recovery_html(xsr.recovery));
  params.emplace_back("Steady state", "not a round loop: XSR records every sample of its three access groups");
  const auto header = std::make_shared<const PageHeader>(
      test_header(doc.header, test, common_setup_rows(doc.header, test, ""), params));

  std::vector<Page> pages;
  pages.push_back(
      {header,
       "XSR \u2013 Throughput vs Time",
       {chart_block(
            chart::time_series_chart(
                {"XSR Throughput vs Time", "write MB/s per sample, one series per access group", "xsr-tp"}, t_label,
                "Throughput (MB/s, decimal)", per_group(xsr, mb_per_s, 1, t_div), chart::ScaleKind::linear),
            "XSR: write throughput per sample vs time, access groups 1-3", ids, 560),
        html_block(element("p", "note", recovery_html(xsr.recovery)))}});
  std::vector<chart::NamedSeries> rt = per_group(xsr, art_ns, 1e6, t_div);
  for (chart::NamedSeries& s : rt) {
    s.name = "ART " + s.name;
  }
  for (chart::NamedSeries& s : per_group(xsr, mrt_ns, 1e6, t_div)) {
    s.name = "MRT " + s.name;
    rt.push_back(std::move(s));
  }
  pages.push_back(
      {header,
       "XSR \u2013 Throughput, ART and MRT vs Time",
       {chart_block(chart::time_series_chart({"XSR Throughput vs Time", "write MB/s", "xsr-tp-log"}, t_label,
                                             "Throughput (MB/s, decimal)", per_group(xsr, mb_per_s, 1, t_div),
                                             chart::ScaleKind::log10),
                    "XSR: throughput vs time (log y)", ids, 330),
        chart_block(chart::time_series_chart({"XSR Response Times vs Time", "ART and MRT per sample", "xsr-rt"},
                                             t_label, "Response time (ms)", rt, chart::ScaleKind::log10),
                    "XSR: ART and MRT per sample vs time (log y)", ids, 330)}});
  pages.push_back({header,
                   "XSR \u2013 Access Groups and Recovery",
                   {groups_table(xsr), html_block(element("p", "", recovery_html(xsr.recovery)))}});
  for (Page& p : compliance_pages(header, test, "XSR")) {
    pages.push_back(std::move(p));
  }
  return pages;
}

}  // namespace ptsuite::report::html
