// The real-world-workload tests' pages (docs/rww.md; extensions modelled on SNIA RWSW, never
// RWSW-compliant): the capture's stream table (the applied test workload) first, then
//   rww-sweep    the DIRTH pages over the applied test workload (demand variation, demand
//                intensity, operating points, histograms: rww_sweep_demand_pages)
//   rww-streams  each stream alone: the table of their steady-state figures and the
//                stream-weighted IOPS, then per stream its measurement window and determination
//   rww-replay   the preconditioning and replay windows, then per capture step the captured
//                and the replayed IOPS and ART (bars and a table)
// Read from the record only (results/applied_workload.hpp, rww_streams.hpp, rww_replay.hpp).
#include <fmt/format.h>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/figures.hpp>
#include <ptsuite/report/html/header.hpp>
#include <ptsuite/report/html/test_pages.hpp>
#include <ptsuite/results/applied_workload.hpp>
#include <ptsuite/results/round_phase.hpp>
#include <ptsuite/results/rww_replay.hpp>
#include <ptsuite/results/rww_streams.hpp>

namespace ptsuite::report::html {

namespace {

constexpr char k_disclaimer[] =
    "A ptsuite extension modelled on the SNIA Real World Storage Workload (RWSW) PTS, which could not be "
    "checked against its text: not RWSW-compliant. Every RWSW-specific value is a named [U] setting, listed "
    "on the Settings page.";

// The record's applied workload, or an empty one (a record written without it).
const results::AppliedWorkload& applied_workload(const results::TestRecord& test) {
  static const results::AppliedWorkload k_none{};
  return test.applied_workload ? *test.applied_workload : k_none;
}

Page applied_workload_page(const std::shared_ptr<const PageHeader>& header, const results::TestRecord& test,
                           const std::string& name) {
  const results::AppliedWorkload& w = applied_workload(test);
  Table t;
  t.header = {"IO stream", "Pattern", "Transfer size", "Op", "% of captured IOs", "% of applied workload"};
  t.first_numeric_column = 2;
  for (const results::AppliedStream& s : w.streams) {
    t.rows.push_back({text(s.name), s.sequential ? "SEQ" : "RND", kib_label(s.size_bytes), s.write ? "W" : "R",
                      fmt_number(s.captured_share * 100), fmt_number(s.weight * 100)});
  }
  const std::string facts = fmt::format(
      "Capture {} (device {}, {} IOs, {} IO streams). Applied test workload: the top {} read/write streams, "
      "covering {:.1f} % of the captured IOs (goal {:.0f} %, setting rww.coverage [U]); {} flush/discard "
      "streams passed over.",
      w.capture, w.capture_device, w.capture_ios, w.capture_streams, w.streams.size(), w.covered * 100,
      w.coverage_goal * 100, w.passed_over);
  return Page{header,
              name + " \u2013 Applied Test Workload (Capture IO Streams)",
              {html_block(element("p", "note", text(k_disclaimer))), html_block(element("p", "", text(facts))),
               table_block(render_table(t), "Applied test workload: IO streams and their shares")}};
}

std::vector<Page> window_pages(const std::shared_ptr<const PageHeader>& header, const results::TestRecord& test,
                               IdSource& ids, const std::string& name) {
  std::vector<Page> pages;
  for (const results::RoundPhase& phase : test.phases) {
    for (const results::PhaseTracking& tracking : phase.tracking) {
      pages.push_back(Page{
          header,
          name + " \u2013 " + tracking.name + ": Steady State Measurement Window",
          {window_block(phase, tracking, name + " " + phase.phase, ids, 330), determination_block(phase, tracking)}});
    }
  }
  return pages;
}

Block streams_table(const results::RwwStreamsBlock& b) {
  Table t;
  t.header = {"IO stream", "Weight %", "Steady state", "Rounds", "IOPS", "MB/s", "ART (ms)", "MRT (ms)"};
  for (const results::RwwStream& s : b.streams) {
    t.rows.push_back({text(s.name), fmt_number(s.weight * 100), s.steady_state ? "attained" : "NOT ACHIEVED",
                      std::to_string(s.rounds), fmt_iops(s.iops), fmt_mbps(s.mb_per_s), fmt_ms(s.latency_mean_ns),
                      fmt_ms(static_cast<double>(s.latency_max_ns))});
  }
  t.rows.push_back({"Stream-weighted IOPS 1 / \u03a3(w / IOPS)", "100", "", "", fmt_iops(b.weighted_iops), "", "", ""});
  return table_block(render_table(t), fmt::format("Each stream alone at TC {} / QD {} (measurement-window averages)",
                                                  b.threads, b.queue_depth));
}

Block replay_table(const results::RwwReplayBlock& b) {
  Table t;
  t.header = {"Step",    "Start (s)",  "Captured IOPS", "Captured QD", "Captured ART (ms)",
              "Streams", "QD applied", "IOPS",          "MB/s",        "ART (ms)"};
  for (const results::RwwReplayStep& s : b.steps) {
    t.rows.push_back({std::to_string(s.step + 1), fmt_number(static_cast<double>(s.start_ns) / 1e9),
                      fmt_iops(s.captured_iops), fmt_number(s.captured_qd_mean), fmt_ms(s.captured_latency_mean_ns),
                      std::to_string(s.streams), std::to_string(s.queue_depth), fmt_iops(s.iops), fmt_mbps(s.mb_per_s),
                      fmt_ms(s.latency_mean_ns)});
  }
  return table_block(render_table(t),
                     fmt::format("Per capture step of {}: the capture's figures and the device's (TC 1 x the QD "
                                 "applied; measurement-window averages); {} idle steps not replayed",
                                 fmt_duration_ns(b.step_ns), b.idle_steps));
}

Block replay_chart(const results::RwwReplayBlock& b, IdSource& ids, bool latency) {
  std::vector<std::string> steps;
  chart::NamedSeries captured{"capture", {}};
  chart::NamedSeries device{"device under test", {}};
  for (const results::RwwReplayStep& s : b.steps) {
    steps.push_back(std::to_string(s.step + 1));
    captured.points.push_back({0, latency ? s.captured_latency_mean_ns / 1e6 : s.captured_iops});
    device.points.push_back({0, latency ? s.latency_mean_ns / 1e6 : s.iops});
  }
  const std::string what = latency ? "ART" : "IOPS";
  return chart_block(
      chart::grouped_bar_chart(
          {"RWW REPLAY " + what + " per Step", "capture vs device under test", latency ? "rww-art" : "rww-iops"},
          "Capture step", steps, latency ? "ART (ms)" : "IOPS", {captured, device}, chart::ScaleKind::linear),
      "RWW REPLAY: " + what + " per capture step, captured and replayed", ids, 330);
}

}  // namespace

std::vector<Page> rww_replay_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids) {
  const results::RwwReplayBlock& block = block_or_empty<results::RwwReplayBlock>(test);
  Rows params;
  params.emplace_back("Capture", text(applied_workload(test).capture));
  params.emplace_back("Step", text(fmt_duration_ns(block.step_ns)));
  const auto header = std::make_shared<const PageHeader>(test_header(
      doc.header, test, common_setup_rows(doc.header, test, "the applied test workload at TC 32 / QD 32"), params));
  std::vector<Page> pages = {applied_workload_page(header, test, "RWW REPLAY")};
  for (Page& p : window_pages(header, test, ids, "RWW REPLAY")) pages.push_back(std::move(p));
  pages.push_back(
      Page{header, "RWW REPLAY \u2013 IOPS per Capture Step", {replay_chart(block, ids, false), replay_table(block)}});
  pages.push_back(Page{header, "RWW REPLAY \u2013 Response Time per Capture Step", {replay_chart(block, ids, true)}});
  for (Page& p : compliance_pages(header, test, "RWW REPLAY")) pages.push_back(std::move(p));
  return pages;
}

std::vector<Page> rww_sweep_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids) {
  std::vector<Page> pages = rww_sweep_demand_pages(doc, test, ids);
  if (!pages.empty()) {
    pages.insert(pages.begin(), applied_workload_page(pages.front().header, test, "RWW SWEEP"));
  }
  return pages;
}

std::vector<Page> rww_streams_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids) {
  const results::RwwStreamsBlock& block = block_or_empty<results::RwwStreamsBlock>(test);
  Rows params;
  params.emplace_back("TOIO", text(toio_text(test.header.toio) + " per stream"));
  params.emplace_back("Capture", text(applied_workload(test).capture));
  const auto header = std::make_shared<const PageHeader>(
      test_header(doc.header, test, common_setup_rows(doc.header, test, "each stream alone to steady state"), params));
  std::vector<Page> pages = {applied_workload_page(header, test, "RWW STREAMS"),
                             Page{header, "RWW STREAMS \u2013 Each Stream Alone", {streams_table(block)}}};
  for (Page& p : window_pages(header, test, ids, "RWW STREAMS")) pages.push_back(std::move(p));
  for (Page& p : compliance_pages(header, test, "RWW STREAMS")) pages.push_back(std::move(p));
  return pages;
}

}  // namespace ptsuite::report::html
