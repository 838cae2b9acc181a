// Latency report pages (PTS 2.0.2 §9; pts-spec.md §3.3).
#include <ptsuite/report/html/test_pages.hpp>

#include <memory>
#include <optional>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/header.hpp>
#include <ptsuite/report/html/matrix_view.hpp>
#include <ptsuite/report/window_labels.hpp>
#include <ptsuite/results/capture.hpp>
#include <ptsuite/results/segment_result.hpp>

namespace ptsuite::report::html {

namespace {

Block matrix_table(const MatrixView& m, const std::string& what, const std::string& caption, bool latency) {
  Table t;
  t.css_class = "data compact";
  t.header = {what + " \u2013 block size"};
  for (const std::string& c : m.columns) {
    t.header.push_back("R/W " + c);
  }
  for (size_t r = 0; r < m.rows.size(); ++r) {
    std::vector<std::string> row = {text(m.rows[r])};
    for (size_t c = 0; c < m.columns.size(); ++c) {
      row.push_back(text(latency ? grouped(m.values[r][c], 3) : fmt_iops(m.values[r][c])));
    }
    t.rows.push_back(std::move(row));
  }
  return table_block(render_table(t), caption);
}

std::vector<chart::NamedSeries> write_row_series(const results::RoundPhase& phase, SegmentValue what) {
  return mix_series(phase, "0/100", what, 1e6);
}

}  // namespace

std::vector<Page> latency_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids) {
  const std::vector<results::RoundPhase>& phases = test.phases;
  const results::RoundPhase& phase = phase_at(phases, 0);
  using results::GridMetric;
  const results::GridMatrix& matrix = block_or_empty<results::GridMatrix>(test);
  const MatrixView iops = matrix_view(matrix, GridMetric::iops);
  const MatrixView art = matrix_view(matrix, GridMetric::latency_mean_ns, 1e6);
  const MatrixView five9 = matrix_view(matrix, GridMetric::latency_p99_999_ns, 1e6);
  const MatrixView mrt = matrix_view(matrix, GridMetric::latency_max_ns, 1e6);
  const std::vector<results::CaptureRecord>& captures = test.captures;
  const results::CaptureRecord* capture = captures.empty() ? nullptr : &captures.front();

  Rows params = matrix_loop_rows(iops.columns, iops.rows, test.header.toio, phase);
  if (capture != nullptr) {
    const std::optional<uint64_t> d = results::read_segment_spec(capture->spec).duration_ns;
    params.emplace_back("RT capture", text(capture->label + ", " + (d ? fmt_duration_ns(*d) : "\u2013")));
  }
  const auto header = std::make_shared<const PageHeader>(test_header(
      doc.header, test,
      common_setup_rows(doc.header, test, "LAT loop (the test stimulus), " + toio_text(test.header.toio)), params));
  const std::string title = test.header.title;
  std::vector<Page> pages;

  pages.push_back(
      {header,
       "Latency \u2013 Steady State Convergence (ART and MRT, R/W 0/100)",
       {chart_block(chart::convergence_chart({"Latency SS Convergence \u2013 Average Response Time",
                                              "RND, R/W 0/100, one series per block size", "lat-conv-art"},
                                             "ART (ms)", write_row_series(phase, SegmentValue::mean_latency_ns)),
                    "SS convergence: ART vs Round, R/W 0/100, one series per block size", ids, 320),
        chart_block(chart::convergence_chart({"Latency SS Convergence \u2013 Maximum Response Time",
                                              "RND, R/W 0/100, one series per block size", "lat-conv-mrt"},
                                             "MRT (ms)", write_row_series(phase, SegmentValue::max_latency_ns)),
                    "SS convergence: MRT vs Round, R/W 0/100, one series per block size", ids, 320)}});
  for (const results::PhaseTracking& t : phase.tracking) {
    pages.push_back({header,
                     "Latency \u2013 Steady State Measurement Window: " + t.name,
                     {window_block(phase, t, title, ids, 420), determination_block(phase, t)}});
  }

  const std::string window = window_text(matrix);
  const WindowLabels labels = window_labels(test.header);
  std::vector<Block> tables = {
      matrix_table(iops, "IOPS", "IOPS per block size and R/W mix, mean of the window Rounds, " + window, false),
      matrix_table(art, "ART (ms)",
                   "Average response time (ms) per block size and R/W mix, " + labels.art + ", " + window, true),
      matrix_table(five9, "99.999 % (ms)",
                   "99.999 % response time (5 nines, ms), read+write, " + labels.nines + ", " + window, true),
      matrix_table(mrt, "MRT (ms)",
                   "Maximum response time (ms) per block size and R/W mix, " + labels.mrt + ", " + window, true)};
  // Round-mean MRT: a 5 9s above it is no contradiction, and the window's own maximum says so.
  const bool has_max = !matrix.grid(GridMetric::latency_window_max_ns).empty();
  if (labels.show_max && has_max) {
    tables.push_back(matrix_table(matrix_view(matrix, GridMetric::latency_window_max_ns, 1e6), "Max (ms)",
                                  "Max: the " + labels.max + ", per block size and R/W mix, read+write, " + window +
                                      "; the MRT above is the " + labels.mrt,
                                  true));
  }
  const std::string tables_title = labels.show_max && has_max
                                       ? "Latency \u2013 Tabular Data: IOPS, ART, 99.999 %, MRT and Max"
                                       : "Latency \u2013 Tabular Data: IOPS, ART, 99.999 % and MRT";
  pages.push_back({header, tables_title, std::move(tables)});
  pages.push_back({header,
                   "Latency \u2013 3D Plots of ART and MRT",
                   {matrix_block(chart::matrix_chart({"Average Response Time", window, "lat-3d-art"}, art.rows,
                                                     art.columns, art.values, "ART (ms)", chart::ScaleKind::linear),
                                 "ART (ms) by block size and R/W mix, 3D bars", ids, 330, false),
                    matrix_block(chart::matrix_chart({"Maximum Response Time", window, "lat-3d-mrt"}, mrt.rows,
                                                     mrt.columns, mrt.values, "MRT (ms)", chart::ScaleKind::linear),
                                 "MRT (ms) by block size and R/W mix, 3D bars", ids, 330, false)}});

  if (capture != nullptr) {
    pages.push_back({header,
                     "Latency \u2013 Response Time Histogram",
                     {histogram_block(*capture, "Response Time Histogram", ids, 520),
                      capture_table_block({capture}, {"RT capture"}, "Response-time capture statistics")}});
    pages.push_back({header,
                     "Latency \u2013 Response Time Confidence Level Plot",
                     {confidence_block(*capture, "Response Time Confidence Levels", ids, 600)}});
  }
  for (Page& p : compliance_pages(header, test, "Latency")) {
    pages.push_back(std::move(p));
  }
  return pages;
}

}  // namespace ptsuite::report::html
