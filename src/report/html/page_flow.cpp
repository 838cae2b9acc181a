// PageFlow: blocks onto pages, tables split with their heading (html/page_flow.hpp).
//
// Page geometry (html/style.hpp): a 257 mm page less a standard header (about 40 mm: four
// columns of at most four one-line rows), the title strip (9 mm) and the footer (6 mm) leaves
// about 205 mm (measured: 207 mm in Chromium); 198 mm is planned, the rest is margin.
#include <ptsuite/report/html/page_flow.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ptsuite::report::html {

namespace {

constexpr size_t k_min_rows_on_a_page = 6;  // fewer rows left: the table starts on the next page
constexpr double k_pt_mm = 25.4 / 72;       // 1 pt in mm
// A character's width: 0.55 em of DejaVu Sans / Arial on average (digits 0.55-0.64 em, lower
// case narrower); estimates only, the browser tests measure.
constexpr double k_char_em = 0.55;
constexpr double k_page_width_mm = 190;

// Header geometry (style.hpp): four columns of 190/4 mm less 3 mm padding, 6.2 pt text at line
// height 1.22; the title cell 52 % of the width at 11 pt (subtitle 8 pt); the model cell 23.3 %
// at 7.5 pt bold.
constexpr double k_header_font_pt = 6.2;
constexpr double k_header_line_mm = k_header_font_pt * 1.22 * k_pt_mm;  // 2.67 mm
constexpr size_t k_header_standard_lines = 4;
constexpr double k_title_font_pt = 11;
constexpr double k_subtitle_font_pt = 8;
constexpr double k_who_font_pt = 7.5;

// Table text (style.hpp): table.data 7.5 pt, compact 6.8 pt, line height 1.25; cell padding
// 1.4 mm a side (compact 1.1 mm).
constexpr double k_table_font_pt = 7.5;
constexpr double k_compact_font_pt = 6.8;

size_t chars_per_line(double width_mm, double font_pt) {
  return static_cast<size_t>(std::max(1.0, width_mm / (font_pt * k_char_em * k_pt_mm)));
}

// Visible characters of a piece of HTML: tags dropped, an entity counted as one.
size_t visible_chars(const std::string& html_text) {
  size_t n = 0;
  bool tag = false;
  bool entity = false;
  for (const char c : html_text) {
    if (tag) {
      tag = c != '>';
      continue;
    }
    if (c == '<') {
      tag = true;
      continue;
    }
    if (entity) {
      entity = c != ';';
      continue;
    }
    if (c == '&') entity = true;
    // UTF-8 continuation bytes are not characters.
    if ((static_cast<unsigned char>(c) & 0xC0U) != 0x80U) ++n;
  }
  return n;
}

// The longest run of characters without a space (a word the browser cannot break).
size_t longest_word(const std::string& html_text) {
  size_t best = 0;
  size_t run = 0;
  std::string plain;
  bool tag = false;
  for (const char c : html_text) {
    if (tag) {
      tag = c != '>';
      continue;
    }
    if (c == '<') {
      tag = true;
      continue;
    }
    plain += c;
  }
  for (const char c : plain) {
    if (c == ' ' || c == '-' || c == '/') {
      best = std::max(best, run + (c == ' ' ? 0 : 1));
      run = 0;
    } else if ((static_cast<unsigned char>(c) & 0xC0U) != 0x80U) {
      ++run;
    }
  }
  return std::max(best, run);
}

}  // namespace

double header_extra_mm(const PageHeader& h) {
  const size_t width = chars_per_line(k_page_width_mm / 4 - 3, k_header_font_pt);
  size_t lines = 0;
  for (const HeaderColumn& c : h.columns) {
    size_t n = 0;
    for (const auto& [label, value] : c.rows) n += text_lines(label.size() + 2 + visible_chars(value), width);
    lines = std::max(lines, n);
  }
  double extra =
      lines > k_header_standard_lines ? static_cast<double>(lines - k_header_standard_lines) * k_header_line_mm : 0.0;
  const double title_mm = k_page_width_mm * 0.52 - 4;
  extra += static_cast<double>(text_lines(h.title.size(), chars_per_line(title_mm, k_title_font_pt)) - 1) *
           k_title_font_pt * 1.25 * k_pt_mm;
  extra += static_cast<double>(text_lines(h.subtitle.size(), chars_per_line(title_mm, k_subtitle_font_pt)) - 1) *
           k_subtitle_font_pt * 1.25 * k_pt_mm;
  const size_t who = chars_per_line(k_page_width_mm * 0.2333 - 3, k_who_font_pt);
  const size_t who_lines = std::max(
      {text_lines(h.vendor.size(), who), text_lines(h.model.size(), who), text_lines(h.tested_by.size(), who)});
  extra += static_cast<double>(who_lines - 1) * k_who_font_pt * 1.25 * k_pt_mm;
  return extra;
}

