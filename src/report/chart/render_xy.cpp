// render_svg(): x/y charts. Layout, top to bottom: title block; plot area with the legend to
// its right (or under the x axis title); x tick labels; x axis title; footnotes.
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
#include "report/chart/xy_scan.hpp"

namespace ptsuite::report::chart {

namespace {

using detail::LegendEntry;
using detail::LegendGrid;
using detail::SwatchKind;

constexpr double k_marker_radius_px = 3.2;
constexpr double k_thin_marker_radius_px = 1.7;
constexpr double k_marker_clip_margin_px = 6;  // markers on the frame are not cut in half
constexpr double k_category_label_angle_deg = -35;

class XyRenderer {
 public:
  explicit XyRenderer(const Chart& chart)
      : m_c(chart),
        m_doc(chart.width_px, chart.height_px, detail::chart_id(chart.id, detail::fingerprint(chart)), chart.title) {}

  std::string render() {
    m_scan = detail::scan_xy(m_c);
    m_notes = m_scan.skips.notes();
    if (!m_c.note.empty()) {
      m_notes.insert(m_notes.begin(), m_c.note);
    }
    m_doc.rect(0, 0, m_c.width_px, m_c.height_px, "#ffffff", nullptr, "background");
    m_top = detail::draw_title(m_doc, m_c.width_px, m_c.title, m_c.subtitle);
    layout();
    write_defs();
    draw_grid();
    draw_bands();
    draw_series();
    draw_ref_lines();
    draw_frame_and_ticks();
    draw_annotations();
    if (m_marks_drawn == 0) {
      m_doc.text((m_left + m_right) / 2, (m_plot_top + m_bottom) / 2, "No data",
                 {.size_px = 14, .anchor = Anchor::middle, .fill = "#888888", .css_class = "no-data"});
    }
    draw_legend();
    detail::draw_notes(m_doc, m_notes, 10, m_c.height_px - 8);
    return m_doc.finish();
  }

 private:
  [[nodiscard]] bool categorical_x() const { return !m_c.x.categories.empty(); }

  std::vector<LegendEntry> legend_entries() const {
    std::vector<LegendEntry> entries;
    for (size_t i = 0; i < m_c.series.size(); ++i) {
      const Series& s = m_c.series[i];
      if (s.name.empty()) {
        continue;
      }
      const size_t look_index = s.look.value_or(i);
      const SeriesLook look = series_look(look_index);
      SwatchKind kind = SwatchKind::bar;
      if (s.style == SeriesStyle::line) {
        kind = SwatchKind::line;
      } else if (s.style == SeriesStyle::line_markers) {
        kind = SwatchKind::line_markers;
      } else if (s.style == SeriesStyle::markers) {
        kind = SwatchKind::markers;
      }
      entries.push_back({s.name, kind, look.colour, look.dash, look.marker, detail::hatch_for_look(look_index)});
    }
    for (const Band& b : m_c.bands) {
      if (!b.label.empty()) {
        entries.push_back({b.label, SwatchKind::band, b.look ? series_look(*b.look).colour : "#888888", {}, {}, 0});
      }
    }
    for (const RefLine& r : m_c.ref_lines) {
      if (!r.label.empty()) {
        entries.push_back({r.label, SwatchKind::ref_line, ref_colour(r), detail::dash_pattern(r.dash), {}, 0});
      }
    }
    return entries;
  }

  static std::string_view ref_colour(const RefLine& r) {
    return r.look ? series_look(*r.look).colour : k_reference_colour;
  }

  static int intervals_for(double length_px, double px_per_interval) {
    return std::clamp(static_cast<int>(length_px / px_per_interval), 2, 10);
  }

  void resolve_y() {
    m_y_ticks = resolve_axis(m_c.y, m_scan.y, intervals_for(m_bottom - m_plot_top, 45));
    double widest = 0;
    for (const Tick& t : m_y_ticks.ticks) {
      widest = std::max(widest, text_width_px(t.label, detail::k_tick_font_px));
    }
    m_left = 10 + (m_c.y.label.empty() ? 0 : 20) + widest + 8;
  }

