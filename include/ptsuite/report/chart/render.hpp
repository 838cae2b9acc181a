// Contract: chart model (model.hpp) -> standalone SVG string. Pure functions of their input:
// thread-safe, no IO, no locale, no clock; the same model renders to the same bytes.
//
//   render_svg            x/y plots: line, line+markers, scatter, grouped bars, histograms,
//                         with reference lines, shaded bands, annotations and a legend
//   render_isometric_bars the IOPS / latency matrix as isometric 3D bars (rows x columns)
//   render_heatmap        the same matrix as shaded cells with the value printed in each
//                         cell and a colour scale
//
// Values that cannot be drawn are skipped and counted in a footnote (docs/charts.md). An
// empty chart still renders its frame, axes and a "No data" mark. Output structure that
// tests and reporters may rely on: the root is <svg class="ptsuite-chart" id="ID">; each
// series is a <g class="series" data-series="NAME">; every data marker carries class="pt",
// every bar class="bar", every histogram bin class="bin", every 3D bar group class="bar3d",
// every heat-map cell class="cell"; legend entries are <g class="legend-entry">.
#pragma once

#include <string>

#include <ptsuite/report/chart/model.hpp>

namespace ptsuite::report::chart {

std::string render_svg(const Chart& chart);

// Puts the legend under the plot and grows `chart.height_px` by the legend's height (its rows
// at the chart's width), so that many series (8 drives x several statistics) never squeeze the
// plot: the plot keeps the height it had with `legend_rows_kept` legend rows. Returns the rows.
size_t place_legend_below(Chart& chart, size_t legend_rows_kept = 1);
std::string render_isometric_bars(const MatrixChart& chart);
std::string render_heatmap(const MatrixChart& chart);

}  // namespace ptsuite::report::chart
