// Contract: the chart model, plain data. Reporters fill a Chart (x/y plots: lines, scatter,
// bars, histograms) or a MatrixChart (the IOPS and latency matrices: isometric 3D bars or a
// shaded heat-map) with numbers that are already in results.json, and hand it to
// render.hpp, which returns a standalone <svg> string. Nothing here computes statistics:
// averages, fitted lines and percentiles come in as data.
//
// Units: every number is in the unit named by its axis label ("IOPS", "Response time (ms)",
// "Block size" with values in bytes and a KiB label style). Pixel sizes are SVG user units.
// Values that cannot be drawn (NaN, +-inf; zero or negative on a log axis) are skipped and
// counted in a footnote on the chart, never silently clamped (docs/charts.md, "Edge cases").
//
// Determinism: a given model always renders to the same bytes. Element ids inside the SVG
// are derived from Chart::id, or from a SHA-256 fingerprint of the model when id is empty,
// so two different charts inlined in one HTML page never share an id.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ptsuite::report::chart {

enum class ScaleKind {
  linear,
  log10,
  // "Nines" axis for cumulative percentages (confidence-level plots): position is
  // -log10(1 - p/100), so 90 %, 99 %, 99.9 %, 99.99 % ... are equally spaced. Values must be
  // percentages in [0, 100]; 100 % itself has no finite position and is drawn at the top.
  nines,
};

// How tick values are written under an axis (ticks.hpp has the exact rules).
enum class LabelStyle {
  si,            // 0.5, 20, 10k, 1.5M, 2G; exponent form below 0.001 ("1e-4")
  plain,         // 1500, 0.25: no prefixes (rounds, queue depths, years)
  bytes_binary,  // values are bytes: 512 -> "0.5KiB", 4096 -> "4KiB", 1048576 -> "1MiB"
  percent,       // values are percentages: 99.9 -> "99.9%"
};

struct Axis {
  std::string label;  // with its unit, e.g. "IOPS", "Time (min)", "Response time (ms)"
  ScaleKind scale = ScaleKind::linear;
  LabelStyle label_style = LabelStyle::si;
  std::optional<double> min;  // fixed range ends; otherwise derived from data, then
  std::optional<double> max;  // widened to the nearest tick (nice bounds)
  bool include_zero = false;  // linear only: widen the data range to contain 0
  // Explicit tick positions replace the automatic ones (e.g. the PTS block sizes on a log
  // x axis: 512, 4096, ... labelled "0.5KiB", "4KiB"). Non-drawable positions are dropped.
  std::vector<double> ticks;
  // A category axis (x only): point x = category index 0..n-1, labelled with these strings,
  // with half a slot of padding at both ends. Bars on it are grouped per category.
  std::vector<std::string> categories;
};

enum class SeriesStyle {
  line,          // polyline through the points in the given order; gaps at skipped points
  line_markers,  // the same with a marker at every point
  markers,       // scatter: markers only
  bars,          // one bar per point from the baseline; series with this style side by side
  histogram,     // the series' bins: rectangles [lo, hi) x [baseline, count]
};

struct Point {
  double x = 0;
  double y = 0;
};

struct Bin {
  double lo = 0;     // x of the left edge
  double hi = 0;     // x of the right edge
  double count = 0;  // bar height in y units
};

struct Series {
  std::string name;  // legend entry; empty = not in the legend
  SeriesStyle style = SeriesStyle::line_markers;
  std::vector<Point> points;  // every style but histogram
  std::vector<Bin> bins;      // histogram only
  // Index into the palette (style.hpp: colour, dash and marker together); default: the
  // series' position in Chart::series. Give equal indices to series that belong together.
  std::optional<size_t> look;
  bool thin = false;  // draw with a hairline and small markers (dense data such as WSAT)
};

enum class Orientation { horizontal, vertical };

enum class LineDash { solid, dashed, dotted, dash_dot };

// A line across the whole plot at one value: an average (horizontal), a 99.999 % latency
// marker (vertical), ...
struct RefLine {
  Orientation orientation = Orientation::horizontal;
  double value = 0;
  std::string label;  // legend entry (and the text at the line when label_at_line)
  LineDash dash = LineDash::solid;
  std::optional<size_t> look;  // palette colour; default dark grey
  bool label_at_line = false;  // also write the label next to the line, inside the plot
};

// A shaded span across the plot, e.g. the 90 %..110 % of average band.
struct Band {
  Orientation orientation = Orientation::horizontal;
  double from = 0;
  double to = 0;
  std::string label;           // legend entry; empty = none
  std::optional<size_t> look;  // palette colour; default grey
};

enum class TextAnchor { start, middle, end };

// Free text at data coordinates (e.g. the fit formula "y = -6.4·R + 11746").
struct Annotation {
  double x = 0;
  double y = 0;
  std::string text;
  TextAnchor anchor = TextAnchor::start;
};

enum class LegendPlacement { right, bottom, none };

struct Chart {
  std::string id;  // element-id prefix; letters, digits, '-' and '_' are kept
  std::string title;
  std::string subtitle;  // optional second title line (test, workload)
  Axis x;
  Axis y;
  std::vector<Series> series;
  std::vector<RefLine> ref_lines;
  std::vector<Band> bands;
  std::vector<Annotation> annotations;
  std::string note;  // footnote under the plot, before the automatic "not shown" notes
  LegendPlacement legend = LegendPlacement::right;
  double width_px = 720;
  double height_px = 420;
};

// A value per (row, column) cell: rows are block sizes, columns R/W mixes in the PTS IOPS and
// latency matrices. NaN marks a cell without a value (drawn as an empty cell / no bar).
struct MatrixChart {
  std::string id;
  std::string title;
  std::string subtitle;
  std::string row_axis_label;     // e.g. "Block size"
  std::string column_axis_label;  // e.g. "R/W mix (%R/%W)"
  std::vector<std::string> row_labels;
  std::vector<std::string> column_labels;
  std::vector<std::vector<double>> values;  // values[row][column]
  Axis value_axis;                          // label with unit, linear or log10, optional fixed range
  std::string note;
  double width_px = 720;
  double height_px = 480;
};

}  // namespace ptsuite::report::chart