  // Pass 2: margins, legend grid and both scales.
  void layout() {
    const double w = m_c.width_px;
    const double h = m_c.height_px;
    m_legend = legend_entries();
    double bottom_margin =
        8 + static_cast<double>(m_notes.size()) * (detail::k_note_font_px + 3) + 22 + (m_c.x.label.empty() ? 0 : 18);
    double legend_width = 0;
    if (m_c.legend == LegendPlacement::bottom && !m_legend.empty()) {
      m_legend_grid = detail::legend_grid_bottom(m_legend, w - 40);
      bottom_margin += m_legend_grid.height_px() + 6;
    }
    m_plot_top = m_top;
    m_bottom = std::max(m_plot_top + 60, h - bottom_margin);
    if (m_c.legend == LegendPlacement::right && !m_legend.empty()) {
      m_legend_grid = detail::legend_grid_right(m_legend, m_bottom - m_plot_top);
      legend_width = m_legend_grid.width_px() + 10;
    }
    resolve_y();
    m_right = std::max(m_left + 80, w - 16 - legend_width);

    if (categorical_x()) {
      // Rotate category labels that would collide; the extra height comes off the plot.
      const double slot = (m_right - m_left) / static_cast<double>(m_c.x.categories.size());
      double widest = 0;
      for (const std::string& c : m_c.x.categories) {
        widest = std::max(widest, text_width_px(c, detail::k_tick_font_px));
      }
      if (widest > 0.92 * slot) {
        m_rotate_x_labels = true;
        m_x_label_extra = widest * std::sin(-k_category_label_angle_deg * std::numbers::pi / 180) - 4;
        m_bottom = std::max(m_plot_top + 60, m_bottom - m_x_label_extra);
        resolve_y();
        m_right = std::max(m_left + 80, w - 16 - legend_width);
      }
    }
    m_x_ticks = resolve_axis(m_c.x, m_scan.x, intervals_for(m_right - m_left, 90));
    const ScaleKind xk = categorical_x() ? ScaleKind::linear : m_c.x.scale;
    m_x = Scale(xk, m_x_ticks.lo, m_x_ticks.hi, m_left, m_right);
    m_y = Scale(m_c.y.scale, m_y_ticks.lo, m_y_ticks.hi, m_bottom, m_plot_top);
  }

  void write_defs() {
    const double pad = k_marker_clip_margin_px;
    m_doc.raw(
        fmt::format("<defs>\n<clipPath id=\"{0}-plot\"><rect x=\"{1}\" y=\"{2}\" width=\"{3}\" "
                    "height=\"{4}\"/></clipPath>\n"
                    "<clipPath id=\"{0}-marks\"><rect x=\"{5}\" y=\"{6}\" width=\"{7}\" "
                    "height=\"{8}\"/></clipPath>\n</defs>\n",
                    m_doc.id(), svg_number(m_left), svg_number(m_plot_top), svg_number(m_right - m_left),
                    svg_number(m_bottom - m_plot_top), svg_number(m_left - pad), svg_number(m_plot_top - pad),
                    svg_number(m_right - m_left + 2 * pad), svg_number(m_bottom - m_plot_top + 2 * pad)));
    if (m_scan.has_bars) {
      detail::write_hatch_defs(m_doc);
    }
  }

  std::string clip(std::string_view which) const { return fmt::format("clip-path=\"url(#{}-{})\"", m_doc.id(), which); }

  void draw_grid() {
    m_doc.open_group("grid");
    for (const bool major : {false, true}) {
      const Stroke stroke{major ? k_grid_major_colour : k_grid_minor_colour, 1, {}};
      for (const Tick& t : m_y_ticks.ticks) {
        if (t.major == major) {
          if (const auto y = m_y.map(t.value)) {
            m_doc.line(m_left, *y, m_right, *y, stroke);
          }
        }
      }
      if (categorical_x()) {
        continue;  // categories are read from their labels; a grid line per slot is clutter
      }
      for (const Tick& t : m_x_ticks.ticks) {
        if (t.major == major) {
          if (const auto x = m_x.map(t.value)) {
            m_doc.line(*x, m_plot_top, *x, m_bottom, stroke);
          }
        }
      }
    }
    m_doc.close_group();
  }

  void draw_bands() {
    if (m_c.bands.empty()) {
      return;
    }
    m_doc.open_group("bands", clip("plot"));
    for (const Band& b : m_c.bands) {
      const bool horizontal = b.orientation == Orientation::horizontal;
      const Scale& s = horizontal ? m_y : m_x;
      const double a = s.map_clamped(b.from);
      const double c = s.map_clamped(b.to);
      const std::string_view colour = b.look ? series_look(*b.look).colour : "#888888";
      if (horizontal) {
        m_doc.rect(m_left, std::min(a, c), m_right - m_left, std::fabs(a - c), colour, nullptr, "band", 0.1);
      } else {
        m_doc.rect(std::min(a, c), m_plot_top, std::fabs(a - c), m_bottom - m_plot_top, colour, nullptr, "band", 0.1);
      }
    }
    m_doc.close_group();
  }

