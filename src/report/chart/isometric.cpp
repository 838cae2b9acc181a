// render_isometric_bars(): a MatrixChart as 3D bars on an isometric ground grid.
//
// Projection. Ground coordinates (a, b) count cells: rows along a, columns along b; z is the
// bar height in px. Isometric projection puts the a and b axes at 30 degrees below the
// horizontal, to the right and to the left, with equal foreshortening:
//     X = ox + (a - b) * s * cos 30°
//     Y = oy + (a + b) * s * sin 30° - z
// where s is the length of one ground cell in px and (ox, oy) the screen position of the far
// corner (a, b) = (0, 0). The viewer looks from +a, +b, above: the ground diamond has its
// far corner at the top, the left corner at (0, C), the right corner at (R, 0) and the near
// corner at (R, C).
//
// Size. The drawing spans (R + C) s cos30 in width and (R + C) s sin30 + H in height (H is
// the tallest bar). s is the largest value that fits the width, capped so that the ground
// diamond takes at most 55 % of the height and the bars keep at least 45 %.
//
// Hidden faces. Of a box [a0, a1] x [b0, b1] x [0, h] the viewer sees the top, the face
// a = a1 (lower right) and the face b = b1 (lower left). Boxes are painted far to near
// (ascending a + b, then a): with gaps between cells, a box can only be hidden by boxes of
// larger a + b, so this painter's order is exact.
#include <ptsuite/report/chart/render.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <numbers>

#include <ptsuite/report/chart/scale.hpp>
#include <ptsuite/report/chart/style.hpp>
#include <ptsuite/report/chart/svg.hpp>
#include <ptsuite/report/chart/ticks.hpp>
#include "report/chart/common.hpp"

