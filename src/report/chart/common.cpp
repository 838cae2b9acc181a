#include "report/chart/common.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include <ptsuite/report/chart/style.hpp>
#include <ptsuite/util/sha256.hpp>

namespace ptsuite::report::chart::detail {

double legend_column_width(const std::vector<LegendEntry>& entries) {
  double widest = 0;
  for (const LegendEntry& e : entries) {
    widest = std::max(widest, text_width_px(e.label, k_tick_font_px));
  }
  return k_swatch_px + 8 + widest + 14;
}

LegendGrid legend_grid_right(const std::vector<LegendEntry>& entries, double max_height_px) {
  LegendGrid grid;
  grid.column_width_px = legend_column_width(entries);
  const auto rows_fit = static_cast<size_t>(std::max(1.0, std::floor(max_height_px / k_legend_row_px)));
  grid.columns = entries.empty() ? 1 : (entries.size() + rows_fit - 1) / rows_fit;
  grid.rows = entries.empty() ? 0 : (entries.size() + grid.columns - 1) / grid.columns;
  return grid;
}

LegendGrid legend_grid_bottom(const std::vector<LegendEntry>& entries, double max_width_px) {
  LegendGrid grid;
  grid.column_width_px = legend_column_width(entries);
  grid.columns = std::clamp<size_t>(static_cast<size_t>(max_width_px / grid.column_width_px), 1,
                                    std::max<size_t>(1, entries.size()));
  grid.rows = entries.empty() ? 0 : (entries.size() + grid.columns - 1) / grid.columns;
  return grid;
}

namespace {

void draw_swatch(SvgDocument& doc, const LegendEntry& e, double x, double cy) {
  const double x2 = x + k_swatch_px;
  switch (e.kind) {
    case SwatchKind::line:
    case SwatchKind::line_markers:
    case SwatchKind::ref_line: {
      const Stroke stroke{e.colour, e.kind == SwatchKind::ref_line ? 1.4 : 1.8, e.dash};
      doc.line(x, cy, x2, cy, stroke);
      if (e.kind == SwatchKind::line_markers) {
        doc.marker(e.marker, (x + x2) / 2, cy, 3.2, e.colour, "swatch");
      }
      return;
    }
    case SwatchKind::markers:
      doc.marker(e.marker, (x + x2) / 2, cy, 3.2, e.colour, "swatch");
      return;
    case SwatchKind::bar:
      hatched_rect(doc, x + 5, cy - 6, k_swatch_px - 10, 12, e.colour, e.hatch, "swatch");
      return;
    case SwatchKind::band:
      doc.rect(x, cy - 6, k_swatch_px, 12, e.colour, nullptr, "swatch", 0.18);
      return;
  }
}

}  // namespace

void draw_legend(SvgDocument& doc, const std::vector<LegendEntry>& entries, const LegendGrid& grid, double x, double y,
                 bool column_major) {
  if (entries.empty()) {
    return;
  }
  doc.open_group("legend");
  for (size_t i = 0; i < entries.size(); ++i) {
    const size_t col = column_major ? i / grid.rows : i % grid.columns;
    const size_t row = column_major ? i % grid.rows : i / grid.columns;
    const double ex = x + static_cast<double>(col) * grid.column_width_px;
    const double cy = y + (static_cast<double>(row) + 0.5) * k_legend_row_px;
    doc.open_group("legend-entry");
    draw_swatch(doc, entries[i], ex, cy);
    doc.text(ex + k_swatch_px + 6, cy + 4, entries[i].label, {.size_px = k_tick_font_px, .css_class = "legend-label"});
    doc.close_group();
  }
  doc.close_group();
}

int hatch_for_look(size_t look) { return static_cast<int>(look % 4); }

void write_hatch_defs(SvgDocument& doc) {
  // Each pattern is a 6 px tile with one white line, rotated to give the stripe direction.
  static constexpr std::array<int, 3> k_rotation_deg = {45, -45, 90};
  std::string defs = "<defs>\n";
  for (size_t k = 0; k < k_rotation_deg.size(); ++k) {
    defs += fmt::format(
        "<pattern id=\"{}-hatch{}\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
        "patternTransform=\"rotate({})\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" "
        "stroke=\"#ffffff\" "
        "stroke-width=\"2\" stroke-opacity=\"0.8\"/></pattern>\n",
        doc.id(), k + 1, k_rotation_deg[k]);
  }
  defs += "</defs>\n";
  doc.raw(defs);
}

std::string hatch_fill(const SvgDocument& doc, int hatch) { return fmt::format("url(#{}-hatch{})", doc.id(), hatch); }

void hatched_rect(SvgDocument& doc, double x, double y, double w, double h, std::string_view colour, int hatch,
                  std::string_view css_class, std::string_view outline) {
  const Stroke edge{outline.empty() ? colour : outline, outline.empty() ? 0.8 : 0.6, {}};
  doc.rect(x, y, w, h, colour, &edge, css_class);
  if (hatch > 0) {
    doc.rect(x, y, w, h, hatch_fill(doc, hatch), nullptr, "hatch");
  }
}

std::string_view dash_pattern(LineDash dash) {
  switch (dash) {
    case LineDash::dashed:
      return "7 4";
    case LineDash::dotted:
      return "2 3";
    case LineDash::dash_dot:
      return "8 3 2 3";
    case LineDash::solid:
      break;
  }
  return "";
}

double draw_title(SvgDocument& doc, double width_px, std::string_view title, std::string_view subtitle) {
  double y = 8;
  if (!title.empty()) {
    // Shrink a long title to fit the width rather than letting it run off the canvas.
    const double size = std::min(k_title_font_px, 0.95 * width_px / std::max(1.0, text_width_px(title, 1)));
    y += size + 4;
    doc.text(width_px / 2, y, title, {.size_px = size, .anchor = Anchor::middle, .bold = true, .css_class = "title"});
  }
  if (!subtitle.empty()) {
    const double size = std::min(k_subtitle_font_px, 0.95 * width_px / std::max(1.0, text_width_px(subtitle, 1)));
    y += size + 4;
    doc.text(width_px / 2, y, subtitle,
             {.size_px = size, .anchor = Anchor::middle, .fill = "#555555", .css_class = "subtitle"});
  }
  return y + 10;
}

void draw_notes(SvgDocument& doc, const std::vector<std::string>& notes, double x, double bottom_y) {
  for (size_t i = 0; i < notes.size(); ++i) {
    const double y = bottom_y - static_cast<double>(notes.size() - 1 - i) * (k_note_font_px + 3);
    doc.text(x, y, notes[i], {.size_px = k_note_font_px, .fill = "#555555", .css_class = "note"});
  }
}

std::string chart_id(std::string_view explicit_id, std::string_view fingerprint) {
  bool usable = false;
  for (const char c : explicit_id) {
    usable = usable || std::isalnum(static_cast<unsigned char>(c)) != 0;
  }
  if (usable) {
    return sanitize_id(explicit_id);
  }
  return "chart-" + sha256_hex(fingerprint).substr(0, 12);
}

MatrixData prepare_matrix(const MatrixChart& chart, ScaleKind kind) {
  MatrixData data;
  const size_t rows = chart.row_labels.size();
  const size_t columns = chart.column_labels.size();
  data.values.assign(rows, std::vector<double>(columns, std::nan("")));
  for (size_t r = 0; r < rows && r < chart.values.size(); ++r) {
    for (size_t c = 0; c < columns && c < chart.values[r].size(); ++c) {
      const double v = chart.values[r][c];
      data.values[r][c] = v;
      if (std::isnan(v)) {
        continue;
      }
      if (!std::isfinite(v) || (kind == ScaleKind::log10 && v <= 0)) {
        ++data.not_drawable;
        data.values[r][c] = std::nan("");
        continue;
      }
      data.extent.add(v, kind);
    }
  }
  return data;
}

std::vector<std::string> MatrixData::notes(const MatrixChart& chart) const {
  std::vector<std::string> out;
  if (!chart.note.empty()) {
    out.push_back(chart.note);
  }
  if (not_drawable > 0) {
    out.push_back(fmt::format("{} value(s) not shown: infinite{}.", not_drawable,
                              chart.value_axis.scale == ScaleKind::log10 ? " or \u2264 0 on the log scale" : ""));
  }
  return out;
}

std::string matrix_fingerprint(const MatrixChart& c) {
  std::string f = fmt::format("matrix|{}|{}|{}|{}|{}|{}|{}|", c.title, c.subtitle, c.row_axis_label,
                              c.column_axis_label, c.value_axis.label, c.width_px, c.height_px);
  for (const std::string& r : c.row_labels) {
    f += r + ";";
  }
  f += "|";
  for (const std::string& col : c.column_labels) {
    f += col + ";";
  }
  for (const auto& row : c.values) {
    f += "|";
    for (const double v : row) {
      f += fmt::format("{};", v);
    }
  }
  return f;
}

}  // namespace ptsuite::report::chart::detail