std::vector<size_t> table_row_lines(const Table& t, bool compact) {
  const size_t columns = t.header.size();
  std::vector<double> min_w(columns, 1);
  std::vector<double> max_w(columns, 1);
  const auto widen = [&](size_t c, const std::string& cell, bool heading) {
    const auto chars = static_cast<double>(heading ? cell.size() : visible_chars(cell));
    min_w[c] = std::max(min_w[c], static_cast<double>(longest_word(cell)));
    max_w[c] = std::max(max_w[c], chars);
  };
  for (size_t c = 0; c < columns; ++c) widen(c, t.header[c], true);
  for (const std::vector<std::string>& row : t.rows) {
    for (size_t c = 0; c < std::min(columns, row.size()); ++c) widen(c, row[c], false);
  }
  const double font = compact ? k_compact_font_pt : k_table_font_pt;
  const double padding_mm = compact ? 2.2 : 2.8;
  const auto room =
      static_cast<double>(chars_per_line(k_page_width_mm - padding_mm * static_cast<double>(columns), font));
  double sum_min = 0;
  double sum_max = 0;
  for (size_t c = 0; c < columns; ++c) {
    sum_min += min_w[c];
    sum_max += max_w[c];
  }
  // CSS automatic table layout: every column at its widest cell when that fits; else each at
  // least its longest word, the rest of the width shared in proportion to (widest - word).
  std::vector<double> width(columns);
  for (size_t c = 0; c < columns; ++c) {
    if (sum_max <= room) {
      width[c] = max_w[c];
    } else if (sum_min >= room || sum_max <= sum_min) {
      width[c] = min_w[c];
    } else {
      width[c] = min_w[c] + (max_w[c] - min_w[c]) * (room - sum_min) / (sum_max - sum_min);
    }
  }
  std::vector<size_t> out;
  for (const std::vector<std::string>& row : t.rows) {
    size_t lines = 1;
    for (size_t c = 0; c < std::min(columns, row.size()); ++c) {
      // Word wrapping leaves part of a line empty: 15 % more characters than the cell holds.
      const double chars = static_cast<double>(visible_chars(row[c])) * (max_w[c] > width[c] ? 1.15 : 1.0);
      lines = std::max(lines, text_lines(static_cast<size_t>(std::ceil(chars)),
                                         static_cast<size_t>(std::max(1.0, std::floor(width[c])))));
    }
    out.push_back(lines);
  }
  return out;
}

double rows_height_mm(const Rows& rows) {
  // The value column: the page less the widest label (bold, about 40 mm) at 7.5 pt; a row is a
  // line of 7.5 pt x 1.25 plus 2 px of padding and 2 px of border spacing (1.06 mm).
  size_t label = 0;
  for (const auto& r : rows) label = std::max(label, r.first.size());
  const double value_mm = k_page_width_mm - static_cast<double>(label) * k_table_font_pt * 0.62 * k_pt_mm - 4;
  const size_t width = chars_per_line(value_mm, k_table_font_pt);
  const double line_mm = k_table_font_pt * 1.25 * k_pt_mm;
  double mm = 1;
  for (const auto& [l, v] : rows) {
    mm += static_cast<double>(text_lines(visible_chars(v) * 115 / 100, width)) * line_mm + 1.06;
  }
  return mm;
}

double figure_height_mm(double height_px, const std::string& caption) {
  return height_px * k_flow_mm_per_px + (caption.size() > 150 ? 8 : k_flow_caption_mm);
}

PageFlow::PageFlow(std::vector<Page>& pages, std::shared_ptr<const PageHeader> header, std::string title)
    : m_pages(pages), m_header(std::move(header)), m_title(std::move(title)) {
  if (m_header) m_budget_mm = k_flow_budget_mm - header_extra_mm(*m_header);
  new_page();
}

void PageFlow::new_page() {
  ++m_count;
  m_pages.push_back({m_header, m_count == 1 ? m_title : fmt::format("{} (continued, {})", m_title, m_count), {}});
  m_used_mm = 0;
}

void PageFlow::break_page() {
  if (m_used_mm > 0) new_page();
}

void PageFlow::add(Block block, double height_mm) {
  if (m_used_mm > 0 && m_used_mm + height_mm > m_budget_mm) new_page();
  m_pages.back().blocks.push_back(std::move(block));
  m_used_mm += height_mm + k_flow_gap_mm;
}

void PageFlow::add_figure(std::string svg, double height_px, std::string caption) {
  const double mm = figure_height_mm(height_px, caption);
  add({BlockKind::figure, std::move(svg), std::move(caption), ""}, mm);
}

void PageFlow::add_table(const Table& all, const std::string& caption) {
  const bool compact = all.css_class.find("compact") != std::string::npos;
  // One line of a compact row: 6.8 pt x 1.25 + padding + rule = 4.1 mm; of a plain row 4.6 mm.
  add_table(all, table_row_lines(all, compact), caption, compact ? k_flow_row_mm : 4.6);
}

void PageFlow::add_table(const Table& all, const std::vector<size_t>& row_lines, const std::string& caption,
                         double row_mm) {
  const size_t n = all.rows.size();
  size_t from = 0;
  while (from < n) {
    const double room = m_budget_mm - m_used_mm - k_flow_caption_mm * 1.6 - k_flow_header_row_mm;
    size_t take = 0;
    double h = 0;
    while (from + take < n && h + static_cast<double>(row_lines[from + take]) * row_mm <= room) {
      h += static_cast<double>(row_lines[from + take]) * row_mm;
      ++take;
    }
    if (take < std::min(k_min_rows_on_a_page, n - from) && m_used_mm > 0) {
      new_page();
      continue;
    }
    take = std::max<size_t>(take, 1);
    Table part = all;
    part.rows.assign(all.rows.begin() + static_cast<std::ptrdiff_t>(from),
                     all.rows.begin() + static_cast<std::ptrdiff_t>(from + take));
    if (!all.row_classes.empty()) {
      const size_t classes = all.row_classes.size();
      part.row_classes.assign(all.row_classes.begin() + static_cast<std::ptrdiff_t>(std::min(from, classes)),
                              all.row_classes.begin() + static_cast<std::ptrdiff_t>(std::min(from + take, classes)));
    }
    // A part that starts inside a group names it again (the group's label is on its first row).
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

}  // namespace ptsuite::report::html