namespace ptsuite::report::chart {

namespace {

const double k_cos30 = std::sqrt(3.0) / 2;
constexpr double k_sin30 = 0.5;
constexpr double k_bar_inset = 0.15;  // each bar leaves 15 % of its cell free on every side

struct Projection {
  double ox = 0;
  double oy = 0;
  double s = 1;
  [[nodiscard]] double x(double a, double b) const { return ox + (a - b) * s * k_cos30; }
  [[nodiscard]] double y(double a, double b, double z) const { return oy + (a + b) * s * k_sin30 - z; }
  [[nodiscard]] std::string pt(double a, double b, double z) const {
    return svg_number(x(a, b)) + "," + svg_number(y(a, b, z));
  }
  [[nodiscard]] std::string quad(std::initializer_list<std::array<double, 3>> corners) const {
    std::string out;
    for (const auto& c : corners) {
      if (!out.empty()) {
        out += ' ';
      }
      out += pt(c[0], c[1], c[2]);
    }
    return out;
  }
};

// Back walls (a = 0 and b = 0) with a grid line per tick, then the floor with cell lines.
void draw_walls(SvgDocument& doc, const Projection& p, const Scale& z, const TickSet& ticks, double rows, double cols,
                double bar_max_px) {
  const Stroke grid{k_grid_major_colour, 1, {}};
  const Stroke frame{"#9a9a9a", 1, {}};
  doc.open_group("walls");
  doc.polygon(p.quad({{0, 0, 0}, {0, cols, 0}, {0, cols, bar_max_px}, {0, 0, bar_max_px}}), "#f3f3f3", &frame);
  doc.polygon(p.quad({{0, 0, 0}, {rows, 0, 0}, {rows, 0, bar_max_px}, {0, 0, bar_max_px}}), "#ebebeb", &frame);
  doc.polygon(p.quad({{0, 0, 0}, {rows, 0, 0}, {rows, cols, 0}, {0, cols, 0}}), "#fafafa", &frame);
  for (const Tick& t : ticks.ticks) {
    const auto h = z.map(t.value);
    if (!h || t.label.empty()) {
      continue;
    }
    doc.path(fmt::format("M{}L{}L{}", p.pt(0, cols, *h), p.pt(0, 0, *h), p.pt(rows, 0, *h)), "none", &grid);
    doc.line(p.x(0, cols) - 4, p.y(0, cols, *h), p.x(0, cols), p.y(0, cols, *h), frame);
    doc.text(p.x(0, cols) - 7, p.y(0, cols, *h) + 4, t.label,
             {.size_px = detail::k_tick_font_px, .anchor = Anchor::end, .css_class = "tick-z"});
  }
  for (double a = 1; a < rows; ++a) {
    doc.line(p.x(a, 0), p.y(a, 0, 0), p.x(a, cols), p.y(a, cols, 0), grid);
  }
  for (double b = 1; b < cols; ++b) {
    doc.line(p.x(0, b), p.y(0, b, 0), p.x(rows, b), p.y(rows, b, 0), grid);
  }
  doc.close_group();
}

// The bars, far to near.
void draw_bars(SvgDocument& doc, const MatrixChart& chart, const detail::MatrixData& data, const Projection& p,
               const Scale& z, double bar_max_px) {
  std::vector<std::pair<size_t, size_t>> order;
  for (size_t r = 0; r < chart.row_labels.size(); ++r) {
    for (size_t c = 0; c < chart.column_labels.size(); ++c) {
      order.emplace_back(r, c);
    }
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& l, const auto& r) { return l.first + l.second < r.first + r.second; });
  doc.open_group("bars");
  for (const auto& [r, c] : order) {
    const double v = data.values[r][c];
    const auto h_px = z.map(v);
    if (std::isnan(v) || !h_px) {
      continue;
    }
    const double h = std::clamp(*h_px, 0.0, bar_max_px);
    const double a0 = static_cast<double>(r) + k_bar_inset;
    const double a1 = static_cast<double>(r) + 1 - k_bar_inset;
    const double b0 = static_cast<double>(c) + k_bar_inset;
    const double b1 = static_cast<double>(c) + 1 - k_bar_inset;
    const std::string_view colour = series_look(c).colour;
    const std::string edge_colour = shade(colour, -0.45);  // Stroke only views the string
    const Stroke edge{edge_colour, 0.6, {}};
    doc.open_group("bar3d", fmt::format("data-row=\"{}\" data-column=\"{}\"", xml_escape(chart.row_labels[r]),
                                        xml_escape(chart.column_labels[c])));
    doc.tooltip(fmt::format("{} / {}: {}", chart.row_labels[r], chart.column_labels[c], format_value(v, 4)));
    const std::string top_colour = shade(colour, 0.35);
    const std::string left_colour = shade(colour, -0.25);
    doc.polygon(p.quad({{a1, b0, 0}, {a1, b1, 0}, {a1, b1, h}, {a1, b0, h}}), colour,
                &edge);  // a = a1: lower right
    doc.polygon(p.quad({{a0, b1, 0}, {a1, b1, 0}, {a1, b1, h}, {a0, b1, h}}), left_colour,
                &edge);  // b = b1: lower left
    doc.polygon(p.quad({{a0, b0, h}, {a1, b0, h}, {a1, b1, h}, {a0, b1, h}}), top_colour,
                &edge);  // top
    doc.close_group();
  }
  doc.close_group();
}

}  // namespace

