// SeriesPlan: which series a multi-target scenario chart draws (scenario_charts.hpp), and the
// report options that choose it (scenario_report.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>

#include <ptsuite/results/scenario_document.hpp>
#include <ptsuite/util/error.hpp>

#include "report/scenario/scenario_charts.hpp"

namespace ptsuite::report {

using nlohmann::json;

// Up to this many plotted targets the automatic choice draws every drive and the aggregate;
// above it the aggregate and the drives' min/max (8 drives x 2 statistics would be 16 series).
constexpr size_t k_auto_drive_limit = 4;

ScenarioReportOptions scenario_report_options(const results::ScenarioDocument& doc) {
  return {doc.report.series, doc.report.plot_targets, doc.report.compact};
}

json scenario_report_options_json(const ScenarioReportOptions& o) {
  return json{
      {"series", o.series.empty() ? "auto" : o.series}, {"plot_targets", o.plot_targets}, {"compact", o.compact}};
}

std::vector<uint32_t> parse_plot_targets(const std::string& text, const std::string& what) {
  std::vector<uint32_t> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    uint32_t v = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() || v == 0) {
      throw UsageError(what,
                       fmt::format("\"{}\" is not a list of target numbers such as 1,5 (targets count from 1)", text));
    }
    // People number targets from 1 (as every report does); the options hold 0-based indexes.
    if (std::find(out.begin(), out.end(), v - 1) == out.end()) out.push_back(v - 1);
    start = comma + 1;
  }
  return out;
}

void check_scenario_report_options(const ScenarioReportOptions& o, size_t targets, const std::string& what) {
  if (!o.series.empty() && o.series != "auto" && o.series != "aggregate" && o.series != "drives" &&
      o.series != "both") {
    throw UsageError(what, fmt::format("report.series \"{}\" is not one of aggregate, drives, both", o.series));
  }
  for (const uint32_t t : o.plot_targets) {
    if (t >= targets) {
      throw UsageError(what,
                       fmt::format("--plot-targets names target {}, but the run has targets 1 to {}", t + 1, targets));
    }
  }
}

namespace scenario_detail {

SeriesPlan series_plan(const ScenarioReportOptions& o, size_t targets) {
  SeriesPlan plan;
  plan.targets = targets;
  std::vector<uint32_t> chosen = o.plot_targets;
  if (chosen.empty()) {
    for (uint32_t t = 0; t < targets; ++t) chosen.push_back(t);
  }
  if (targets <= 1) {  // one target: its series is the aggregate
    plan.drives = chosen;
    return plan;
  }
  std::string mode = o.series == "auto" ? "" : o.series;
  if (mode.empty()) mode = chosen.size() <= k_auto_drive_limit ? "both" : "aggregate";
  if (mode == "drives" || mode == "both") plan.drives = chosen;
  if (mode == "aggregate" || mode == "both") plan.aggregate = true;
  if (mode == "aggregate" && chosen.size() >= 2) plan.band = chosen;
  return plan;
}

std::string plan_text(const SeriesPlan& plan) {
  if (plan.targets <= 1) return "";
  std::vector<std::string> parts;
  const auto numbers = [](const std::vector<uint32_t>& indexes) {  // as people number them, from 1
    std::vector<uint32_t> out;
    for (const uint32_t i : indexes) out.push_back(i + 1);
    return out;
  };
  if (!plan.drives.empty()) {
    parts.push_back(fmt::format("target {} one series each", fmt::join(numbers(plan.drives), ", ")));
  }
  if (plan.aggregate) parts.push_back("\"all\": the group (IOPS summed, latency from the merged histograms)");
  if (!plan.band.empty()) {
    parts.push_back(fmt::format("dashed: the minimum and maximum of targets {}", fmt::join(numbers(plan.band), ", ")));
  }
  return fmt::format(" Series: {} (report.series; every target is in the table).", fmt::join(parts, "; "));
}

}  // namespace scenario_detail

}  // namespace ptsuite::report
