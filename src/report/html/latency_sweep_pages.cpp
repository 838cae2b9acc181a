// latency-sweep report pages (a ptsuite extension of the Latency test over TC x QD): the
// steady-state measurement window of the tracking variable, then per R/W mix and block size
// the latency-vs-IOPS plots (ART and 99.99 %, one series per TC, points in QD order) and the
// table of every cell (IOPS, MB/s, ART, 99, 99.9, 99.99, 99.999 %, MRT).
#include <ptsuite/report/html/test_pages.hpp>

#include <fmt/format.h>

#include <memory>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/header.hpp>

namespace ptsuite::report::html {

using nlohmann::json;

namespace {

// The cells of one (mix, block size) in grid order.
std::vector<const json*> cells_of(const json& sweep, const std::string& mix, double bs) {
  std::vector<const json*> out;
  for (const json& c : at(sweep, "cells")) {
    if (str(at(c, "rw_mix")) == mix && num(at(c, "block_size_bytes")) == bs) out.push_back(&c);
  }
  return out;
}

// One series per TC of `y_key` (ms) against IOPS, the points in QD order.
std::vector<chart::NamedSeries> per_tc(const std::vector<const json*>& cells, const json& tcs, const char* y_key) {
  std::vector<chart::NamedSeries> out;
  for (const json& tc : tcs) {
    chart::NamedSeries s{"TC " + str(tc), {}};
    for (const json* c : cells) {
      if (num(at(*c, "threads")) == num(tc)) s.points.push_back({num(at(*c, "iops")), num(at(*c, y_key)) / 1e6});
    }
    out.push_back(std::move(s));
  }
  return out;
}

Block cells_table(const std::vector<const json*>& cells, const std::string& what) {
  Table t;
  t.css_class = "data compact";
  t.header = {"TC",        "QD",          "IOPS",         "MB/s",          "ART (ms)",
              "99 % (ms)", "99.9 % (ms)", "99.99 % (ms)", "99.999 % (ms)", "MRT (ms)"};
  t.first_numeric_column = 0;
  for (const json* c : cells) {
    t.rows.push_back({text(str(at(*c, "threads"))), text(str(at(*c, "queue_depth"))),
                      text(fmt_iops(num(at(*c, "iops")))), text(fmt_mbps(num(at(*c, "mb_per_s")))),
                      text(fmt_ms(num(at(*c, "latency_mean_ns")))), text(fmt_ms(num(at(*c, "latency_p99_ns")))),
                      text(fmt_ms(num(at(*c, "latency_p99_9_ns")))), text(fmt_ms(num(at(*c, "latency_p99_99_ns")))),
                      text(fmt_ms(num(at(*c, "latency_p99_999_ns")))), text(fmt_ms(num(at(*c, "latency_max_ns"))))});
  }
  return table_block(render_table(t), what + ": measurement-window values per TC x QD (read + write combined)");
}

}  // namespace

std::vector<Page> latency_sweep_pages(const json& results, const json& test, IdSource& ids) {
  const json& sweep = at(test, "sweep");
  static const json none;
  const json& phases = at(test, "phases");
  const json& phase = phases.is_array() && !phases.empty() ? phases.front() : none;
  Rows params;
  std::string tcs, qds;
  for (const json& t : at(sweep, "thread_counts")) tcs += (tcs.empty() ? "" : ", ") + str(t);
  for (const json& q : at(sweep, "queue_depths")) qds += (qds.empty() ? "" : ", ") + str(q);
  params.emplace_back("Grid", text(fmt::format("R/W mix x block size x TC {{{}}} x QD {{{}}}", tcs, qds)));
  params.emplace_back("TOIO", text("every TC x QD of the grid (not a PTS test)"));
  params.emplace_back("SS Rounds", ss_rounds_html(phase));
  const auto header =
      std::make_shared<const PageHeader>(test_header(results, test, common_setup_rows(results, test, ""), params));
  std::vector<Page> pages;
  for (const json& t : at(phase, "tracking")) {
    pages.push_back({header,
                     "Latency Sweep \u2013 Steady State Measurement Window",
                     {window_block(phase, t, "Latency Sweep", ids, 420), determination_block(phase, t)}});
  }
  for (const json& mix : at(sweep, "rw_mixes")) {
    for (const json& bs : at(sweep, "block_sizes_bytes")) {
      const std::vector<const json*> cells = cells_of(sweep, str(mix), num(bs));
      const std::string what = fmt::format("RND {} {}", kib_label(bs.get<uint64_t>()), str(mix));
      const std::string id = "sweep-" + str(mix) + "-" + str(bs);
      pages.push_back({header,
                       "Latency Sweep " + what + " \u2013 Latency vs IOPS per TC",
                       {chart_block(chart::demand_intensity_chart(
                                        {"ART vs IOPS, " + what, "one series per TC, QD 1 \u2192 32", id + "-art"},
                                        "ART (ms)", per_tc(cells, at(sweep, "thread_counts"), "latency_mean_ns"), {}),
                                    what + ": ART (log) vs IOPS per thread count", ids, 330),
                        chart_block(chart::demand_intensity_chart(
                                        {"99.99 % vs IOPS, " + what, "one series per TC", id + "-p9999"},
                                        "99.99 % response time (ms)",
                                        per_tc(cells, at(sweep, "thread_counts"), "latency_p99_99_ns"), {}),
                                    what + ": 99.99 % response time (log) vs IOPS per thread count", ids, 330)}});
      pages.push_back(
          {header, "Latency Sweep " + what + " \u2013 Response Times per TC x QD", {cells_table(cells, what)}});
    }
  }
  for (Page& p : compliance_pages(header, test, "Latency Sweep")) {
    pages.push_back(std::move(p));
  }
  return pages;
}

}  // namespace ptsuite::report::html
