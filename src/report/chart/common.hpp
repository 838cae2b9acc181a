// Private to the chart renderers: pieces shared by the x/y, isometric and heat-map charts:
// legends with their swatches, bar hatching, titles, footnotes, dash patterns and stable ids.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <ptsuite/report/chart/model.hpp>
#include <ptsuite/report/chart/scale.hpp>
#include <ptsuite/report/chart/svg.hpp>

namespace ptsuite::report::chart::detail {

inline constexpr double k_title_font_px = 15;
inline constexpr double k_subtitle_font_px = 12;
inline constexpr double k_label_font_px = 12;  // axis titles
inline constexpr double k_tick_font_px = 11;   // tick labels, legend
inline constexpr double k_note_font_px = 10;   // footnotes, annotations on lines
inline constexpr double k_legend_row_px = 18;
inline constexpr double k_swatch_px = 26;

enum class SwatchKind { line, line_markers, markers, bar, band, ref_line };

struct LegendEntry {
  std::string label;
  SwatchKind kind = SwatchKind::line;
  std::string_view colour;
  std::string_view dash;
  MarkerShape marker = MarkerShape::circle;
  int hatch = 0;  // 0 = plain fill (bars)
};

struct LegendGrid {
  size_t columns = 1;
  size_t rows = 0;
  double column_width_px = 0;
  [[nodiscard]] double width_px() const { return static_cast<double>(columns) * column_width_px; }
  [[nodiscard]] double height_px() const { return static_cast<double>(rows) * k_legend_row_px; }
};

// Width of one legend column: the longest label plus the swatch and padding.
double legend_column_width(const std::vector<LegendEntry>& entries);
// A column-major grid (right of the plot) that fits in `max_height_px`.
LegendGrid legend_grid_right(const std::vector<LegendEntry>& entries, double max_height_px);
// A row-major grid (under the plot) that fits in `max_width_px`.
LegendGrid legend_grid_bottom(const std::vector<LegendEntry>& entries, double max_width_px);
void draw_legend(SvgDocument& doc, const std::vector<LegendEntry>& entries, const LegendGrid& grid, double x, double y,
                 bool column_major);

// Hatch k (1..3) overlays light diagonal / anti-diagonal / horizontal stripes on bars of looks
// with dash index k, so bars stay apart in greyscale. 0 = none.
int hatch_for_look(size_t look);
// <defs> with the hatch patterns 1..3, ids "<id>-hatch<k>".
void write_hatch_defs(SvgDocument& doc);
std::string hatch_fill(const SvgDocument& doc, int hatch);
// A filled rectangle with its hatch overlay, outlined in its own colour (bars) or in
// `outline` (histogram bins: white, so that neighbouring bins stay apart).
void hatched_rect(SvgDocument& doc, double x, double y, double w, double h, std::string_view colour, int hatch,
                  std::string_view css_class, std::string_view outline = {});

std::string_view dash_pattern(LineDash dash);

// Title and subtitle centred at the top; returns the height they take.
double draw_title(SvgDocument& doc, double width_px, std::string_view title, std::string_view subtitle);
// Footnotes, one per line, growing upward from `bottom_y`.
void draw_notes(SvgDocument& doc, const std::vector<std::string>& notes, double x, double bottom_y);

// The caller's id if it has any usable character, else "chart-" + 12 hex digits of the
// SHA-256 of `fingerprint` (a text rendering of the whole model).
std::string chart_id(std::string_view explicit_id, std::string_view fingerprint);

// The matrix as `rows x columns` values (missing entries are NaN), the extent of its
// drawable values on `kind`, and the count of values that are not drawable for a reason
// other than being NaN (NaN means "no value" in a MatrixChart).
struct MatrixData {
  std::vector<std::vector<double>> values;
  Extent extent;
  size_t not_drawable = 0;
  [[nodiscard]] std::vector<std::string> notes(const MatrixChart& chart) const;
};
MatrixData prepare_matrix(const MatrixChart& chart, ScaleKind kind);
std::string matrix_fingerprint(const MatrixChart& chart);

}  // namespace ptsuite::report::chart::detail
