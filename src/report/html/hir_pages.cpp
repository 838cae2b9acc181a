// Host Idle Recovery report pages (PTS 2.0.2 §11; pts-spec.md §3.5): the preconditioning
// convergence and its measurement window, IOPS vs time across every wait state with the write
// periods plotted back to back, and per wait state the average IOPS against the baseline and
// the steady-state IOPS.
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/figures.hpp>
#include <ptsuite/report/html/header.hpp>
#include <ptsuite/report/html/test_pages.hpp>
#include <ptsuite/results/hir.hpp>

namespace ptsuite::report::html {

namespace {

std::string ws_name(const results::HirWaitState& ws) {
  return fmt::format("WS {} (idle {})", ws.wait_state, fmt_duration_ns(ws.idle_ns));
}

// The back-to-back series split by wait state (0 = a baseline interval), one legend entry each.
std::vector<chart::NamedSeries> series_by_wait_state(const results::HirSeries& s) {
  std::vector<chart::NamedSeries> out;
  std::vector<uint32_t> keys;
  for (size_t i = 0; i < s.end_s.size(); ++i) {
    const uint32_t ws = s.wait_state[i];
    const size_t k = static_cast<size_t>(std::find(keys.begin(), keys.end(), ws) - keys.begin());
    if (k == keys.size()) {
      keys.push_back(ws);
      out.push_back({ws == 0 ? std::string("baseline (no idle)") : "wait state " + std::to_string(ws), {}});
    }
    out[k].points.push_back({s.end_s[i], s.iops[i]});
  }
  return out;
}

// The template segment the preconditioning tracks (each Round's last; 0 when not recorded).
size_t tracked_segment(const results::RoundPhase& pre) {
  return pre.tracking.empty() ? 0 : pre.tracking.front().segment_index;
}

Block wait_state_table(const results::HirBlock& hir) {
  Table t;
  t.css_class = "data";
  t.header = {"Wait state", "Host idle", "Repetitions", "Average IOPS", "Baseline IOPS", "vs steady state"};
  t.first_numeric_column = 1;
  const double ss = hir.steady_state_iops;
  for (const results::HirWaitState& ws : hir.wait_states) {
    const double avg = ws.average_iops;
    t.rows.push_back({text(std::to_string(ws.wait_state)), text(fmt_duration_ns(ws.idle_ns)),
                      text(std::to_string(ws.repetitions)), text(grouped(avg, 0)), text(grouped(ws.baseline.iops, 0)),
                      text(ss > 0 ? fmt::format("{:+.1f} %", (avg / ss - 1) * 100) : std::string("\u2013"))});
  }
  return table_block(render_table(t), "Per wait state: average IOPS of the write periods, baseline IOPS after it");
}

}  // namespace

std::vector<Page> hir_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids) {
  const results::HirBlock& hir = block_or_empty<results::HirBlock>(test);
  const std::vector<results::RoundPhase>& phases = test.phases;
  const results::RoundPhase& pre = phase_at(phases, 0);  // the preconditioning
  Rows params;
  params.emplace_back("Stimulus", text(hir.stimulus));
  params.emplace_back("TOIO", text(toio_text(test.header.toio)));
  params.emplace_back("Write period", text(fmt_duration_ns(hir.write_period_ns)));
  params.emplace_back("Wait unit", text(fmt_duration_ns(hir.wait_unit_ns)));
  params.emplace_back("Repetitions", text(fmt::format("{} per wait state, then {} baseline periods", hir.repetitions,
                                                      hir.baseline_periods)));
  for (auto& row : round_loop_rows(pre)) {
    params.push_back(std::move(row));
  }
  const auto header = std::make_shared<const PageHeader>(test_header(
      doc.header, test, common_setup_rows(doc.header, test, text(hir.stimulus) + " to steady state"), params));

  std::vector<Page> pages;
  pages.push_back({header,
                   "HIR \u2013 Preconditioning: Steady State Convergence",
                   {chart_block(chart::convergence_chart(
                                    {"HIR Preconditioning IOPS vs Round", hir.stimulus, "hir-pre"}, "IOPS",
                                    {{"IOPS", round_series(pre, tracked_segment(pre), SegmentValue::iops, 1)}}),
                                "Preconditioning: IOPS of each Round's last segment vs Round", ids, 560),
                    html_block(element("p", "note", "Preconditioning SS " + ss_rounds_html(pre)))}});
  for (const results::PhaseTracking& t : pre.tracking) {
    pages.push_back({header,
                     "HIR \u2013 Preconditioning: Steady State Measurement Window",
                     {window_block(pre, t, "HIR preconditioning", ids, 420), determination_block(pre, t)}});
  }
  pages.push_back(
      {header,
       "HIR \u2013 IOPS vs Time, All Wait States",
       {chart_block(chart::time_series_chart(
                        {"HIR IOPS vs Time", "write periods back to back; idle time not shown", "hir-iops"},
                        "Write time (s)", "IOPS", series_by_wait_state(hir.series), chart::ScaleKind::linear),
                    "HIR: IOPS of every write period and baseline interval, idle time left out", ids, 560)}});
  std::vector<std::string> categories;
  chart::NamedSeries avg{"average IOPS of the write periods", {}};
  chart::NamedSeries base{"baseline IOPS after the wait state", {}};
  for (const results::HirWaitState& ws : hir.wait_states) {
    categories.push_back(ws_name(ws));
    avg.points.push_back({0, ws.average_iops});
    base.points.push_back({0, ws.baseline.iops});
  }
  pages.push_back({header,
                   "HIR \u2013 IOPS per Wait State",
                   {chart_block(chart::grouped_bar_chart(
                                    {"HIR IOPS per Wait State",
                                     fmt::format("steady state {} IOPS", grouped(hir.steady_state_iops, 0)), "hir-ws"},
                                    "Wait state", categories, "IOPS", {avg, base}, chart::ScaleKind::linear),
                                "HIR: average IOPS per wait state and the baseline after it", ids, 400),
                    wait_state_table(hir)}});
  for (Page& p : compliance_pages(header, test, "HIR")) {
    pages.push_back(std::move(p));
  }
  return pages;
}

}  // namespace ptsuite::report::html
