// render_heatmap(): a MatrixChart as a table of shaded cells, rows top to bottom in the given
// order (block sizes, as in the PTS tabular data), columns left to right (R/W mixes), the
// value written in every cell and a colour scale on the right.
//
// Shading. A value v gets the ramp colour at f = (t(v) - t(lo)) / (t(hi) - t(lo)), with t the
// identity (linear) or log10 (log scale), [lo, hi] the resolved value-axis range: the same
// mapping as an axis (scale.hpp) into [0, 1] instead of pixels. The ramp's luminance rises
// monotonically (style.hpp), so the order of values survives greyscale printing, and the
// printed numbers carry the exact values regardless.
#include <ptsuite/report/chart/render.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include <ptsuite/report/chart/scale.hpp>
#include <ptsuite/report/chart/style.hpp>
#include <ptsuite/report/chart/svg.hpp>
#include <ptsuite/report/chart/ticks.hpp>
#include "report/chart/common.hpp"

namespace ptsuite::report::chart {

namespace {

constexpr double k_max_cell_height_px = 34;
constexpr double k_colour_bar_width_px = 16;
constexpr int k_colour_bar_steps = 64;
// Cells darker than this relative luminance get white text, lighter ones near-black: at
// L = 0.18 both reach a contrast of about 4.6:1 ((1 + 0.05) / (L + 0.05) for white,
// (L + 0.05) / 0.05 for black), so every cell's text has at least that.
constexpr double k_white_text_below_luminance = 0.18;

// The colour scale right of the cells: k_colour_bar_steps stacked rects, low values at the
// bottom, with the value ticks and the value axis title.
void draw_colour_scale(SvgDocument& doc, const TickSet& ticks, ScaleKind kind, const std::string& title, double bar_x,
                       double bar_top, double bar_h, double tick_width) {
  doc.open_group("colour-scale");
  for (int k = 0; k < k_colour_bar_steps; ++k) {
    const double f = (k + 0.5) / k_colour_bar_steps;
    const double y = bar_top + bar_h * (1 - static_cast<double>(k + 1) / k_colour_bar_steps);
    doc.rect(bar_x, y, k_colour_bar_width_px, bar_h / k_colour_bar_steps + 0.5, heat_colour(f));
  }
  const Stroke frame{k_axis_colour, 1, {}};
  doc.rect(bar_x, bar_top, k_colour_bar_width_px, bar_h, "none", &frame);
  const Scale bar_scale(kind, ticks.lo, ticks.hi, bar_top + bar_h, bar_top);
  for (const Tick& t : ticks.ticks) {
    const auto y = bar_scale.map(t.value);
    if (!y || t.label.empty()) {
      continue;
    }
    doc.line(bar_x + k_colour_bar_width_px, *y, bar_x + k_colour_bar_width_px + 4, *y, frame);
    doc.text(bar_x + k_colour_bar_width_px + 6, *y + 4, t.label,
             {.size_px = detail::k_tick_font_px, .css_class = "tick-z"});
  }
  doc.text(
      bar_x + k_colour_bar_width_px + 6 + tick_width + 14, bar_top + bar_h / 2, title,
      {.size_px = detail::k_label_font_px, .anchor = Anchor::middle, .rotate_deg = -90, .css_class = "axis-label"});
  doc.close_group();
}

}  // namespace

std::string render_heatmap(const MatrixChart& chart) {
  const ScaleKind kind = chart.value_axis.scale == ScaleKind::log10 ? ScaleKind::log10 : ScaleKind::linear;
  const detail::MatrixData data = detail::prepare_matrix(chart, kind);
  const size_t rows = chart.row_labels.size();
  const size_t cols = chart.column_labels.size();
  const std::vector<std::string> notes = data.notes(chart);

  SvgDocument doc(chart.width_px, chart.height_px, detail::chart_id(chart.id, detail::matrix_fingerprint(chart)),
                  chart.title);
  doc.rect(0, 0, chart.width_px, chart.height_px, "#ffffff", nullptr, "background");
  const double top = detail::draw_title(doc, chart.width_px, chart.title, chart.subtitle);

  Axis value_axis = chart.value_axis;
  value_axis.scale = kind;
  value_axis.categories.clear();
  const TickSet ticks = resolve_axis(value_axis, data.extent, 5);
  double tick_width = 0;
  for (const Tick& t : ticks.ticks) {
    tick_width = std::max(tick_width, text_width_px(t.label, detail::k_tick_font_px));
  }
  double row_label_width = 0;
  for (const std::string& l : chart.row_labels) {
    row_label_width = std::max(row_label_width, text_width_px(l, detail::k_tick_font_px));
  }

  // Layout: [row axis title][row labels][cells][gap][colour bar][tick labels][value title]
  const double left = 10 + (chart.row_axis_label.empty() ? 0 : 20) + row_label_width + 8;
  const double right = chart.width_px - 10 - 20 - tick_width - 6 - k_colour_bar_width_px - 24;
  const double grid_top = top + (chart.column_axis_label.empty() ? 0 : 18) + 18;
  const double bottom = chart.height_px - 10 - static_cast<double>(notes.size()) * (detail::k_note_font_px + 3);
  const double cell_w = cols > 0 ? std::max(10.0, (right - left) / static_cast<double>(cols)) : 0;
  const double cell_h =
      rows > 0 ? std::min(k_max_cell_height_px, std::max(10.0, (bottom - grid_top) / static_cast<double>(rows))) : 0;
  const double grid_bottom = grid_top + cell_h * static_cast<double>(rows);
  const Scale shade_scale(kind, ticks.lo, ticks.hi, 0, 1);

  doc.open_group("cells");
  const Stroke cell_edge{"#ffffff", 1, {}};
  const double font = std::min(detail::k_tick_font_px, cell_h * 0.45);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      const double x = left + static_cast<double>(c) * cell_w;
      const double y = grid_top + static_cast<double>(r) * cell_h;
      const double v = data.values[r][c];
      doc.open_group("cell", fmt::format("data-row=\"{}\" data-column=\"{}\"", xml_escape(chart.row_labels[r]),
                                         xml_escape(chart.column_labels[c])));
      if (std::isnan(v)) {
        doc.rect(x, y, cell_w, cell_h, "#f2f2f2", &cell_edge);
        doc.text(x + cell_w / 2, y + cell_h / 2 + font * 0.35, "\u2013",
                 {.size_px = font, .anchor = Anchor::middle, .fill = "#888888", .css_class = "value-missing"});
      } else {
        const std::string colour = heat_colour(shade_scale.map_clamped(v));
        doc.tooltip(fmt::format("{} / {}: {}", chart.row_labels[r], chart.column_labels[c], format_value(v, 6)));
        doc.rect(x, y, cell_w, cell_h, colour, &cell_edge);
        const bool dark = relative_luminance(colour) < k_white_text_below_luminance;
        doc.text(
            x + cell_w / 2, y + cell_h / 2 + font * 0.35, format_value(v, 3),
            {.size_px = font, .anchor = Anchor::middle, .fill = dark ? "#ffffff" : "#111111", .css_class = "value"});
      }
      doc.close_group();
    }
  }
  doc.close_group();

  doc.open_group("axes");
  for (size_t r = 0; r < rows; ++r) {
    doc.text(left - 6, grid_top + (static_cast<double>(r) + 0.5) * cell_h + 4, chart.row_labels[r],
             {.size_px = detail::k_tick_font_px, .anchor = Anchor::end, .css_class = "tick-row"});
  }
  for (size_t c = 0; c < cols; ++c) {
    doc.text(left + (static_cast<double>(c) + 0.5) * cell_w, grid_top - 6, chart.column_labels[c],
             {.size_px = detail::k_tick_font_px, .anchor = Anchor::middle, .css_class = "tick-column"});
  }
  if (!chart.column_axis_label.empty()) {
    doc.text(left + cell_w * static_cast<double>(cols) / 2, grid_top - 24, chart.column_axis_label,
             {.size_px = detail::k_label_font_px, .anchor = Anchor::middle, .css_class = "axis-label"});
  }
  if (!chart.row_axis_label.empty()) {
    doc.text(
        18, (grid_top + grid_bottom) / 2, chart.row_axis_label,
        {.size_px = detail::k_label_font_px, .anchor = Anchor::middle, .rotate_deg = -90, .css_class = "axis-label"});
  }
  doc.close_group();

  draw_colour_scale(doc, ticks, kind, value_axis.label, left + cell_w * static_cast<double>(cols) + 24, grid_top,
                    std::max(40.0, grid_bottom - grid_top), tick_width);

  if (data.extent.count == 0) {
    doc.text(chart.width_px / 2, (grid_top + bottom) / 2, "No data",
             {.size_px = 14, .anchor = Anchor::middle, .fill = "#888888", .css_class = "no-data"});
  }
  detail::draw_notes(doc, notes, 10, chart.height_px - 8);
  return doc.finish();
}

}  // namespace ptsuite::report::chart
