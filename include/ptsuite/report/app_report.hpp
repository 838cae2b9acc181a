// Contract: the reports of an application run (results/app_run.hpp, docs/app.md), rendered from
// the typed record only:
//   app_text()  summary.txt: the application's figures per instance and in aggregate (TPS,
//               QPS, latency mean / stddev / 95 / 99 / 99.9 % / max), the device's (IOPS,
//               MB/s, QD, latency from the capture), the memory budget, and the status
//   app_html()  report.html. Its FIRST page puts the application next to the device: a table
//               of TPS and latency beside device IOPS, MB/s, queue depth and latency, and the
//               TPS per second over the device IOPS and queue depth per step on the same time
//               axis; then the run's settings, versions and phases, then the capture's pages
//               (report/capture_report.hpp)
//   app_csv()   app.csv: one row per instance and progress interval (TPS, QPS, latency)
// Pure functions of the record.
#pragma once

#include <string>

#include <ptsuite/results/app_run.hpp>

namespace ptsuite::report {

std::string app_text(const results::AppRun& run);
std::string app_html(const results::AppRun& run);
std::string app_csv(const results::AppRun& run);

}  // namespace ptsuite::report
