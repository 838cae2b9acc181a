// IOPS report pages (PTS 2.0.2 §7; pts-spec.md §3.1).
#include <ptsuite/report/html/test_pages.hpp>

#include <memory>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/header.hpp>
#include <ptsuite/report/html/matrix_view.hpp>

namespace ptsuite::report::html {

std::vector<Page> iops_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids) {
  const std::vector<results::RoundPhase>& phases = test.phases;
  const results::RoundPhase& phase = phase_at(phases, 0);
  const results::GridMatrix& matrix = block_or_empty<results::GridMatrix>(test);
  const MatrixView iops = matrix_view(matrix, results::GridMetric::iops);

  Rows params = matrix_loop_rows(iops.columns, iops.rows, test.header.toio, phase);
  const auto header = std::make_shared<const PageHeader>(test_header(
      doc.header, test,
      common_setup_rows(doc.header, test, "IOPS loop (the test stimulus), " + toio_text(test.header.toio)), params));
  const std::string title = test.header.title;
  std::vector<Page> pages;

  // SS convergence: the 0/100 row, one series per block size.
  const std::vector<chart::NamedSeries> conv = mix_series(phase, "0/100", SegmentValue::iops, 1);
  pages.push_back(
      {header,
       "IOPS \u2013 Steady State Convergence Plot (R/W 0/100, all block sizes)",
       {chart_block(chart::convergence_chart({"IOPS Steady State Convergence",
                                              "RND, R/W mix 0/100 (100 % write), IOPS per Round", "iops-convergence"},
                                             "IOPS", conv),
                    "SS convergence: IOPS vs Round, R/W 0/100, one series per block size", ids, 560),
        html_block(element("p", "note", "Window: " + ss_rounds_html(phase)))}});

  // Per tracking variable: measurement window and determination.
  for (const results::PhaseTracking& t : phase.tracking) {
    pages.push_back({header,
                     "IOPS \u2013 Steady State Measurement Window: " + t.name,
                     {window_block(phase, t, title, ids, 420), determination_block(phase, t)}});
  }

  // Tabular data and the 2D plot.
  Table table;
  table.css_class = "data";
  table.header = {"Block size"};
  for (const std::string& c : iops.columns) {
    table.header.push_back("R/W " + c);
  }
  for (size_t r = 0; r < iops.rows.size(); ++r) {
    std::vector<std::string> row = {text(iops.rows[r])};
    for (size_t c = 0; c < iops.columns.size(); ++c) {
      row.push_back(text(fmt_iops(iops.values[r][c])));
    }
    table.rows.push_back(std::move(row));
  }
  std::vector<chart::NamedSeries> per_mix;
  for (size_t c = 0; c < iops.columns.size(); ++c) {
    chart::NamedSeries s{iops.columns[c], {}};
    for (size_t r = 0; r < iops.rows.size(); ++r) {
      s.points.push_back({static_cast<double>(iops.row_bytes[r]), iops.values[r][c]});
    }
    per_mix.push_back(std::move(s));
  }
  const std::string window = window_text(matrix);
  pages.push_back({header,
                   "IOPS \u2013 Tabular Data and 2D Plot",
                   {table_block(render_table(table),
                                "IOPS by block size (rows) and R/W mix %R/%W (columns), average over " + window),
                    chart_block(chart::block_size_chart(
                                    {"IOPS vs Block Size", "One line per R/W mix (%R/%W); " + window, "iops-2d"},
                                    "IOPS", per_mix, chart::ScaleKind::log10),
                                "IOPS vs block size, one series per R/W mix (log x, log y)", ids, 470)}});

  // 3D view.
  pages.push_back(
      {header,
       "IOPS \u2013 3D Plot",
       {matrix_block(chart::matrix_chart({"IOPS \u2013 Block Size x R/W Mix", window, "iops-3d"}, iops.rows,
                                         iops.columns, iops.values, "IOPS", chart::ScaleKind::linear),
                     "IOPS by block size and R/W mix, 3D bars (exact values in the IOPS table)", ids, 640, false)}});
  for (Page& p : compliance_pages(header, test, "IOPS")) {
    pages.push_back(std::move(p));
  }
  return pages;
}

}  // namespace ptsuite::report::html