  std::optional<std::pair<double, double>> place(const Point& p) const {
    const auto x = m_x.map(p.x);
    const auto y = m_y.map(p.y);
    if (!x || !y || (categorical_x() && (p.x < -0.5 || p.x > m_x.hi()))) {
      return std::nullopt;
    }
    return std::make_pair(*x, *y);
  }

  void draw_series() {
    size_t bar_series = 0;
    for (const Series& s : m_c.series) {
      bar_series += s.style == SeriesStyle::bars ? 1 : 0;
    }
    const double slot = bar_slot_px();
    size_t bar_index = 0;
    for (size_t i = 0; i < m_c.series.size(); ++i) {
      const Series& s = m_c.series[i];
      const size_t look_index = s.look.value_or(i);
      m_doc.open_group("series", fmt::format("data-series=\"{}\"", xml_escape(s.name)));
      if (s.style == SeriesStyle::histogram) {
        draw_histogram(s, look_index);
      } else if (s.style == SeriesStyle::bars) {
        draw_bars(s, look_index, slot, bar_index++, bar_series);
      } else {
        draw_line_and_markers(s, look_index);
      }
      m_doc.close_group();
    }
  }

  void draw_line_and_markers(const Series& s, size_t look_index) {
    const SeriesLook look = series_look(look_index);
    const double radius = s.thin ? k_thin_marker_radius_px : k_marker_radius_px;
    std::vector<std::optional<std::pair<double, double>>> placed;
    placed.reserve(s.points.size());
    for (const Point& p : s.points) {
      placed.push_back(place(p));
    }
    std::vector<size_t> marker_at;
    if (s.style == SeriesStyle::line || s.style == SeriesStyle::line_markers) {
      // One path; an unplaceable point lifts the pen, so gaps stay visible as gaps.
      std::string d;
      bool pen_down = false;
      for (size_t k = 0; k < placed.size(); ++k) {
        if (!placed[k]) {
          pen_down = false;
          continue;
        }
        d += fmt::format("{}{} {}", pen_down ? 'L' : 'M', svg_number(placed[k]->first), svg_number(placed[k]->second));
        // A point with no placeable neighbour draws no line: give it a marker to stay visible.
        const bool isolated = (k == 0 || !placed[k - 1]) && (k + 1 == placed.size() || !placed[k + 1]);
        if (s.style == SeriesStyle::line && isolated) {
          marker_at.push_back(k);
        }
        pen_down = true;
      }
      if (!d.empty()) {
        m_doc.open_group({}, clip("plot"));
        const Stroke stroke{look.colour, s.thin ? 1.0 : 1.8, look.dash};
        m_doc.path(d, "none", &stroke, "line");
        m_doc.close_group();
        ++m_marks_drawn;
      }
    }
    if (s.style == SeriesStyle::markers || s.style == SeriesStyle::line_markers) {
      marker_at.clear();
      for (size_t k = 0; k < placed.size(); ++k) {
        if (placed[k]) {
          marker_at.push_back(k);
        }
      }
    }
    if (!marker_at.empty()) {
      m_doc.open_group({}, clip("marks"));
      for (const size_t k : marker_at) {
        m_doc.marker(look.marker, placed[k]->first, placed[k]->second, radius, look.colour);
      }
      m_doc.close_group();
      m_marks_drawn += marker_at.size();
    }
  }

  // Width of one bar group: a category slot, or the smallest gap between distinct bar x
  // positions on a numeric axis (a tenth of the plot for a single position).
  double bar_slot_px() const {
    if (categorical_x()) {
      return (m_right - m_left) / static_cast<double>(m_c.x.categories.size());
    }
    std::vector<double> xs;
    for (const Series& s : m_c.series) {
      if (s.style == SeriesStyle::bars) {
        for (const Point& p : s.points) {
          if (const auto x = m_x.map(p.x)) {
            xs.push_back(*x);
          }
        }
      }
    }
    std::sort(xs.begin(), xs.end());
    double slot = (m_right - m_left) / 10;
    for (size_t k = 1; k < xs.size(); ++k) {
      if (xs[k] - xs[k - 1] > 0.5) {
        slot = std::min(slot, xs[k] - xs[k - 1]);
      }
    }
    return slot;
  }

  // Bars grow from y = 0 where the y axis can place it, else from the axis' low end.
  double baseline_px() const {
    return m_y.drawable(0) && 0 >= m_y.lo() && 0 <= m_y.hi() ? *m_y.map(0) : m_y.map_clamped(m_y.lo());
  }

