// Cross Stimulus Recovery report pages (PTS 2.0.2 §12; pts-spec.md §3.6): throughput vs time
// over the three access groups, throughput / ART / MRT vs time, and the recovery table.
#include <ptsuite/report/html/test_pages.hpp>

#include <fmt/format.h>

#include <cmath>
#include <memory>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/header.hpp>

namespace ptsuite::report::html {

using nlohmann::json;

namespace {

// One series per access group of a sample field against test time.
std::vector<chart::NamedSeries> per_group(const json& xsr, const char* y_key, double y_div, double t_div) {
  std::vector<chart::NamedSeries> out;
  for (const json& g : at(xsr, "groups")) {
    chart::NamedSeries s{str(at(g, "name")) + " (" + str(at(g, "stimulus")) + ")", {}};
    for (const json& sample : at(xsr, "samples")) {
      if (str(at(sample, "group")) == str(at(g, "name"))) {
        s.points.push_back({num(at(sample, "end_s")) / t_div, num(at(sample, y_key)) / y_div});
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::string duration_text(const json& ns) { return ns.is_number() ? fmt_duration_ns(ns.get<uint64_t>()) : "\u2013"; }

Block groups_table(const json& xsr) {
  Table t;
  t.css_class = "data";
  t.header = {"Access group", "Stimulus",          "Duration",      "Samples",
              "Average MB/s", "End-of-group MB/s", "Peak ART (ms)", "Peak MRT (ms)"};
  t.first_numeric_column = 2;
  for (const json& g : at(xsr, "groups")) {
    t.rows.push_back({text(str(at(g, "name"))), text(str(at(g, "stimulus"))), text(duration_text(at(g, "duration_ns"))),
                      text(str(at(g, "samples"))), text(fmt_mbps(num(at(g, "average_mb_per_s")))),
                      text(fmt_mbps(num(at(g, "end_mb_per_s")))), text(fmt_ms(num(at(g, "peak_latency_mean_ns")))),
                      text(fmt_ms(num(at(g, "peak_latency_max_ns"))))});
  }
  return table_block(render_table(t), "Access groups: throughput (MB/s, 10^6 bytes/s) and peak response times");
}

std::string recovery_html(const json& r) {
  const std::string rule =
      fmt::format("{} reaching {} % of access-1's {} throughput ({} MB/s)", str(at(r, "group")),
                  str(at(r, "threshold_pct")), str(at(r, "reference")) == "access-1-end" ? "end-of-group" : "average",
                  fmt_mbps(num(at(r, "threshold_mb_per_s"))));
  if (at(r, "recovered").is_boolean() && at(r, "recovered").get<bool>()) {
    const double s = num(at(r, "recovery_time_s"));
    return "Recovery time: <b>" + text(fmt::format("{} min ({} s)", grouped(s / 60, 1), grouped(s, 1))) +
           "</b> \u2013 " + text(rule + ", at sample " + str(at(r, "recovery_sample")));
  }
  return "Recovery time: <span class=\"bad\">NOT RECOVERED</span> \u2013 " + text(rule + " never happened");
}

}  // namespace

std::vector<Page> xsr_pages(const json& results, const json& test, IdSource& ids) {
  const json& xsr = at(test, "xsr");
  const json& samples = at(xsr, "samples");
  const double end_s = samples.is_array() && !samples.empty() ? num(at(samples.back(), "end_s")) : 0;
  const bool minutes = !(end_s < 600);
  const double t_div = minutes ? 60 : 1;
  const std::string t_label = minutes ? "Time (min)" : "Time (s)";

  Rows params;
  std::string groups;
  for (const json& g : at(xsr, "groups")) {
    groups += (groups.empty() ? "" : "; ") + str(at(g, "name")) + ": " + str(at(g, "stimulus")) + ", " +
              duration_text(at(g, "duration_ns"));
  }
  params.emplace_back("Stimulus", text(groups.empty() ? "\u2013" : groups));
  params.emplace_back("TOIO", text(toio_text(at(test, "toio"))));
  params.emplace_back("Sample", text(duration_text(at(xsr, "sample_duration_ns"))));
  params.emplace_back("Recovery", recovery_html(at(xsr, "recovery")));
  params.emplace_back("Steady state", "not a round loop: XSR records every sample of its three access groups");
  const auto header =
      std::make_shared<const PageHeader>(test_header(results, test, common_setup_rows(results, test, ""), params));

  std::vector<Page> pages;
  pages.push_back(
      {header,
       "XSR \u2013 Throughput vs Time",
       {chart_block(
            chart::time_series_chart(
                {"XSR Throughput vs Time", "write MB/s per sample, one series per access group", "xsr-tp"}, t_label,
                "Throughput (MB/s, decimal)", per_group(xsr, "mb_per_s", 1, t_div), chart::ScaleKind::linear),
            "XSR: write throughput per sample vs time, access groups 1-3", ids, 560),
        html_block(element("p", "note", recovery_html(at(xsr, "recovery"))))}});
  std::vector<chart::NamedSeries> rt = per_group(xsr, "latency_mean_ns", 1e6, t_div);
  for (chart::NamedSeries& s : rt) {
    s.name = "ART " + s.name;
  }
  for (chart::NamedSeries& s : per_group(xsr, "latency_max_ns", 1e6, t_div)) {
    s.name = "MRT " + s.name;
    rt.push_back(std::move(s));
  }
  pages.push_back(
      {header,
       "XSR \u2013 Throughput, ART and MRT vs Time",
       {chart_block(chart::time_series_chart({"XSR Throughput vs Time", "write MB/s", "xsr-tp-log"}, t_label,
                                             "Throughput (MB/s, decimal)", per_group(xsr, "mb_per_s", 1, t_div),
                                             chart::ScaleKind::log10),
                    "XSR: throughput vs time (log y)", ids, 330),
        chart_block(chart::time_series_chart({"XSR Response Times vs Time", "ART and MRT per sample", "xsr-rt"},
                                             t_label, "Response time (ms)", rt, chart::ScaleKind::log10),
                    "XSR: ART and MRT per sample vs time (log y)", ids, 330)}});
  pages.push_back({header,
                   "XSR \u2013 Access Groups and Recovery",
                   {groups_table(xsr), html_block(element("p", "", recovery_html(at(xsr, "recovery"))))}});
  for (Page& p : compliance_pages(header, test, "XSR")) {
    pages.push_back(std::move(p));
  }
  return pages;
}

}  // namespace ptsuite::report::html
