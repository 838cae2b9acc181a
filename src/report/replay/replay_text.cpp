// replay_text() and replay_csv(): a replay as plain text and CSV (report/replay_report.hpp).
#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/report/replay_report.hpp>
#include <ptsuite/util/printable.hpp>

#include "report/replay/replay_sections.hpp"

namespace ptsuite::report {

namespace {

std::string us(uint64_t ns) { return fmt::format("{:.1f}", static_cast<double>(ns) / 1e3); }

// A table's latency unit, by its largest value: us below 1 ms (one decimal), else ms (three).
struct TextUnit {
  const char* name;
  double divisor;
  int decimals;
  [[nodiscard]] std::string operator()(double ns) const { return fmt::format("{:.{}f}", ns / divisor, decimals); }
  [[nodiscard]] std::string operator()(uint64_t ns) const { return (*this)(static_cast<double>(ns)); }
};
TextUnit text_unit(uint64_t largest_ns) {
  return largest_ns >= 1'000'000 ? TextUnit{"ms", 1e6, 3} : TextUnit{"us", 1e3, 1};
}

// Per step and direction: IOPS, mean, stddev, 99 / 99.9 / 99.99 % and max.
std::string step_latency_text(const results::ReplayRecord& r) {
  uint64_t largest = 0;
  for (const results::ReplayStep& s : r.steps) {
    if (s.latency) largest = std::max(largest, s.latency->combined.max_ns);
  }
  const TextUnit u = text_unit(largest);
  std::string out = fmt::format("\nResponse time of the replayed IOs per step ({}; submit to completion)\n", u.name);
  out += fmt::format("  {:>4} {:>5} {:>9} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n", "step", "dir", "IOPS", "mean",
                     "stddev", "99 %", "99.9 %", "99.99 %", "max");
  for (size_t k = 0; k < r.steps.size(); ++k) {
    if (!r.steps[k].latency) continue;
    for (const replay_detail::DirectionRow& d : replay_detail::directions_of(*r.steps[k].latency)) {
      const results::ReplayDirectionLatency& f = *d.figures;
      out += fmt::format("  {:>4} {:>5} {:>9.0f} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n", k + 1, d.label, f.iops,
                         u(f.mean_ns), u(f.stddev_ns), u(f.p99_ns), u(f.p99_9_ns), u(f.p99_99_ns), u(f.max_ns));
    }
  }
  return out;
}

std::string ramp_text(const results::ReplayRamp& ramp) {
  uint64_t largest = 0;
  for (const results::RampPoint& p : ramp.points) largest = std::max(largest, p.latency.combined.max_ns);
  const TextUnit u = text_unit(largest);
  std::string out = fmt::format("\nRate ramp (limit = the {}'s {:.0f} IOPS; the capture's mean rate {:.1f} IOPS; {})\n",
                                ramp.limit_source, ramp.limit_iops, ramp.capture_iops, u.name);
  out += fmt::format("  {:>7} {:>9} {:>9} {:>10} {:>10} {:>10} {:>10} {}\n", "rate %", "asked", "IOPS", "mean", "99 %",
                     "99.9 %", "max", "");
  for (const results::RampPoint& p : ramp.points) {
    const results::ReplayDirectionLatency& f = p.latency.combined;
    out += fmt::format("  {:>7g} {:>9.0f} {:>9.0f} {:>10} {:>10} {:>10} {:>10} {}\n", p.percent, p.target_iops, f.iops,
                       u(f.mean_ns), u(f.p99_ns), u(f.p99_9_ns), u(f.max_ns),
                       p.steps_fell_behind > 0
                           ? fmt::format("could not keep up in {} of {} steps", p.steps_fell_behind, p.steps)
                           : "");
  }
  return out;
}

}  // namespace

bool sizes_reproduced(const results::ReplayStep& s) { return s.captured.sizes == s.replayed.sizes; }

std::string replay_text(const results::ReplayRecord& r) {
  std::string out;
  // The capture's strings come from its file: escaped for the terminal (util/printable.hpp).
  out += fmt::format("Replay of {} (device {}, source: {}{})\n", printable(r.capture_file), printable(r.capture_device),
                     printable(r.capture_source), r.capture_complete ? "" : "; capture without trailer");
  out += fmt::format("on {} ({:.1f} GB{}), engine {}, {} loop, speed {}x, {} queue slots\n", printable(r.target),
                     static_cast<double>(r.target_capacity_bytes) / 1e9,
                     r.target_note.empty() ? "" : "; " + printable(r.target_note), r.engine, r.mode, r.speed,
                     r.queue_slots);
  out += fmt::format(
      "IOs: {} captured, {} replayed, {} skipped (not read/write), {} remapped into the target, {} lengths rounded "
      "up; {:.2f} s\n",
      r.capture_ios, r.replayed_ios, r.skipped_ios, r.remapped_ios, r.resized_ios,
      static_cast<double>(r.duration_ns) / 1e9);
  if (r.mode == "open") {
    out += fmt::format(
        "Issue-time error (replayed - scheduled): p50 {} us, p99 {} us, max {} us; {} of {} steps "
        "could not keep up\n",
        us(r.issue_error_p50_ns), us(r.issue_error_p99_ns), us(r.issue_error_max_ns), r.steps_fell_behind,
        r.steps.size());
  }
  if (r.latency) {
    out += "Response time of the replayed IOs (submit to completion):\n";
    for (const replay_detail::DirectionRow& d : replay_detail::directions_of(*r.latency)) {
      out += "  " + replay_detail::latency_line(*d.figures, d.label, true) + "\n";
    }
  }
  out += "Settings (ptsuite's, not RWSW values):\n";
  for (const results::ReplaySetting& s : r.settings) out += fmt::format("  {} = {}  ({})\n", s.name, s.value, s.note);
  out += fmt::format("\nPer step of {:.3g} s (captured -> replayed{})\n", static_cast<double>(r.step_ns) / 1e9,
                     r.mode == "open" && r.speed != 1 ? fmt::format("; expected replay = captured x {}", r.speed) : "");
  out += fmt::format("  {:>4} {:>19} {:>17} {:>13} {:>13} {:>5} {:>24} {}\n", "step", "IOPS", "MB/s", "read %",
                     "outstanding", "sizes", "issue error us p50/p99/max", "");
  for (size_t k = 0; k < r.steps.size(); ++k) {
    const results::ReplayStep& s = r.steps[k];
    out += fmt::format(
        "  {:>4} {:>9.0f} {:>9.0f} {:>8.1f} {:>8.1f} {:>6.1f} {:>6.1f} {:>6.2f} {:>6.2f} {:>5} {:>24} {}\n", k + 1,
        s.captured.iops, s.replayed.iops, s.captured.mb_per_s, s.replayed.mb_per_s, s.captured.read_pct,
        s.replayed.read_pct, s.captured.outstanding_mean, s.replayed.outstanding_mean,
        sizes_reproduced(s) ? "same" : "DIFF",
        r.mode == "open"
            ? fmt::format("{}/{}/{}", us(s.issue_error_p50_ns), us(s.issue_error_p99_ns), us(s.issue_error_max_ns))
            : "-",
        s.fell_behind ? "could not keep up" : "");
  }
  out += step_latency_text(r);
  if (r.ramp) out += ramp_text(*r.ramp);
  if (r.stop_reason != "complete") {
    out += fmt::format("\nStopped: {}{}\n", r.stop_reason, r.error.empty() ? "" : ": " + r.error);
  }
  return out;
}

std::string replay_csv(const results::ReplayRecord& r) {
  std::string out =
      "step,start_s,length_s,captured_ios,replayed_ios,captured_iops,replayed_iops,captured_mb_per_s,"
      "replayed_mb_per_s,captured_read_pct,replayed_read_pct,captured_outstanding_mean,replayed_outstanding_mean,"
      "issue_error_p50_ns,issue_error_p99_ns,issue_error_max_ns,fell_behind,sizes_reproduced\n";
  for (size_t i = 0; i < r.steps.size(); ++i) {
    const results::ReplayStep& s = r.steps[i];
    out +=
        fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", i, static_cast<double>(s.start_ns) / 1e9,
                    static_cast<double>(s.length_ns) / 1e9, s.captured.ios, s.replayed.ios, s.captured.iops,
                    s.replayed.iops, s.captured.mb_per_s, s.replayed.mb_per_s, s.captured.read_pct, s.replayed.read_pct,
                    s.captured.outstanding_mean, s.replayed.outstanding_mean, s.issue_error_p50_ns,
                    s.issue_error_p99_ns, s.issue_error_max_ns, s.fell_behind ? 1 : 0, sizes_reproduced(s) ? 1 : 0);
  }
  return out;
}

}  // namespace ptsuite::report
