// Contract: the chart kinds of the PTS report pages (../shared/reference/pts-spec.md §3), as
// builders that fill a Chart / MatrixChart with the conventions of those pages: which axis is
// log, which reference lines are drawn, how series are styled. They only arrange numbers the
// caller already has from results.json (averages, fits and percentiles are inputs, never
// computed here). Callers may adjust the returned model (size, id, note) before rendering it
// with render.hpp. Pure functions.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <ptsuite/report/chart/model.hpp>

namespace ptsuite::report::chart {

struct NamedSeries {
  std::string name;  // legend entry, e.g. "4KiB", "TC 32", "65/35"
  std::vector<Point> points;
};

struct Titles {
  std::string title;
  std::string subtitle;
  std::string id;  // optional element-id prefix (model.hpp)
};

// A value marked on a chart: "ART", "99.999 %", "MRT" at a latency; "Max IOPS" ...
struct Marker {
  std::string label;
  double value = 0;
};

// SS convergence: a tracking variable vs round, one series per block size (or per mix).
// x: "Round", integer ticks; y: `y_label`, linear from zero.
Chart convergence_chart(const Titles& titles, const std::string& y_label, const std::vector<NamedSeries>& series);

// SS measurement window: the window's points, their average, the data-excursion band (from the
// results: average +- half the allowed excursion, 90 % .. 110 % with the PTS 20 %; shaded, and
// left out when not finite) and the least-squares line y = slope * round + intercept drawn
// across the window.
struct MeasurementWindow {
  std::string y_label;        // e.g. "IOPS"
  std::string variable_name;  // legend entry of the points, e.g. "IOPS (RND 4KiB 0/100)"
  std::vector<Point> points;  // x = round number, y = tracking value
  double average = 0;
  double slope = 0;                 // of the least-squares fit, y units per round
  double intercept = 0;             // at round 0
  std::string fit_formula;          // shown in the legend, e.g. "-6.4·R + 11746"
  double band_low = std::nan("");   // e.g. 90 % of the average
  double band_high = std::nan("");  // e.g. 110 % of the average
  std::string band_low_label;       // "90% × average"
  std::string band_high_label;      // "110% × average"
};
Chart measurement_window_chart(const Titles& titles, const MeasurementWindow& window);

// Grouped bars over categories (e.g. IOPS per block size, one series per R/W mix). Each
// series' point i holds the value of category i in its y (x is ignored and set to i).
Chart grouped_bar_chart(const Titles& titles, const std::string& category_label,
                        const std::vector<std::string>& categories, const std::string& y_label,
                        const std::vector<NamedSeries>& series, ScaleKind y_scale);

// A metric vs block size on a log x axis with the block sizes as ticks, labelled in binary
// units ("0.5KiB" ... "1MiB"); x values are bytes. One line per series (e.g. per R/W mix).
Chart block_size_chart(const Titles& titles, const std::string& y_label, const std::vector<NamedSeries>& series,
                       ScaleKind y_scale);

// A dense time series (WSAT IOPS vs time / TGBW / drive fills, XSR throughput vs time):
// thin markers, one look per series, linear or log y.
Chart time_series_chart(const Titles& titles, const std::string& x_label, const std::string& y_label,
                        const std::vector<NamedSeries>& series, ScaleKind y_scale);

// Response-time histogram: bins on a log time axis (counts linear or log), with vertical
// markers (ART, 99.9 % ... 99.999 %, MRT) labelled at their lines.
Chart histogram_chart(const Titles& titles, const std::string& x_label, const std::vector<Bin>& bins,
                      const std::vector<Marker>& markers, ScaleKind count_scale);

// Confidence-level plot: cumulative percentage of IOs (y, nines scale: 90, 99, 99.9 ... %)
// vs response time (x, log), with each marker's latency as a labelled vertical line and its
// level as a horizontal guide. `cumulative`: x = response time, y = cumulative percent.
struct ConfidenceMarker {
  std::string label;   // e.g. "5 nines (99.999%)"
  double percent = 0;  // e.g. 99.999
  double latency = 0;  // response time reached at that level, x units
};
Chart confidence_level_chart(const Titles& titles, const std::string& x_label, const std::vector<Point>& cumulative,
                             const std::vector<ConfidenceMarker>& markers);

// CBW/DIRTH demand variation: IOPS vs queue depth, one series per thread count; the QDs are
// the x ticks on a log2-spaced (log10) axis.
Chart demand_variation_chart(const Titles& titles, const std::vector<NamedSeries>& per_thread_count);

// CBW/DIRTH demand intensity: average response time (log y) vs IOPS, one series per thread
// count, optional horizontal markers (e.g. the response-time ceiling of MaxIOPS).
Chart demand_intensity_chart(const Titles& titles, const std::string& y_label,
                             const std::vector<NamedSeries>& per_thread_count, const std::vector<Marker>& ceilings);

// The IOPS / latency matrix (rows: block sizes, columns: R/W mixes) for render_isometric_bars
// or render_heatmap.
MatrixChart matrix_chart(const Titles& titles, const std::vector<std::string>& row_labels,
                         const std::vector<std::string>& column_labels, const std::vector<std::vector<double>>& values,
                         const std::string& value_label, ScaleKind value_scale);

}  // namespace ptsuite::report::chart
