// The figures of an app phase (results/scenario.hpp's `app`: the application's run as `ptsuite
// app` records it) that the scenario HTML, summary.txt and CSV print: per instance (its target)
// and, with several, for all of them, the application's TPS (QPS for sysbench), transactions and
// failures and its transaction latency (mean, stddev, 95 / 99 / 99.9 %, max); and the device's
// figures from the capture of the measured period (IOPS, MB/s, queue depth, IO latency). Private
// to report/scenario; header-only (inline), included by scenario_html, scenario_text and
// scenario_csv.
#pragma once

#include <fmt/format.h>
#include <cmath>
#include <string>
#include <vector>

#include <ptsuite/results/scenario.hpp>
#include <ptsuite/util/units.hpp>

#include "report/scenario/scenario_rows.hpp"

namespace ptsuite::report::scenario_detail {

struct AppRow {
  std::string scope;  // "target 1" (instance 1's), "all (aggregate)"
  const results::AppInstanceResult* result = nullptr;
};

// The latency columns of an app row: (heading, value in ns).
struct AppLatencyColumn {
  const char* heading;
  double (*value_ns)(const results::AppLatency&);
};

// ns in `unit` ("12.345" ms, "78.1" us); "-" when absent.
inline std::string app_latency_in(double ns, units::LatencyUnit unit) {
  return std::isfinite(ns) ? fmt::format("{:.{}f}", units::in_latency_unit(ns, unit), units::latency_decimals(unit))
                           : "-";
}

inline const AppLatencyColumn k_app_latency_columns[6] = {
    {"Mean", [](const results::AppLatency& l) { return l.mean_ns; }},
    {"StdDev", [](const results::AppLatency& l) { return l.stddev_ns; }},
    {"95 %", [](const results::AppLatency& l) { return static_cast<double>(l.p95_ns); }},
    {"99 %", [](const results::AppLatency& l) { return static_cast<double>(l.p99_ns); }},
    {"99.9 %", [](const results::AppLatency& l) { return static_cast<double>(l.p999_ns); }},
    {"Max", [](const results::AppLatency& l) { return static_cast<double>(l.max_ns); }},
};

// One row per instance (named by the target it ran on), then the aggregate when there are several; empty without an app
// record.
inline std::vector<AppRow> app_rows(const results::PhaseRecord& phase) {
  std::vector<AppRow> out;
  if (!phase.app) return out;
  for (const results::AppInstanceResult& i : phase.app->instances) {
    out.push_back({target_name(phase.app_target(i.index)), &i});
  }
  if (phase.app->instances.size() > 1) out.push_back({"all (aggregate)", &phase.app->aggregate});
  return out;
}

// "pgbench-tpcc: postgres (PostgreSQL) 15.20 + pgbench (PostgreSQL) 15.20, completed; database
// 180 MB per instance, 4.3x the cache budget (required 4x)" - what ran and how it ended.
inline std::string app_line(const results::AppRun& run) {
  std::string out =
      fmt::format("{}: {} + {}, {}", run.app, run.server_version.empty() ? run.server : run.server_version,
                  run.driver_version.empty() ? run.driver : run.driver_version, run.status);
  if (!run.error.empty()) out += " (" + run.error + ")";
  if (run.data_bytes > 0) {
    out += fmt::format("; database {:.0f} MB per instance, {:.1f}x the cache budget (required {:.0f}x)",
                       static_cast<double>(run.data_bytes) / 1e6, run.data_to_memory_ratio, run.required_ratio);
  }
  return out;
}

// "device (capture of the measured period, /dev/loop3): 1234 IOPS, 12.3 MB/s, QD 2.1 mean / 8
// max, IO latency mean 312.0 / 99 % 1200.5 / 99.9 % ... / max ... us" or why there is none.
inline std::string app_device_line(const results::AppRun& run) {
  if (!run.characterization) {
    return "device: not captured" + (run.capture_unavailable.empty() ? "" : " (" + run.capture_unavailable + ")");
  }
  const results::IoCharacterization& c = *run.characterization;
  const units::LatencyUnit u = units::latency_unit_for(
      {c.latency_mean_ns, static_cast<double>(c.latency_p99_ns), static_cast<double>(c.latency_max_ns)});
  return fmt::format(
      "device (capture of the measured period, {}): {:.0f} IOPS, {:.1f} MB/s, QD {:.1f} mean / {} max, IO latency "
      "mean {} / 99 % {} / 99.9 % {} / max {} {}",
      c.device, c.iops, c.mb_per_s, c.qd_mean, c.qd_max, app_latency_in(c.latency_mean_ns, u),
      app_latency_in(static_cast<double>(c.latency_p99_ns), u),
      app_latency_in(static_cast<double>(c.latency_p999_ns), u),
      app_latency_in(static_cast<double>(c.latency_max_ns), u), units::latency_unit_name(u));
}

}  // namespace ptsuite::report::scenario_detail
