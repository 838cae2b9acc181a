// app_text() and app_csv(): the application run as plain text and CSV (report/app_report.hpp).
#include <fmt/format.h>
#include <cmath>

#include <ptsuite/report/app_report.hpp>

namespace ptsuite::report {

namespace {

std::string app_ms(double ns) { return fmt::format("{:.3f}", ns / 1e6); }
std::string app_ms(uint64_t ns) { return app_ms(static_cast<double>(ns)); }

std::string instance_line(const results::AppInstanceResult& r, const std::string& name) {
  return fmt::format("  {:<14} {:>10.1f} {:>10.1f} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}   {}\n", name, r.tps,
                     r.qps, r.transactions, app_ms(r.latency.mean_ns), app_ms(r.latency.stddev_ns),
                     app_ms(r.latency.p95_ns), app_ms(r.latency.p99_ns), app_ms(r.latency.p999_ns),
                     app_ms(r.latency.max_ns), r.target);
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
  out += fmt::format("\nApplication (transaction latency in ms, as the driver measured it{})\n",
                     run.instances.empty() || run.instances.front().latency.source.empty()
                         ? ""
                         : ": " + run.instances.front().latency.source);
  out += fmt::format("  {:<14} {:>10} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}   {}\n", "instance", "TPS",
                     "QPS", "txns", "mean", "stddev", "95 %", "99 %", "99.9 %", "max", "target");
  for (const results::AppInstanceResult& r : run.instances) out += instance_line(r, std::to_string(r.index));
  if (run.instances.size() > 1) out += instance_line(run.aggregate, "aggregate");
  if (run.characterization) {
    const results::IoCharacterization& c = *run.characterization;
    out += fmt::format("\nDevice during the measured period (capture {})\n", run.capture_file);
    out += fmt::format(
        "  {:.0f} IOPS, {:.1f} MB/s, {:.1f} % reads; queue depth mean {:.2f}, max {}; latency mean {} "
        "ms, 99 % {} ms, max {} ms\n",
        c.iops, c.mb_per_s, c.ios > 0 ? 100.0 * static_cast<double>(c.read_ios) / static_cast<double>(c.ios) : 0.0,
        c.qd_mean, c.qd_max, app_ms(c.latency_mean_ns), app_ms(c.latency_p99_ns), app_ms(c.latency_max_ns));
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
      out += fmt::format("{},{},{},{},{},{},{},{},{}\n", run.app, r.index, r.target, i.end_s, i.tps, i.qps,
                         app_csv_number(i.latency_mean_ms), app_csv_number(i.latency_p99_ms), i.errors_per_s);
    }
  }
  return out;
}

}  // namespace ptsuite::report
