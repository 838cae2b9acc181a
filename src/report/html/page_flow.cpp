// Blocks laid onto as many pages as they need, tables split with their heading on each part
// (html/page_flow.hpp).
#include <ptsuite/report/html/page_flow.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <cstddef>

namespace ptsuite::report::html {

namespace {
constexpr size_t k_long_caption_chars = 150;  // more: the caption takes two lines
constexpr double k_two_line_caption_mm = 8;
}  // namespace

double figure_height_mm(double height_px, size_t caption_chars) {
  return height_px * k_flow_mm_per_px +
         (caption_chars > k_long_caption_chars ? k_two_line_caption_mm : k_flow_caption_mm);
}

PageFlow::PageFlow(std::vector<Page>& pages, std::shared_ptr<const PageHeader> header, std::string title)
    : m_pages(pages), m_header(std::move(header)), m_title(std::move(title)) {
  new_page();
}

void PageFlow::add(Block block, double height_mm) {
  if (m_used_mm > 0 && m_used_mm + height_mm > k_flow_budget_mm) new_page();
  m_pages.back().blocks.push_back(std::move(block));
  m_used_mm += height_mm + k_flow_gap_mm;
}

void PageFlow::break_page() {
  if (m_used_mm > 0) new_page();
}

void PageFlow::add_table(const Table& all, const std::string& caption) {
  add_table(all, std::vector<size_t>(all.rows.size(), 1), caption);
}

void PageFlow::add_table(const Table& all, const std::vector<size_t>& row_lines, const std::string& caption) {
  const size_t n = all.rows.size();
  size_t from = 0;
  while (from < n) {
    const double room = k_flow_budget_mm - m_used_mm - k_flow_caption_mm * 1.6 - k_flow_header_row_mm;
    size_t take = 0;
    double h = 0;
    while (from + take < n && h + static_cast<double>(row_lines[from + take]) * k_flow_row_mm <= room) {
      h += static_cast<double>(row_lines[from + take]) * k_flow_row_mm;
      ++take;
    }
    if (take < std::min(k_flow_min_rows_on_a_page, n - from) && m_used_mm > 0) {
      new_page();
      continue;
    }
    take = std::max<size_t>(take, 1);
    Table part = all;
    part.rows.assign(all.rows.begin() + static_cast<std::ptrdiff_t>(from),
                     all.rows.begin() + static_cast<std::ptrdiff_t>(from + take));
    if (!all.row_classes.empty()) {
      part.row_classes.assign(all.row_classes.begin() + static_cast<std::ptrdiff_t>(from),
                              all.row_classes.begin() + static_cast<std::ptrdiff_t>(from + take));
    }
    // A part that starts inside a row group names it again (the group's label is on its first row).
    if (from > 0 && !part.rows.empty() && !part.rows[0].empty() && part.rows[0][0].empty()) {
      for (size_t r = from; r-- > 0;) {
        if (!all.rows[r].empty() && !all.rows[r][0].empty()) {
          part.rows[0][0] = all.rows[r][0] + " (cont.)";
          break;
        }
      }
    }
    const bool split = from > 0 || from + take < n;
    const std::string which = split ? fmt::format(" (rows {}\u2013{} of {}{})", from + 1, from + take, n,
                                                  from + take < n ? ", continued on the next page" : "")
                                    : fmt::format(" ({} row{})", n, n == 1 ? "" : "s");
    add({BlockKind::table, render_table(part), caption + which, ""},
        k_flow_caption_mm * 1.6 + k_flow_header_row_mm + h);
    from += take;
    if (from < n) new_page();
  }
}

void PageFlow::new_page() {
  ++m_count;
  m_pages.push_back({m_header, m_count == 1 ? m_title : fmt::format("{} (continued, {})", m_title, m_count), {}});
  m_used_mm = 0;
}

}  // namespace ptsuite::report::html
