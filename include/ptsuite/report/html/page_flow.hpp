// Contract: lays a report section's blocks onto as many pages as they need (the scenario
// report's way, docs/scenarios.md "Reports at any size", also used by the replay report and
// `compare`): a block that does not fit on the current page starts a new one; a table is split
// across pages with its heading row on each part, a caption naming the rows it holds ("rows
// 46-90 of 432, continued on the next page"), and the label of the row group repeated where a
// part starts inside one (an empty first cell takes the last non-empty one above, "(cont.)").
// Heights are estimated in mm against the page budget of html/style.hpp (a page never grows:
// what passes the budget would be clipped, which is what this avoids); the browser tests
// (ScenarioReportBrowser.*, ReplayReportBrowser.*, CompareReportBrowser.*) check the rendered
// pages. The first page takes `title`, the next "<title> (continued, n)". Single-threaded.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page.hpp>

namespace ptsuite::report::html {

// Page geometry (html/style.hpp): a 257 mm page less a header of about 40 mm (its columns
// hold at most four short rows), the title strip (9 mm) and the footer (6 mm) leaves about
// 205 mm (measured: 207 mm in Chromium); 198 mm is planned, the rest is margin.
inline constexpr double k_flow_budget_mm = 198;
inline constexpr double k_flow_gap_mm = 1.5;             // .content gap between blocks
inline constexpr double k_flow_caption_mm = 4.5;         // one caption line and its rule (two: 8)
inline constexpr double k_flow_mm_per_px = 190.0 / 720;  // a 720 px chart spans the 190 mm page width
inline constexpr double k_flow_row_mm = 4.1;             // a compact table row: 6.8 pt x 1.25 + padding + rule
inline constexpr double k_flow_header_row_mm = 5.5;      // the table's heading row
inline constexpr size_t k_flow_min_rows_on_a_page = 6;   // fewer rows left: the table starts on the next page

// The height of a figure of a chart `height_px` high with a caption of `caption_chars`.
double figure_height_mm(double height_px, size_t caption_chars);

class PageFlow {
 public:
  PageFlow(std::vector<Page>& pages, std::shared_ptr<const PageHeader> header, std::string title);

  void add(Block block, double height_mm);
  // Rows with their heights in lines (row_lines.size() == all.rows.size()); each part gets the
  // heading and a caption saying which rows.
  void add_table(const Table& all, const std::vector<size_t>& row_lines, const std::string& caption);
  // The same with one line per row.
  void add_table(const Table& all, const std::string& caption);
  // The next block starts on a new page.
  void break_page();

 private:
  void new_page();

  std::vector<Page>& m_pages;
  std::shared_ptr<const PageHeader> m_header;
  std::string m_title;
  double m_used_mm = 0;
  size_t m_count = 0;
};

}  // namespace ptsuite::report::html