  void draw_bars(const Series& s, size_t look_index, double slot, size_t bar_index, size_t bar_series) {
    // Grouped bars: the group takes 80 % of the slot, each of n series 1/n of the group,
    // series k centred at (k - (n - 1)/2) bar widths from the slot centre.
    const double bar_w = 0.8 * slot / static_cast<double>(std::max<size_t>(1, bar_series));
    const double offset = (static_cast<double>(bar_index) - (static_cast<double>(bar_series) - 1) / 2) * bar_w;
    const SeriesLook look = series_look(look_index);
    const double base = baseline_px();
    m_doc.open_group({}, clip("plot"));
    for (const Point& p : s.points) {
      const auto xy = place(p);
      if (!xy) {
        continue;
      }
      const double top = std::min(base, xy->second);
      detail::hatched_rect(m_doc, xy->first + offset - bar_w / 2, top, bar_w, std::fabs(base - xy->second), look.colour,
                           detail::hatch_for_look(look_index), "bar");
      ++m_marks_drawn;
    }
    m_doc.close_group();
  }

  void draw_histogram(const Series& s, size_t look_index) {
    const SeriesLook look = series_look(look_index);
    const double base = baseline_px();
    m_doc.open_group({}, clip("plot"));
    for (const Bin& b : s.bins) {
      if (!std::isfinite(b.lo) || !std::isfinite(b.hi) || !std::isfinite(b.count) || !m_x.drawable(b.hi)) {
        continue;  // counted in scan()
      }
      const auto top = m_y.map(b.count);
      if (!top || b.count == 0) {
        continue;  // an empty bin has nothing to draw (and no position on a log y axis)
      }
      // A lower edge of 0 on a log x axis starts at the axis' low end (the bin is real data).
      const double x0 = m_x.map_clamped(b.lo);
      const double x1 = m_x.map_clamped(b.hi);
      detail::hatched_rect(m_doc, std::min(x0, x1), std::min(base, *top), std::fabs(x1 - x0), std::fabs(base - *top),
                           look.colour, detail::hatch_for_look(look_index), "bin", "#ffffff");
      ++m_marks_drawn;
    }
    m_doc.close_group();
  }

  void draw_ref_lines() {
    if (m_c.ref_lines.empty()) {
      return;
    }
    m_doc.open_group("ref-lines");
    for (const RefLine& r : m_c.ref_lines) {
      const bool horizontal = r.orientation == Orientation::horizontal;
      const Scale& scale = horizontal ? m_y : m_x;
      const auto pos = scale.map(r.value);
      // A reference value outside a fixed range is not drawn (it would sit on the frame).
      if (!pos || *pos < std::min(scale.px_from(), scale.px_to()) - 0.01 ||
          *pos > std::max(scale.px_from(), scale.px_to()) + 0.01) {
        continue;
      }
      const Stroke stroke{ref_colour(r), 1.4, detail::dash_pattern(r.dash)};
      if (horizontal) {
        m_doc.line(m_left, *pos, m_right, *pos, stroke);
      } else {
        m_doc.line(*pos, m_plot_top, *pos, m_bottom, stroke);
      }
      if (r.label_at_line && !r.label.empty()) {
        if (horizontal) {
          m_doc.text(m_right - 4, *pos - 4, r.label,
                     {.size_px = detail::k_note_font_px,
                      .anchor = Anchor::end,
                      .fill = ref_colour(r),
                      .halo = true,
                      .css_class = "ref-label"});
        } else {
          // Rotated -90 degrees, glyphs rise toward -x from the baseline: put the baseline one
          // glyph height right of the line so the text sits beside it, reading upward.
          m_doc.text(*pos + 3 + 0.85 * detail::k_note_font_px, m_plot_top + 4, r.label,
                     {.size_px = detail::k_note_font_px,
                      .anchor = Anchor::end,
                      .rotate_deg = -90,
                      .fill = ref_colour(r),
                      .halo = true,
                      .css_class = "ref-label"});
        }
      }
    }
    m_doc.close_group();
  }

