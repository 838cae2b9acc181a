// capture_text() and capture_csv(): the characterization as plain text and CSV (report/capture_report.hpp).
#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/report/capture_report.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::report {

namespace {

// A latency in the unit its table (or line) chose (units::latency_unit_for).
std::string capture_lat(double ns, units::LatencyUnit u) {
  return fmt::format("{:.{}f}", units::in_latency_unit(ns, u), units::latency_decimals(u));
}

std::string losses_line(const results::IoCharacterization& c) {
  std::string s = fmt::format("lost events {}, issued but never completed {}, completions without issue {}",
                              c.lost_events, c.unmatched_issues, c.unmatched_completions);
  if (!c.capture_complete) s += "; the capture file has no trailer (its writer was stopped): counts may be low";
  if (c.stop_reason == "device_vanished") s += "; the capture ended because a captured device vanished";
  return s;
}

}  // namespace

std::string capture_text(const results::IoCharacterization& c) {
  std::string out;
  // The header's strings come from the capture file: escaped for the terminal (util/printable.hpp:
  // an escape sequence in a hostile header must not rewrite the screen or the terminal's title).
  out += fmt::format("Capture of {} ({:.1f} GB), started {}, {:.1f} s, source: {}\n", printable(c.device),
                     static_cast<double>(c.capacity_bytes) / 1e9, printable(c.started_utc),
                     static_cast<double>(c.duration_ns) / 1e9, printable(c.source));
  out += fmt::format("IOs {} ({} reads, {} writes, {} other), {:.1f} MB; {:.0f} IOPS, {:.1f} MB/s\n", c.ios, c.read_ios,
                     c.write_ios, c.other_ios, static_cast<double>(c.bytes) / 1e6, c.iops, c.mb_per_s);
  const units::LatencyUnit lu = units::latency_unit_for(
      {c.latency_mean_ns, static_cast<double>(c.latency_p50_ns), static_cast<double>(c.latency_p99_ns),
       static_cast<double>(c.latency_p999_ns), static_cast<double>(c.latency_max_ns)});
  const char* n = units::latency_unit_name(lu);
  out += fmt::format(
      "Queue depth mean {:.2f}, max {}; latency mean {} {}, 50 % {} {}, 99 % {} {}, 99.9 % {} {}, max {} {}\n",
      c.qd_mean, c.qd_max, capture_lat(c.latency_mean_ns, lu), n,
      capture_lat(static_cast<double>(c.latency_p50_ns), lu), n, capture_lat(static_cast<double>(c.latency_p99_ns), lu),
      n, capture_lat(static_cast<double>(c.latency_p999_ns), lu), n,
      capture_lat(static_cast<double>(c.latency_max_ns), lu), n);
  out += "Completeness: " + losses_line(c) + "\n";
  out += fmt::format(
      "\nIO streams ({} in all; {} cover >= 80 % of the IOs; SEQ = starts where one of the last {} "
      "IOs of its direction ended)\n",
      c.streams.size(), c.streams_for_80pct, c.seq_lookback);
  const size_t shown = std::min<size_t>(c.streams.size(), std::max<size_t>(c.streams_for_80pct, 5));
  std::vector<double> stream_means;
  for (size_t i = 0; i < shown; ++i) stream_means.push_back(c.streams[i].latency_mean_ns);
  const units::LatencyUnit su = units::latency_unit_for(std::move(stream_means));
  out += fmt::format("  {:<18} {:>12} {:>8} {:>8} {:>12}\n", "stream", "IOs", "% IOs", "% bytes",
                     fmt::format("mean {}", units::latency_unit_name(su)));
  for (size_t i = 0; i < shown; ++i) {
    const results::IoStreamStats& s = c.streams[i];
    out += fmt::format("  {:<18} {:>12} {:>8.2f} {:>8.2f} {:>12}\n", s.name, s.ios, s.io_share * 100,
                       s.byte_share * 100, capture_lat(s.latency_mean_ns, su));
  }
  if (shown < c.streams.size()) out += fmt::format("  ... {} more streams\n", c.streams.size() - shown);
  out += fmt::format("\nSteps of {:.3g} s from t0 + {:.3f} s (the first IO, or the workload's start){}\n",
                     static_cast<double>(c.step_ns) / 1e9, static_cast<double>(c.origin_ns) / 1e9,
                     !c.steps.empty() && c.steps.back().partial
                         ? fmt::format("; the last one partial ({:.3f} s): its rates are over its own length",
                                       static_cast<double>(c.steps.back().length_ns) / 1e9)
                         : "");
  std::vector<double> step_latencies;
  for (const results::CharacterizationStep& s : c.steps) {
    step_latencies.insert(step_latencies.end(), {s.latency_mean_ns, static_cast<double>(s.latency_p99_ns)});
  }
  const units::LatencyUnit tu = units::latency_unit_for(std::move(step_latencies));
  const char* tn = units::latency_unit_name(tu);
  out += fmt::format("  {:>9} {:>10} {:>10} {:>9} {:>7} {:>5} {:>9} {:>9}\n", "start s", "IOs", "IOPS", "MB/s",
                     "QD mean", "max", fmt::format("mean {}", tn), fmt::format("99 % {}", tn));
  for (const results::CharacterizationStep& s : c.steps) {
    out += fmt::format("  {:>9.1f} {:>10} {:>10.0f} {:>9.1f} {:>7.2f} {:>5} {:>9} {:>9}{}\n",
                       static_cast<double>(s.start_ns - std::min(s.start_ns, c.origin_ns)) / 1e9, s.ios, s.iops,
                       s.mb_per_s, s.qd_mean, s.qd_max, capture_lat(s.latency_mean_ns, tu),
                       capture_lat(static_cast<double>(s.latency_p99_ns), tu), s.partial ? "  partial" : "");
  }
  if (!c.processes.empty()) {
    out += "\nProcesses (submitter at queue time)\n";
    for (size_t i = 0; i < std::min<size_t>(c.processes.size(), 8); ++i) {
      const results::ProcessShare& p = c.processes[i];
      out += fmt::format("  {:>8} {:<16} {:>12} IOs {:>7.2f} %\n", p.pid, printable(p.comm), p.ios, p.io_share * 100);
    }
  }
  return out;
}

std::string capture_csv(const results::IoCharacterization& c) {
  std::string out =
      "step,start_s,length_s,ios,read_ios,write_ios,bytes,iops,mb_per_s,qd_mean,qd_max,latency_mean_ns,"
      "latency_p50_ns,latency_p99_ns,latency_max_ns\n";
  for (size_t i = 0; i < c.steps.size(); ++i) {
    const results::CharacterizationStep& s = c.steps[i];
    out +=
        fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", i, static_cast<double>(s.start_ns) / 1e9,
                    static_cast<double>(s.length_ns) / 1e9, s.ios, s.read_ios, s.write_ios, s.bytes, s.iops, s.mb_per_s,
                    s.qd_mean, s.qd_max, s.latency_mean_ns, s.latency_p50_ns, s.latency_p99_ns, s.latency_max_ns);
  }
  return out;
}

}  // namespace ptsuite::report
