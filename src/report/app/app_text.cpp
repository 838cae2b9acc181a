// app_text() and app_csv(): the application run as plain text and CSV (report/app_report.hpp).
#include <fmt/format.h>
#include <cmath>
#include <vector>

#include <ptsuite/report/app_report.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::report {

namespace {

// A latency in the unit its table (or line) chose (units::latency_unit_for).
std::string app_lat(double ns, units::LatencyUnit u) {
  return fmt::format("{:.{}f}", units::in_latency_unit(ns, u), units::latency_decimals(u));
}
std::string app_lat(uint64_t ns, units::LatencyUnit u) { return app_lat(static_cast<double>(ns), u); }

std::vector<double> latencies_of(const results::AppLatency& l) {
  return {l.mean_ns,
          l.stddev_ns,
          static_cast<double>(l.p95_ns),
          static_cast<double>(l.p99_ns),
          static_cast<double>(l.p999_ns),
          static_cast<double>(l.max_ns)};
}

std::string instance_line(const results::AppInstanceResult& r, const std::string& name, units::LatencyUnit u) {
  return fmt::format("  {:<14} {:>10.1f} {:>10.1f} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}   {}\n", name, r.tps,
                     r.qps, r.transactions, app_lat(r.latency.mean_ns, u), app_lat(r.latency.stddev_ns, u),
                     app_lat(r.latency.p95_ns, u), app_lat(r.latency.p99_ns, u), app_lat(r.latency.p999_ns, u),
                     app_lat(r.latency.max_ns, u), r.target);
}

std::string app_csv_number(double v) { return std::isfinite(v) ? fmt::format("{}", v) : ""; }

}  // namespace

std::string app_text(const results::AppRun& run) {
  std::string out = fmt::format("{} ({}): {}\n", run.title, run.app, run.status);
  if (!run.error.empty()) out += "error: " + run.error + "\n";
  out += fmt::format("server: {}; driver: {}\n", run.server_version, run.driver_version);
  out +=
      fmt::format("target: {} ({}), {} mounted {}\n", run.target, run.target_kind, run.filesystem, run.mount_options);
  out += fmt::format(
      "memory: server cache {:.0f} MB, cgroup limit {:.0f} MB ({}); database {:.0f} MB = {:.1f}x the "
      "cache budget (required {:.0f}x)\n",
      static_cast<double>(run.server_cache_bytes) / 1e6, static_cast<double>(run.memory_limit_bytes) / 1e6,
      run.memory_limit_mechanism, static_cast<double>(run.data_bytes) / 1e6, run.data_to_memory_ratio,
      run.required_ratio);
  std::vector<double> values;
  for (const results::AppInstanceResult& r : run.instances) {
    const std::vector<double> v = latencies_of(r.latency);
    values.insert(values.end(), v.begin(), v.end());
  }
  const units::LatencyUnit unit = units::latency_unit_for(std::move(values));
  out += fmt::format("\nApplication (transaction latency in {}, as the driver measured it{})\n",
                     units::latency_unit_name(unit),
                     run.instances.empty() || run.instances.front().latency.source.empty()
                         ? ""
                         : ": " + run.instances.front().latency.source);
  out += fmt::format("  {:<14} {:>10} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}   {}\n", "instance", "TPS",
                     "QPS", "txns", "mean", "stddev", "95 %", "99 %", "99.9 %", "max", "target");
  for (const results::AppInstanceResult& r : run.instances) {
    out += instance_line(r, std::to_string(r.index + 1), unit);
  }
  if (run.instances.size() > 1) out += instance_line(run.aggregate, "aggregate", unit);
  if (run.characterization) {
    const results::IoCharacterization& c = *run.characterization;
    out += fmt::format("\nDevice during the measured period (capture {})\n", run.capture_file);
    const units::LatencyUnit du = units::latency_unit_for(
        {c.latency_mean_ns, static_cast<double>(c.latency_p99_ns), static_cast<double>(c.latency_max_ns)});
    const char* n = units::latency_unit_name(du);
    out += fmt::format(
        "  {:.0f} IOPS, {:.1f} MB/s, {:.1f} % reads; queue depth mean {:.2f}, max {}; latency mean {} "
        "{}, 99 % {} {}, max {} {}\n",
        c.iops, c.mb_per_s, c.ios > 0 ? 100.0 * static_cast<double>(c.read_ios) / static_cast<double>(c.ios) : 0.0,
        c.qd_mean, c.qd_max, app_lat(c.latency_mean_ns, du), n, app_lat(c.latency_p99_ns, du), n,
        app_lat(c.latency_max_ns, du), n);
    out += fmt::format("  {} IO streams, {} cover 80 % of the IOs:", c.streams.size(), c.streams_for_80pct);
    for (size_t i = 0; i < c.streams_for_80pct && i < c.streams.size(); ++i) {
      out += fmt::format(" {} {:.1f} %{}", c.streams[i].name, c.streams[i].io_share * 100,
                         i + 1 < c.streams_for_80pct ? "," : "");
    }
    out += fmt::format("\n  lost events {}, unmatched {} / {}\n", c.lost_events, c.unmatched_issues,
                       c.unmatched_completions);
  } else {
    out += fmt::format("\nDevice: not captured ({})\n", run.capture_unavailable);
  }
  return out;
}

std::string app_csv(const results::AppRun& run) {
  std::string out = "app,instance,target,end_s,tps,qps,latency_mean_ms,latency_p99_ms,errors_per_s\n";
  for (const results::AppInstanceResult& r : run.instances) {
    for (const results::AppInterval& i : r.series) {
      out += fmt::format("{},{},{},{},{},{},{},{},{}\n", run.app, r.index + 1, r.target, i.end_s, i.tps, i.qps,
                         app_csv_number(i.latency_mean_ms), app_csv_number(i.latency_p99_ms), i.errors_per_s);
    }
  }
  return out;
}

}  // namespace ptsuite::report
