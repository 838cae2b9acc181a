// Contract: the reports of a scenario run, rendered from its results document only
// (kind "ptsuite.scenario"; scenario/scenario_runner.hpp), read through the typed records of
// results/scenario.hpp:
//   scenario_text()  the plain summary: per step, target scope and direction IOPS, MB/s and the
//                    response times mean, stddev, 99 / 99.9 / 99.99 % and max (ms)
//   scenario_csv()   the same rows with every statistic the document holds, one CSV file
//                    (one row per step x scope x direction; scope = a target, the aggregate or a
//                    stream instance)
//   scenario_html()  the self-contained HTML report: an intro page (targets, ptsuite's choices),
//                    then per phase its charts and its step table, on as many pages as they
//                    need. Tables split across pages with their header repeated and say which
//                    rows each page holds; charts keep their size (a long legend goes under the
//                    plot and the chart grows); nothing is cut. Charts per phase kind:
//     txq          IOPS, mean, 99 %, max and stddev response time vs TC x QD
//     rate_ramp    the load curve: mean response time vs achieved IOPS
//     rate_steps   the reads' mean, 99 % and 99.9 % response time vs the stepped rate
//     steady_state the tracked variable and the mean response time per Round
//     run          with several stream instances: mean / 99 / 99.9 / 99.99 % read latency bars
//     any phase with interval series: IOPS, and mean / 99 % response time, over time (the tail
//                  interval shorter than half the period is left out of the charts and counted)
//   Which series a multi-target chart draws (ScenarioReportOptions, "report.series"):
//     drives     one series per plotted target
//     aggregate  the group's series (IOPS summed, latency from the merged histograms) and, with
//                two or more targets, the plotted targets' minimum and maximum (dashed)
//     both       both of the above
//     "" (auto)  both for up to 4 plotted targets, aggregate above
//   plot_targets picks the targets drawn (0-based indexes; parse_plot_targets() reads the numbers
//   people give and the report prints, "target 1", ..., from 1);
//   empty = all. Tables always hold every target.
// Pure functions of the document; UsageError from check_scenario_report_options for a bad
// series name or a target the document does not have.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <ptsuite/results/scenario_document.hpp>

namespace ptsuite::report {

struct ScenarioReportOptions {
  std::string series;                  // "", "aggregate", "drives", "both"
  std::vector<uint32_t> plot_targets;  // empty = all
  // --compact: the HTML and text step tables hold the aggregate rows only (with one target, its
  // rows) and no stream-instance table; scenario.csv keeps every target and stream instance.
  bool compact = false;
};

// The options stored in the document ("report": {"series", "plot_targets"}), else defaults.
ScenarioReportOptions scenario_report_options(const results::ScenarioDocument& doc);
// "1,5" (targets as people number them, from 1) -> {0, 4}; UsageError naming `what` for 0 or
// anything that is no number.
std::vector<uint32_t> parse_plot_targets(const std::string& text, const std::string& what);
// UsageError unless `series` is one of the names and every plotted target is below `targets`.
void check_scenario_report_options(const ScenarioReportOptions& o, size_t targets, const std::string& what);
// The options as the document stores them.
nlohmann::json scenario_report_options_json(const ScenarioReportOptions& o);

std::string scenario_text(const results::ScenarioDocument& doc);
std::string scenario_text(const results::ScenarioDocument& doc, const ScenarioReportOptions& options);
std::string scenario_csv(const results::ScenarioDocument& doc);
std::string scenario_html(const results::ScenarioDocument& doc);
std::string scenario_html(const results::ScenarioDocument& doc, const ScenarioReportOptions& options);

}  // namespace ptsuite::report
