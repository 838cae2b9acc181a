// latency-sweep report pages (a ptsuite extension of the Latency test over TC x QD): the
// steady-state measurement window of the tracking variable, then per R/W mix and block size
// the latency-vs-IOPS plots (one series per TC, points in QD order): ART and 99 %, then 99.9 %
// (the PTS 2.0.1 lab report charts 99 % and 99.9 %) and 99.99 %; and the table of every cell
// (IOPS, MB/s, ART, 99, 99.9, 99.99, 99.999 %, MRT).
#include <ptsuite/report/html/test_pages.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/header.hpp>
#include <ptsuite/report/window_labels.hpp>
#include <ptsuite/results/latency_sweep.hpp>

namespace ptsuite::report::html {

namespace {

using results::SweepCell;

// The cells of one (mix, block size) in grid order.
std::vector<const SweepCell*> cells_of(const results::LatencySweepBlock& sweep, const std::string& mix, uint64_t bs) {
  std::vector<const SweepCell*> out;
  for (const SweepCell& c : sweep.cells) {
    if (c.rw_mix == mix && c.block_size_bytes == bs) out.push_back(&c);
  }
  return out;
}

double art_ns(const SweepCell& c) { return c.latency.latency_mean_ns; }
double p99_ns(const SweepCell& c) { return static_cast<double>(c.latency.latency_p99_ns); }
double p99_9_ns(const SweepCell& c) { return static_cast<double>(c.latency.latency_p99_9_ns); }
double p99_99_ns(const SweepCell& c) { return static_cast<double>(c.latency.latency_p99_99_ns); }

// One series per TC of `y` (ms) against IOPS, the points in QD order.
std::vector<chart::NamedSeries> per_tc(const std::vector<const SweepCell*>& cells, const std::vector<uint32_t>& tcs,
                                       double (*y)(const SweepCell&)) {
  std::vector<chart::NamedSeries> out;
  for (const uint32_t tc : tcs) {
    chart::NamedSeries s{"TC " + std::to_string(tc), {}};
    for (const SweepCell* c : cells) {
      if (c->threads == tc) s.points.push_back({c->iops, y(*c) / 1e6});
    }
    out.push_back(std::move(s));
  }
  return out;
}

// One latency-vs-IOPS chart of a statistic (`name`: "ART", "99 %", ...), one series per TC.
Block statistic_block(const std::vector<const SweepCell*>& cells, const results::LatencySweepBlock& sweep,
                      const std::string& what, const std::string& id, const std::string& name,
                      double (*y)(const SweepCell&), IdSource& ids) {
  const std::string axis = name == "ART" ? "ART (ms)" : name + " response time (ms)";
  return chart_block(
      chart::demand_intensity_chart({name + " vs IOPS, " + what, "one series per TC, QD in order", id}, axis,
                                    per_tc(cells, sweep.thread_counts, y), {}),
      what + ": " + (name == "ART" ? "ART" : name + " response time") + " (log) vs IOPS per thread count", ids, 330);
}

// With a round-mean MRT, a "Max (ms)" column beside it: the window's exact maximum, which no
// percentile exceeds (window_labels.hpp).
Block cells_table(const std::vector<const SweepCell*>& cells, const std::string& what, const WindowLabels& labels) {
  const bool with_max = labels.show_max && std::all_of(cells.begin(), cells.end(), [](const SweepCell* c) {
                          return c->latency_window_max_ns.has_value();
                        });
  Table t;
  t.css_class = "data compact";
  t.header = {"TC",        "QD",          "IOPS",         "MB/s",          "ART (ms)",
              "99 % (ms)", "99.9 % (ms)", "99.99 % (ms)", "99.999 % (ms)", "MRT (ms)"};
  if (with_max) t.header.emplace_back("Max (ms)");
  t.first_numeric_column = 0;
  const auto ms = [](uint64_t ns) { return text(fmt_ms(static_cast<double>(ns))); };
  for (const SweepCell* c : cells) {
    t.rows.push_back({text(std::to_string(c->threads)), text(std::to_string(c->queue_depth)), text(fmt_iops(c->iops)),
                      text(fmt_mbps(c->mb_per_s)), text(fmt_ms(c->latency.latency_mean_ns)),
                      ms(c->latency.latency_p99_ns), ms(c->latency.latency_p99_9_ns), ms(c->latency.latency_p99_99_ns),
                      ms(c->latency.latency_p99_999_ns), ms(c->latency.latency_max_ns)});
    if (with_max) t.rows.back().push_back(ms(*c->latency_window_max_ns));
  }
  return table_block(render_table(t), what + ": measurement-window values per TC x QD (read + write combined; ART " +
                                          labels.art + "; MRT " + labels.mrt + "; each percentile a " + labels.nines +
                                          (with_max ? "; Max the " + labels.max : std::string()) + ")");
}

}  // namespace

std::vector<Page> latency_sweep_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids) {
  const results::LatencySweepBlock& sweep = block_or_empty<results::LatencySweepBlock>(test);
  const std::vector<results::RoundPhase>& phases = test.phases;
  const results::RoundPhase& phase = phase_at(phases, 0);
  Rows params;
  std::string tcs, qds;
  for (const uint32_t t : sweep.thread_counts) tcs += (tcs.empty() ? "" : ", ") + std::to_string(t);
  for (const uint32_t q : sweep.queue_depths) qds += (qds.empty() ? "" : ", ") + std::to_string(q);
  params.emplace_back("Grid", text(fmt::format("R/W mix x block size x TC {{{}}} x QD {{{}}}", tcs, qds)));
  params.emplace_back("TOIO", text("every TC x QD of the grid (not a PTS test)"));
  params.emplace_back("SS Rounds", ss_rounds_html(phase));
  const auto header = std::make_shared<const PageHeader>(
      test_header(doc.header, test, common_setup_rows(doc.header, test, ""), params));
  std::vector<Page> pages;
  for (const results::PhaseTracking& t : phase.tracking) {
    pages.push_back({header,
                     "Latency Sweep \u2013 Steady State Measurement Window",
                     {window_block(phase, t, "Latency Sweep", ids, 420), determination_block(phase, t)}});
  }
  for (const std::string& mix : sweep.rw_mixes) {
    for (const uint64_t bs : sweep.block_sizes_bytes) {
      const std::vector<const SweepCell*> cells = cells_of(sweep, mix, bs);
      const std::string what = fmt::format("RND {} {}", kib_label(bs), mix);
      const std::string id = "sweep-" + mix + "-" + std::to_string(bs);
      pages.push_back({header,
                       "Latency Sweep " + what + " \u2013 ART and 99 % vs IOPS per TC",
                       {statistic_block(cells, sweep, what, id + "-art", "ART", art_ns, ids),
                        statistic_block(cells, sweep, what, id + "-p99", "99 %", p99_ns, ids)}});
      pages.push_back({header,
                       "Latency Sweep " + what + " \u2013 99.9 % and 99.99 % vs IOPS per TC",
                       {statistic_block(cells, sweep, what, id + "-p999", "99.9 %", p99_9_ns, ids),
                        statistic_block(cells, sweep, what, id + "-p9999", "99.99 %", p99_99_ns, ids)}});
      pages.push_back({header,
                       "Latency Sweep " + what + " \u2013 Response Times per TC x QD",
                       {cells_table(cells, what, window_labels(test.header))}});
    }
  }
  for (Page& p : compliance_pages(header, test, "Latency Sweep")) {
    pages.push_back(std::move(p));
  }
  return pages;
}

}  // namespace ptsuite::report::html