std::string render_isometric_bars(const MatrixChart& chart) {
  const ScaleKind kind = chart.value_axis.scale == ScaleKind::log10 ? ScaleKind::log10 : ScaleKind::linear;
  const detail::MatrixData data = detail::prepare_matrix(chart, kind);
  const auto rows = static_cast<double>(chart.row_labels.size());
  const auto cols = static_cast<double>(chart.column_labels.size());
  const std::vector<std::string> notes = data.notes(chart);

  SvgDocument doc(chart.width_px, chart.height_px, detail::chart_id(chart.id, detail::matrix_fingerprint(chart)),
                  chart.title);
  doc.rect(0, 0, chart.width_px, chart.height_px, "#ffffff", nullptr, "background");
  const double top = detail::draw_title(doc, chart.width_px, chart.title, chart.subtitle);

  // Value axis ticks first: their label width sets the left margin.
  Axis value_axis = chart.value_axis;
  value_axis.scale = kind;
  value_axis.include_zero = kind == ScaleKind::linear;  // bars grow from zero
  value_axis.categories.clear();
  const TickSet ticks = resolve_axis(value_axis, data.extent, 6);
  double tick_width = 0;
  for (const Tick& t : ticks.ticks) {
    tick_width = std::max(tick_width, text_width_px(t.label, detail::k_tick_font_px));
  }
  double row_label_width = 0;
  for (const std::string& l : chart.row_labels) {
    row_label_width = std::max(row_label_width, text_width_px(l, detail::k_tick_font_px));
  }
  double col_label_width = 0;
  for (const std::string& l : chart.column_labels) {
    col_label_width = std::max(col_label_width, text_width_px(l, detail::k_tick_font_px));
  }

  const double left = 12 + 20 + tick_width + 10 + std::max(0.0, row_label_width - tick_width);
  const double right = chart.width_px - 12 - col_label_width - 10;
  const double bottom = chart.height_px - 10 - static_cast<double>(notes.size()) * (detail::k_note_font_px + 3) - 36;
  const double avail_w = std::max(40.0, right - left);
  const double avail_h = std::max(40.0, bottom - top - 10);
  const double n = std::max(1.0, rows + cols);
  Projection p;
  p.s = std::min(avail_w / (n * k_cos30), 0.55 * avail_h / (n * k_sin30));
  const double bar_max_px = avail_h - n * p.s * k_sin30;
  // Centre the diamond horizontally: its X extent is [ox - C s cos30, ox + R s cos30].
  p.ox = left + (avail_w - n * p.s * k_cos30) / 2 + cols * p.s * k_cos30;
  p.oy = top + 10 + bar_max_px;
  const Scale z(kind, ticks.lo, ticks.hi, 0, bar_max_px);

  draw_walls(doc, p, z, ticks, rows, cols, bar_max_px);
  draw_bars(doc, chart, data, p, z, bar_max_px);

  // Row labels along the near-left edge (b = C), column labels along the near-right edge
  // (a = R), and the axis titles parallel to those edges (rotated +-30 degrees).
  doc.open_group("axes");
  for (size_t r = 0; r < chart.row_labels.size(); ++r) {
    const double a = static_cast<double>(r) + 0.5;
    doc.text(p.x(a, cols + 0.25) - 2, p.y(a, cols + 0.25, 0) + 8, chart.row_labels[r],
             {.size_px = detail::k_tick_font_px, .anchor = Anchor::end, .css_class = "tick-row"});
  }
  for (size_t c = 0; c < chart.column_labels.size(); ++c) {
    const double b = static_cast<double>(c) + 0.5;
    doc.text(p.x(rows + 0.25, b) + 2, p.y(rows + 0.25, b, 0) + 8, chart.column_labels[c],
             {.size_px = detail::k_tick_font_px, .css_class = "tick-column"});
  }
  const double off = 26;  // px beyond the labels, along the edge normal
  doc.text(p.x(rows / 2, cols) - row_label_width - off * k_cos30, p.y(rows / 2, cols, 0) + off, chart.row_axis_label,
           {.size_px = detail::k_label_font_px, .anchor = Anchor::middle, .rotate_deg = 30, .css_class = "axis-label"});
  // The column labels ("35/65") are wider than the row labels and stand where the title's
  // lower half would run: half as much again beyond them.
  const double col_off = off * 1.5;
  doc.text(
      p.x(rows, cols / 2) + col_label_width + col_off * k_cos30, p.y(rows, cols / 2, 0) + col_off,
      chart.column_axis_label,
      {.size_px = detail::k_label_font_px, .anchor = Anchor::middle, .rotate_deg = -30, .css_class = "axis-label"});
  doc.text(
      p.x(0, cols) - 7 - tick_width - 12, p.y(0, cols, bar_max_px / 2), value_axis.label,
      {.size_px = detail::k_label_font_px, .anchor = Anchor::middle, .rotate_deg = -90, .css_class = "axis-label"});
  doc.close_group();
  if (data.extent.count == 0) {
    doc.text(chart.width_px / 2, top + avail_h / 2, "No data",
             {.size_px = 14, .anchor = Anchor::middle, .fill = "#888888", .css_class = "no-data"});
  }
  detail::draw_notes(doc, notes, 10, chart.height_px - 8);
  return doc.finish();
}

}  // namespace ptsuite::report::chart
