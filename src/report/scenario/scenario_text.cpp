// scenario_text(): the plain summary, one line per step, scope and direction (scenario_report.hpp).
#include <fmt/format.h>
#include <cmath>

#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/results/scenario_document.hpp>

#include "report/scenario/scenario_app.hpp"
#include "report/scenario/scenario_mixed.hpp"
#include "report/scenario/scenario_replay.hpp"
#include "report/scenario/scenario_rows.hpp"

namespace ptsuite::report {

namespace {

// ns in the table's unit ("12.345" ms, "78.1" us); "-" when absent.
std::string scenario_latency(double ns, units::LatencyUnit unit) {
  return std::isfinite(ns) ? fmt::format("{:.{}f}", units::in_latency_unit(ns, unit), units::latency_decimals(unit))
                           : "-";
}

// A replay phase: per target, captured vs replayed, the issue-time error and the steps kept up.
std::string replay_text(const results::PhaseRecord& phase) {
  std::string out;
  for (const scenario_detail::ReplayRow& r : scenario_detail::replay_rows(phase)) {
    const results::ReplayRecord& rec = *r.record;
    out += fmt::format(
        "  {}: {} ({}): {} of {} IOs replayed{}{}\n", scenario_detail::target_name(r.target), rec.capture_file,
        scenario_detail::replay_mode_text(rec), r.replayed.ios, r.captured.ios,
        rec.skipped_ios > 0 ? fmt::format(" ({} other IOs, discards or flushes, not replayed)", rec.skipped_ios) : "",
        rec.stop_reason == "complete" ? "" : " (" + rec.stop_reason + ")");
    out += fmt::format("    IOPS {:.0f} captured, {:.0f} replayed; MB/s {:.1f} captured, {:.1f} replayed\n",
                       r.captured.iops, r.replayed.iops, r.captured.mb_per_s, r.replayed.mb_per_s);
    out += fmt::format("    issue-time error p50 {} / p99 {} / max {} us; {}\n",
                       scenario_detail::us_text(rec, rec.issue_error_p50_ns),
                       scenario_detail::us_text(rec, rec.issue_error_p99_ns),
                       scenario_detail::us_text(rec, rec.issue_error_max_ns), scenario_detail::kept_up_text(r));
    if (rec.latency) {
      const results::ReplayDirectionLatency& l = rec.latency->combined;
      out += fmt::format(
          "    response time mean {:.1f} / stddev {:.1f} / 99 % {:.1f} / 99.9 % {:.1f} / 99.99 % {:.1f} / "
          "max {:.1f} us ({} IOs)\n",
          l.mean_ns / 1e3, l.stddev_ns / 1e3, static_cast<double>(l.p99_ns) / 1e3,
          static_cast<double>(l.p99_9_ns) / 1e3, static_cast<double>(l.p99_99_ns) / 1e3,
          static_cast<double>(l.max_ns) / 1e3, l.ios);
    }
  }
  return out;
}

// An app phase: what ran, per instance its TPS and transaction latency, and the device figures.
std::string app_phase_text(const results::PhaseRecord& phase) {
  if (!phase.app) return "  no application record\n";
  const results::AppRun& run = *phase.app;
  std::string out = "  " + scenario_detail::app_line(run) + "\n";
  const std::vector<scenario_detail::AppRow> rows = scenario_detail::app_rows(phase);
  std::vector<double> all_ns;
  for (const scenario_detail::AppRow& r : rows) {
    for (const auto& c : scenario_detail::k_app_latency_columns) all_ns.push_back(c.value_ns(r.result->latency));
  }
  const units::LatencyUnit unit = units::latency_unit_for(all_ns);
  out += fmt::format("  transaction latency in {}\n  {:<16} {:>10} {:>12} {:>8}", units::latency_unit_name(unit),
                     "scope", "TPS", "transactions", "failed");
  for (const auto& c : scenario_detail::k_app_latency_columns) out += fmt::format(" {:>9}", c.heading);
  out += "\n";
  for (const scenario_detail::AppRow& r : rows) {
    out += fmt::format("  {:<16} {:>10.1f} {:>12} {:>8}", r.scope, r.result->tps, r.result->transactions,
                       r.result->failed);
    for (const auto& c : scenario_detail::k_app_latency_columns) {
      out += fmt::format(" {:>9}", scenario_detail::app_latency_in(c.value_ns(r.result->latency), unit));
    }
    out += "\n";
  }
  return out + "  " + scenario_detail::app_device_line(run) + "\n";
}

// A mixed phase on one time axis: per application interval its TPS and transaction latency
// next to the streams' IOPS, MB/s and IO latency in that interval.
std::string mixed_text(const results::PhaseRecord& phase) {
  const scenario_detail::MixedSeries s = scenario_detail::mixed_series(phase);
  std::vector<double> all_ns;
  for (const scenario_detail::MixedRow& r : s.rows) {
    all_ns.insert(all_ns.end(),
                  {r.app->latency_mean_ms * 1e6, r.app->latency_p99_ms * 1e6, r.stream_mean_ns, r.stream_max_ns});
  }
  const units::LatencyUnit unit = units::latency_unit_for(all_ns);
  std::string out = fmt::format(
      "  {} and the streams per interval (s since its measured period began; streams started {:.1f} ms after it; "
      "latency in {})\n  {:>8} {:>10} {:>9} {:>9} {:>12} {:>10} {:>9} {:>9}\n",
      phase.app->app, static_cast<double>(phase.streams_start_ns) / 1e6, units::latency_unit_name(unit), "time", "TPS",
      "txn mean", "txn 99 %", "stream IOPS", "MB/s", "IO mean", "IO max");
  for (const scenario_detail::MixedRow& r : s.rows) {
    out += fmt::format("  {:>8.1f} {:>10.1f} {:>9} {:>9} {:>12.0f} {:>10.1f} {:>9} {:>9}\n", r.end_s, r.app->tps,
                       scenario_latency(r.app->latency_mean_ms * 1e6, unit),
                       scenario_latency(r.app->latency_p99_ms * 1e6, unit), r.stream_iops, r.stream_mb_per_s,
                       scenario_latency(r.stream_mean_ns, unit), scenario_latency(r.stream_max_ns, unit));
  }
  if (s.left_out > 0) {
    out +=
        fmt::format("  ({} stream interval(s) after the application's last one are in the totals only)\n", s.left_out);
  }
  return out + "  the streams over the whole period:\n";
}

std::string phase_text(const results::PhaseRecord& phase, size_t targets, bool compact) {
  std::string out = fmt::format("\n{} ({})\n", phase.name, phase.kind);
  if (phase.kind == "replay") return out + replay_text(phase);
  if (phase.kind == "app") {
    out += app_phase_text(phase);
    if (!scenario_detail::is_mixed(phase)) return out;
    out += mixed_text(phase);
  }
  if (phase.steps.empty()) return out;
  const std::vector<scenario_detail::StepRow> rows = scenario_detail::step_rows(phase, targets, compact);
  const units::LatencyUnit unit = scenario_detail::latency_unit_of(rows);
  out += fmt::format("  latencies in {}\n", units::latency_unit_name(unit));
  out += fmt::format("  {:<28} {:<16} {:<5} {:>12} {:>10}", "step", "scope", "dir", "IOPS", "MB/s");
  for (const auto& c : scenario_detail::k_latency_columns) out += fmt::format(" {:>9}", c.heading);
  out += "\n";
  for (const scenario_detail::StepRow& r : rows) {
    out += fmt::format("  {:<28} {:<16} {:<5} {:>12.0f} {:>10.1f}",
                       r.first_of_step ? phase.steps[r.step].label : std::string(), r.scope, r.dir, r.values->iops,
                       r.values->mb_per_s);
    for (const auto& c : scenario_detail::k_latency_columns) {
      out += fmt::format(" {:>9}", scenario_latency(scenario_detail::latency_ns(r.values->latency, c.key), unit));
    }
    out += "\n";
  }
  if (phase.steady_state) {
    out += fmt::format("  steady state: {} after {} Round(s)\n",
                       phase.steady_state->attained ? "attained" : "NOT ATTAINED", phase.steady_state->rounds_run);
  }
  return out;
}

}  // namespace

std::string scenario_text(const results::ScenarioDocument& doc) {
  return scenario_text(doc, scenario_report_options(doc));
}

std::string scenario_text(const results::ScenarioDocument& doc, const ScenarioReportOptions& options) {
  const results::ScenarioInfo& s = doc.scenario;
  std::string out = fmt::format("ptsuite scenario {} - {}{}\n", s.name, s.title, s.quick ? " (quick form)" : "");
  out += fmt::format("status: {}\n", doc.status);
  if (!doc.config.tested_by.empty()) out += fmt::format("tested by: {}\n", doc.config.tested_by);
  out += "targets:\n";
  size_t i = 0;
  for (const results::ScenarioTarget& t : doc.targets) {
    const std::string model = t.identity.model.value_or("");
    const std::string serial = t.identity.serial.value_or("");
    out += fmt::format("  {}: {} ({} {})\n", ++i, t.path, model.empty() ? "-" : model, serial.empty() ? "-" : serial);
  }
  out +=
      "latencies in us or ms as each table says (mean, standard deviation, percentiles, maximum); MB = 10^6 bytes; "
      "IOPS and MB/s summed over "
      "streams, latencies from merged histograms; R+W = read and write together\n";
  const size_t targets = doc.targets.size();
  if (options.compact && targets > 1) out += "compact: the aggregate's rows only; every target in scenario.csv\n";
  for (const results::PhaseRecord& phase : doc.phases) {
    out += phase_text(phase, targets, options.compact);
  }
  return out;
}

}  // namespace ptsuite::report