  void draw_frame_and_ticks() {
    const Stroke axis{k_axis_colour, 1, {}};
    m_doc.open_group("axes");
    m_doc.rect(m_left, m_plot_top, m_right - m_left, m_bottom - m_plot_top, "none", &axis, "frame");
    for (const Tick& t : m_y_ticks.ticks) {
      const auto y = m_y.map(t.value);
      if (!y || t.label.empty()) {
        continue;
      }
      m_doc.line(m_left - 4, *y, m_left, *y, axis);
      m_doc.text(m_left - 7, *y + 4, t.label,
                 {.size_px = detail::k_tick_font_px, .anchor = Anchor::end, .css_class = "tick-y"});
    }
    for (const Tick& t : m_x_ticks.ticks) {
      const auto x = m_x.map(t.value);
      if (!x || t.label.empty()) {
        continue;
      }
      m_doc.line(*x, m_bottom, *x, m_bottom + 4, axis);
      if (m_rotate_x_labels) {
        m_doc.text(*x + 3, m_bottom + 14, t.label,
                   {.size_px = detail::k_tick_font_px,
                    .anchor = Anchor::end,
                    .rotate_deg = k_category_label_angle_deg,
                    .css_class = "tick-x"});
      } else {
        m_doc.text(*x, m_bottom + 17, t.label,
                   {.size_px = detail::k_tick_font_px, .anchor = Anchor::middle, .css_class = "tick-x"});
      }
    }
    const double x_title_y = m_bottom + 22 + (m_rotate_x_labels ? m_x_label_extra : 0) + 14;
    if (!m_c.x.label.empty()) {
      m_doc.text((m_left + m_right) / 2, x_title_y, m_c.x.label,
                 {.size_px = detail::k_label_font_px, .anchor = Anchor::middle, .css_class = "axis-label"});
    }
    if (!m_c.y.label.empty()) {
      m_doc.text(
          18, (m_plot_top + m_bottom) / 2, m_c.y.label,
          {.size_px = detail::k_label_font_px, .anchor = Anchor::middle, .rotate_deg = -90, .css_class = "axis-label"});
    }
    m_x_title_bottom = x_title_y + 4;
    m_doc.close_group();
  }

  void draw_annotations() {
    for (const Annotation& a : m_c.annotations) {
      const auto xy = place({a.x, a.y});
      if (!xy) {
        continue;
      }
      const Anchor anchor =
          a.anchor == TextAnchor::middle ? Anchor::middle : (a.anchor == TextAnchor::end ? Anchor::end : Anchor::start);
      m_doc.text(xy->first, xy->second, a.text,
                 {.size_px = detail::k_tick_font_px, .anchor = anchor, .halo = true, .css_class = "annotation"});
    }
  }

  void draw_legend() {
    if (m_legend.empty() || m_c.legend == LegendPlacement::none) {
      return;
    }
    if (m_c.legend == LegendPlacement::right) {
      detail::draw_legend(m_doc, m_legend, m_legend_grid, m_right + 12, m_plot_top, true);
    } else {
      const double x = std::max(10.0, (m_c.width_px - m_legend_grid.width_px()) / 2);
      detail::draw_legend(m_doc, m_legend, m_legend_grid, x, m_x_title_bottom + 2, false);
    }
  }

  const Chart& m_c;
  SvgDocument m_doc;
  detail::XyScan m_scan;
  std::vector<std::string> m_notes;
  std::vector<LegendEntry> m_legend;
  LegendGrid m_legend_grid;
  TickSet m_x_ticks;
  TickSet m_y_ticks;
  Scale m_x;
  Scale m_y;
  double m_top = 0;
  double m_plot_top = 0;
  double m_bottom = 0;
  double m_left = 0;
  double m_right = 0;
  double m_x_title_bottom = 0;
  double m_x_label_extra = 0;
  bool m_rotate_x_labels = false;
  size_t m_marks_drawn = 0;
};

}  // namespace

size_t place_legend_below(Chart& chart, size_t legend_rows_kept) {
  chart.legend = LegendPlacement::bottom;
  std::vector<LegendEntry> entries;
  auto add = [&entries](const std::string& label) {
    if (!label.empty()) entries.push_back({label, SwatchKind::line, {}, {}, {}, 0});
  };
  for (const Series& s : chart.series) add(s.name);
  for (const Band& b : chart.bands) add(b.label);
  for (const RefLine& r : chart.ref_lines) add(r.label);
  // The same grid layout() builds: the chart's width less 40 px of margins.
  const LegendGrid grid = detail::legend_grid_bottom(entries, chart.width_px - 40);
  if (grid.rows > legend_rows_kept) {
    chart.height_px += static_cast<double>(grid.rows - legend_rows_kept) * detail::k_legend_row_px;
  }
  return grid.rows;
}

std::string render_svg(const Chart& chart) { return XyRenderer(chart).render(); }

}  // namespace ptsuite::report::chart
