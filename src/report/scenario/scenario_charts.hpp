// The charts of a scenario phase (scenario_report.hpp lists them per kind), with the series a
// multi-target chart draws chosen by a SeriesPlan (report.series, --plot-targets). Private to
// report/scenario.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <ptsuite/report/chart/model.hpp>
#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/results/scenario.hpp>

namespace ptsuite::report::scenario_detail {

struct SeriesPlan {
  std::vector<uint32_t> drives;  // targets drawn one series each (empty: none)
  bool aggregate = false;        // the group's series
  std::vector<uint32_t> band;    // targets whose minimum and maximum are drawn (empty: none)
  size_t targets = 1;            // targets in the document
};

SeriesPlan series_plan(const ScenarioReportOptions& o, size_t targets);
// "target 1, 2 and 3 drawn one series each; ..." for the caption of every multi-target chart.
std::string plan_text(const SeriesPlan& plan);

struct PhaseChart {
  chart::Chart chart;
  std::string caption;
};

// A chart with the report's defaults (id, titles, y from zero, the plot height every scenario
// chart keeps), and the finishing touch every one gets: a legend of more than four entries
// under the plot (the chart grows) and the series plan in the caption.
chart::Chart scenario_chart(const std::string& id, const std::string& title, const std::string& x,
                            const std::string& y);
PhaseChart finish_chart(chart::Chart c, std::string caption, const SeriesPlan& plan);

// The time charts of a phase with interval series: IOPS and the average response time over the
// phase's time (its steps one after the other), per stream; the tail interval of an instance
// shorter than half the period is not drawn (a rate over a few ms) and the charts say so.
void interval_charts(const results::PhaseRecord& p, const std::string& id, const SeriesPlan& plan,
                     std::vector<PhaseChart>& out);
// Several stream instances in one step (noisy neighbour): mean / 99 / 99.9 / 99.99 % read bars.
void instance_bars(const results::PhaseRecord& p, const std::string& id, std::vector<PhaseChart>& out);

std::vector<PhaseChart> phase_charts(const results::PhaseRecord& phase, const std::string& id, const SeriesPlan& plan);

}  // namespace ptsuite::report::scenario_detail
