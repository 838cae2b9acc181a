// Contract: lays a report's blocks onto as many pages as they need (page.hpp), the one
// pagination every ptsuite report uses (scenario, replay, capture, app): a block that does not
// fit on the current page goes to a new one; a chart keeps its own size (never squeezed); a
// long table is split across pages with its heading row on every page, a label repeated where
// a page starts inside a group ("(cont.)"), and a caption naming the rows each part holds
// ("rows 46-90 of 432, continued on the next page"). Nothing is cut.
//
// Heights are estimates in mm against the page budget of style.hpp (a 257 mm page less the
// header, the title strip and the footer); the header's own height is estimated from its rows
// (header_height_mm), so a header with more rows leaves less room. The browser tests
// (tests/integration/*browser_test.cpp, support/page_geometry.hpp) check the rendered pages
// never overflow. Deterministic; no IO; one flow per page sequence (not thread-safe).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page.hpp>

namespace ptsuite::report::html {

// Geometry (mm) shared by every flow: see page_flow.cpp for the derivations.
inline constexpr double k_flow_budget_mm = 198;          // content height under a standard header
inline constexpr double k_flow_gap_mm = 1.5;             // .content gap between blocks
inline constexpr double k_flow_caption_mm = 4.5;         // one caption line and its rule
inline constexpr double k_flow_mm_per_px = 190.0 / 720;  // a 720 px chart spans the page width
inline constexpr double k_flow_row_mm = 4.1;             // a compact table row (6.8 pt)
inline constexpr double k_flow_header_row_mm = 5.5;      // a table's heading row

// The header's estimated height beyond a standard one (at most four one-line rows per column):
// 0 for such a header, more for a header whose columns hold more or longer rows.
double header_extra_mm(const PageHeader& header);

// Lines each body row of `table` takes when laid out across the page width, as a browser's
// automatic table layout would (each column's width between its longest word and its longest
// cell, the rest shared in proportion); `compact` = the table has class "compact" (6.8 pt).
std::vector<size_t> table_row_lines(const Table& table, bool compact);

// The height (mm) of a render_rows() table of `rows` (label, value) at the body's 7.5 pt.
double rows_height_mm(const Rows& rows);

// The height (mm) of a figure of `height_px` (at its 720 px width) with its caption.
double figure_height_mm(double height_px, const std::string& caption);

class PageFlow {
 public:
  // Appends pages to `pages`, each with `header` and `title` ("title (continued, 2)" after the
  // first); the first page is started at once.
  PageFlow(std::vector<Page>& pages, std::shared_ptr<const PageHeader> header, std::string title);

  // A block of `height_mm`; it starts a new page when it does not fit on this one.
  void add(Block block, double height_mm);
  // A figure (its SVG of `height_px` at 720 px width) with its caption.
  void add_figure(std::string svg, double height_px, std::string caption);
  // A table split across pages as needed; `row_lines` = lines per row (table_row_lines(), or the
  // caller's own estimate), `row_mm` = one line's row height. A part starting inside a group
  // (its first cell empty) repeats the group's label from the rows above with " (cont.)".
  void add_table(const Table& all, const std::vector<size_t>& row_lines, const std::string& caption,
                 double row_mm = k_flow_row_mm);
  // A table with the row heights table_row_lines() estimates (class "compact" read from css_class).
  void add_table(const Table& all, const std::string& caption);
  void new_page();
  // The next block starts on a new page (none is started while this one is still empty).
  void break_page();

 private:
  std::vector<Page>& m_pages;
  std::shared_ptr<const PageHeader> m_header;
  std::string m_title;
  double m_budget_mm = k_flow_budget_mm;
  double m_used_mm = 0;
  size_t m_count = 0;
};

}  // namespace ptsuite::report::html
