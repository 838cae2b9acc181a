// Throughput report pages (PTS 2.0.2 §8; pts-spec.md §3.2): per block size the SS convergence
// of write and read MB/s, the measurement window and determination; then the MB/s table.
#include <ptsuite/report/html/test_pages.hpp>

#include <cmath>
#include <memory>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/header.hpp>
#include <ptsuite/report/html/matrix_view.hpp>
#include <ptsuite/results/segment_result.hpp>
#include <ptsuite/results/throughput_table.hpp>

namespace ptsuite::report::html {

namespace {

// Template index of the segment whose rw_mix is `mix` ("100/0" read, "0/100" write), or npos.
size_t segment_with_mix(const results::RoundPhase& phase, const std::string& mix) {
  for (size_t i = 0; i < phase.round_template.size(); ++i) {
    if (results::read_segment_spec(phase.round_template[i]).rw_mix == mix) {
      return i;
    }
  }
  return std::string::npos;
}

std::string phase_label(const results::RoundPhase& phase) {
  return !phase.round_template.empty() ? segment_block_size(phase.round_template.front()) : phase.phase;
}

}  // namespace

std::vector<Page> throughput_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids) {
  const std::vector<results::RoundPhase>& phases = test.phases;
  std::vector<std::string> sizes;
  for (const results::RoundPhase& p : phases) {
    sizes.push_back(phase_label(p));
  }
  // Built from a list, not by emplace_back of a string literal: GCC 12 at -O3 warns falsely
  // (-Warray-bounds) inside vector's reallocation for that form.
  Rows params{{"Stimulus", "SEQ 100 % read, then SEQ 100 % write, per Round; purge + WIPC per block size"},
              {"Block sizes", text(join(sizes, ", "))},
              {"TOIO", text(toio_text(test.header.toio))}};
  if (!phases.empty()) {
    for (auto& row : round_loop_rows(phases.front())) {
      if (row.first == "Tracking") {
        std::vector<std::string> names;  // every block size's tracking variable
        for (const results::RoundPhase& p : phases) {
          for (const results::PhaseTracking& t : p.tracking) {
            names.push_back(t.name);
          }
        }
        row.second = text(join(names, "; "));
      }
      params.push_back(std::move(row));
    }
  }
  const auto header = std::make_shared<const PageHeader>(test_header(
      doc.header, test,
      common_setup_rows(doc.header, test, "TP loop (the test stimulus), " + toio_text(test.header.toio)), params));
  const std::string title = test.header.title;
  std::vector<Page> pages;

  for (const results::RoundPhase& phase : phases) {
    const std::string bs = phase_label(phase);
    std::vector<Block> conv;
    const std::pair<const char*, bool> directions[] = {{"0/100", true}, {"100/0", false}};
    for (const auto& [mix, write] : directions) {
      const size_t idx = segment_with_mix(phase, mix);
      if (idx == std::string::npos) {
        continue;
      }
      const std::string dir = write ? "Write" : "Read";
      const std::vector<chart::Point> pts =
          round_series(phase, idx, write ? SegmentValue::write_mb_per_s : SegmentValue::read_mb_per_s, 1);
      conv.push_back(
          chart_block(chart::convergence_chart({"Throughput SS Convergence \u2013 " + dir,
                                                "SEQ " + bs + " R/W " + mix + ", MB/s per Round", "tp-convergence"},
                                               "Throughput (MB/s, decimal)", {{"SEQ " + bs + " " + dir, pts}}),
                      "SS convergence: " + dir + " MB/s vs Round, SEQ " + bs, ids, 320));
    }
    conv.push_back(html_block(element("p", "note", "SS " + ss_rounds_html(phase))));
    pages.push_back(
        {header, "Throughput " + bs + " \u2013 Steady State Convergence (Write and Read)", std::move(conv)});
    for (const results::PhaseTracking& t : phase.tracking) {
      pages.push_back({header,
                       "Throughput " + bs + " \u2013 Steady State Measurement Window",
                       {window_block(phase, t, title + " " + bs, ids, 420), determination_block(phase, t)}});
    }
  }

  // Tabular data: one row per block size, read and write MB/s (window averages).
  Table table;
  table.css_class = "data";
  table.header = {"Block size", "SEQ read (MB/s)", "SEQ write (MB/s)"};
  std::vector<std::string> categories;
  chart::NamedSeries reads{"Read (100/0)", {}};
  chart::NamedSeries writes{"Write (0/100)", {}};
  for (const results::ThroughputRow& row : block_or_empty<results::ThroughputTable>(test).rows) {
    const std::string bs = row.block_size_bytes > 0 ? kib_label(row.block_size_bytes) : row.block_size;
    const double r = row.read_mb_per_s;
    const double w = row.write_mb_per_s;
    table.rows.push_back({text(bs), text(fmt_mbps(r)), text(fmt_mbps(w))});
    categories.push_back(bs);
    reads.points.push_back({0, r});
    writes.points.push_back({0, w});
  }
  pages.push_back(
      {header,
       "Throughput \u2013 Tabular Data and 2D Plot",
       {table_block(
            render_table(table),
            "Throughput per block size, MB/s (10^6 bytes/s), average over each block size's measurement window"),
        chart_block(chart::grouped_bar_chart({"Throughput by Block Size", "SEQ, MB/s (decimal)", "tp-bars"},
                                             "Block size", categories, "Throughput (MB/s, decimal)", {reads, writes},
                                             chart::ScaleKind::linear),
                    "Throughput by block size, read and write", ids, 460)}});
  for (Page& p : compliance_pages(header, test, "Throughput")) {
    pages.push_back(std::move(p));
  }
  return pages;
}

}  // namespace ptsuite::report::html
