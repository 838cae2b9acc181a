// scenario_csv(): every step's statistics as one wide CSV table (scenario_report.hpp): one row
// per step, scope (each target, the aggregate, each stream instance) and direction (read,
// write, combined), with every latency statistic the document holds. An app phase gives per
// instance an "app" row (transactions, TPS, transaction latency) and a "device" row (the capture
// of its measured period); a mixed phase (app + streams) adds per application interval an
// "app_interval" and a "streams_interval" row on one time axis. A replay phase gives per
// target and step (and "all" steps) a "captured" and a "replayed" row (scope "replay", in the
// stream column) with the issue-time error and whether the step could not keep up (the last
// four columns, empty elsewhere).
#include <fmt/format.h>
#include <cmath>
#include <nlohmann/json.hpp>

#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/results/scenario.hpp>
#include <ptsuite/results/scenario_document.hpp>
#include <ptsuite/util/text.hpp>

#include "report/csv_writer.hpp"
#include "report/scenario/scenario_app.hpp"
#include "report/scenario/scenario_mixed.hpp"
#include "report/scenario/scenario_replay.hpp"
#include "report/scenario/scenario_rows.hpp"

namespace ptsuite::report {

using results::Direction;

namespace {

// The percentiles written, in this order (the standard set the runner stores).
constexpr const char* k_percentiles[] = {"1", "5", "10", "50", "90", "95", "99", "99.9", "99.99", "99.999", "99.9999"};

constexpr const char* k_key_columns[] = {"phase",
                                         "kind",
                                         "step",
                                         "label",
                                         "x",
                                         "scope",
                                         "stream",
                                         "target",
                                         "direction",
                                         "requested_iops",
                                         "requested_mb_per_s"};

std::string header() {
  std::string out;
  for (const char* c : k_key_columns) out += std::string(out.empty() ? "" : ",") + c;
  out += ",ios,bytes,iops,mb_per_s,latency_mean_ns,latency_stddev_ns,latency_min_ns,latency_max_ns";
  for (const char* p : k_percentiles) out += fmt::format(",latency_p{}_ns", p);
  return out + ",issue_error_p50_ns,issue_error_p99_ns,issue_error_max_ns,fell_behind\r\n";
}

std::string number(double v) { return std::isfinite(v) ? csv_number(v) : std::string(); }

struct Keys {
  std::string phase, kind, step, label, x, scope, stream, target, requested_iops, requested_mb_per_s;
};

// The key columns of a row (direction included).
void key_fields(std::string& out, const Keys& k, Direction d) {
  for (const std::string* f : {&k.phase, &k.kind, &k.step, &k.label, &k.x, &k.scope, &k.stream, &k.target}) {
    append_csv_field(out, *f);
    out += ',';
  }
  out += results::to_string(d);
  out += ',' + k.requested_iops + ',' + k.requested_mb_per_s;
}

void direction_row(std::string& out, const Keys& k, Direction d, const results::DirectionRecord& v) {
  key_fields(out, k, d);
  out += fmt::format(",{},{},{},{},{},{},{},{}", v.ios, v.bytes, number(v.iops), number(v.mb_per_s),
                     number(v.latency.mean_ns), number(v.latency.stddev_ns), number(v.latency.min_ns),
                     number(v.latency.max_ns));
  for (const char* p : k_percentiles) out += ',' + number(v.latency.percentile_ns(p));
  out += ",,,,\r\n";
}

// One replay row: the figures, the replayed IOs' response times (replayed rows of records that
// have them: mean, stddev, min, max, 50 / 99 / 99.9 / 99.99 %; the other percentiles empty),
// then the issue-time error (replayed rows only).
void replay_row(std::string& out, const Keys& k, const scenario_detail::ReplayTotals& t, const std::string& errors,
                const results::ReplayDirectionLatency* latency = nullptr) {
  key_fields(out, k, Direction::combined);
  out += fmt::format(",{},{},{},{}", t.ios, t.bytes, number(t.iops), number(t.mb_per_s));
  if (latency == nullptr || latency->ios == 0) {
    out += std::string(4 + std::size(k_percentiles), ',');
  } else {
    const results::ReplayDirectionLatency& l = *latency;
    out += fmt::format(",{},{},{},{}", number(l.mean_ns), number(l.stddev_ns), l.min_ns, l.max_ns);
    for (const char* p : k_percentiles) {
      const std::string key = p;
      const uint64_t* v = key == "50"      ? &l.p50_ns
                          : key == "99"    ? &l.p99_ns
                          : key == "99.9"  ? &l.p99_9_ns
                          : key == "99.99" ? &l.p99_99_ns
                                           : nullptr;
      out += ',' + (v == nullptr ? std::string() : std::to_string(*v));
    }
  }
  out += errors + "\r\n";
}

const results::ReplayDirectionLatency* combined_of(const std::optional<results::ReplayLatency>& l) {
  return l ? &l->combined : nullptr;
}

// The issue-time error and the "could not keep up" flag; empty in closed loop (not measured).
std::string errors_of(const results::ReplayRecord& r, uint64_t p50, uint64_t p99, uint64_t max, bool behind) {
  if (r.mode == "closed") return ",,,,";
  return fmt::format(",{},{},{},{}", p50, p99, max, behind ? "true" : "false");
}

void replay_rows(std::string& out, const results::PhaseRecord& phase) {
  for (const scenario_detail::ReplayRow& r : scenario_detail::replay_rows(phase)) {
    const results::ReplayRecord& rec = *r.record;
    Keys k{phase.name, phase.kind, "", rec.capture_file, "", "replay", "", std::to_string(r.target + 1), "", ""};
    for (size_t i = 0; i < rec.steps.size(); ++i) {
      const results::ReplayStep& s = rec.steps[i];
      k.step = std::to_string(i + 1);
      k.stream = "captured";
      replay_row(out, k, scenario_detail::replay_totals({&s.captured}), ",,,,");
      k.stream = "replayed";
      replay_row(out, k, scenario_detail::replay_totals({&s.replayed}),
                 errors_of(rec, s.issue_error_p50_ns, s.issue_error_p99_ns, s.issue_error_max_ns, s.fell_behind),
                 combined_of(s.latency));
    }
    k.step = "all";
    k.stream = "captured";
    replay_row(out, k, r.captured, ",,,,");
    k.stream = "replayed";
    replay_row(
        out, k, r.replayed,
        errors_of(rec, rec.issue_error_p50_ns, rec.issue_error_p99_ns, rec.issue_error_max_ns, !r.behind.empty()),
        combined_of(rec.latency));
  }
}

// An app phase: per instance (target i + 1, "all" for the aggregate) an "app" row (ios =
// transactions, iops = TPS; mean, stddev, max; 95 / 99 / 99.9 %) and a "device" row from the
// capture of the measured period (IOs, bytes, IOPS, MB/s; mean, max; 50 / 99 / 99.9 %).
void app_rows(std::string& out, const results::PhaseRecord& phase) {
  if (!phase.app) return;
  const results::AppRun& run = *phase.app;
  // The percentile cells, empty but for the 50 / 95 / 99 / 99.9 % given.
  const auto percentiles = [](double p50, double p95, double p99, double p999) {
    std::string cells;
    for (const char* p : k_percentiles) {
      const std::string key = p;
      const double v = key == "50" ? p50 : key == "95" ? p95 : key == "99" ? p99 : key == "99.9" ? p999 : std::nan("");
      cells += ',' + number(v);
    }
    return cells;
  };
  for (const scenario_detail::AppRow& r : scenario_detail::app_rows(phase)) {
    const results::AppInstanceResult& i = *r.result;
    const std::string target = r.scope.rfind("target ", 0) == 0 ? r.scope.substr(7) : "all";
    const Keys k{phase.name, phase.kind, "", run.app, "", "app", run.workload, target, "", ""};
    key_fields(out, k, Direction::combined);
    const results::AppLatency& l = i.latency;
    out += fmt::format(",{},,{},,{},{},,{}", i.transactions, number(i.tps), number(l.mean_ns), number(l.stddev_ns),
                       l.max_ns);
    out += percentiles(std::nan(""), static_cast<double>(l.p95_ns), static_cast<double>(l.p99_ns),
                       static_cast<double>(l.p999_ns));
    out += ",,,,\r\n";
  }
  if (!run.characterization) return;
  const results::IoCharacterization& c = *run.characterization;
  const std::string target = run.instances.size() > 1 ? "all" : std::to_string(phase.app_target(0) + 1);
  const Keys k{phase.name, phase.kind, "", run.app, "", "device", c.device, target, "", ""};
  key_fields(out, k, Direction::combined);
  out += fmt::format(",{},{},{},{},{},,,{}", c.ios, c.bytes, number(c.iops), number(c.mb_per_s),
                     number(c.latency_mean_ns), c.latency_max_ns);
  out += percentiles(static_cast<double>(c.latency_p50_ns), std::nan(""), static_cast<double>(c.latency_p99_ns),
                     static_cast<double>(c.latency_p999_ns));
  out += ",,,,\r\n";
}

// A mixed phase on one time axis: per application interval (step = its number, x = {"end_s"})
// an "app_interval" row (iops = TPS; latency mean and 99 % as the driver reports them) and a
// "streams_interval" row (the streams' IOs, bytes, IOPS, MB/s, mean and maximum in it).
void mixed_rows(std::string& out, const results::PhaseRecord& phase) {
  const scenario_detail::MixedSeries s = scenario_detail::mixed_series(phase);
  for (size_t i = 0; i < s.rows.size(); ++i) {
    const scenario_detail::MixedRow& r = s.rows[i];
    Keys k{phase.name,
           phase.kind,
           std::to_string(i + 1),
           "interval",
           fmt::format("{{\"end_s\":{}}}", csv_number(r.end_s)),
           "app_interval",
           phase.app->workload,
           "",
           "",
           ""};
    key_fields(out, k, Direction::combined);
    out += fmt::format(",,,{},,{},,,", number(r.app->tps), number(r.app->latency_mean_ms * 1e6));
    for (const char* p : k_percentiles)
      out += ',' + (std::string(p) == "99" ? number(r.app->latency_p99_ms * 1e6) : "");
    out += ",,,,\r\n";
    k.scope = "streams_interval";
    k.stream = "";
    key_fields(out, k, Direction::combined);
    out += fmt::format(",{},{},{},{},{},,,{}", r.stream_ios, r.stream_bytes, number(r.stream_iops),
                       number(r.stream_mb_per_s), number(r.stream_mean_ns), number(r.stream_max_ns));
    out += std::string(std::size(k_percentiles), ',') + ",,,,\r\n";
  }
}

void summary_rows(std::string& out, const Keys& k, const results::SummaryRecord& s) {
  if (!s.present) return;
  for (const Direction d : {Direction::read, Direction::write, Direction::combined}) {
    if (s.of(d).ios > 0 || d == Direction::combined) direction_row(out, k, d, s.of(d));
  }
}

void step_rows(std::string& out, const results::PhaseRecord& phase, size_t index, const results::StepRecord& step) {
  Keys k{phase.name,
         phase.kind,
         std::to_string(index + 1),
         step.label,
         step.x.get().is_object() ? step.x.get().dump() : "",
         "",
         "",
         "",
         "",
         ""};
  for (size_t t = 0; t < step.targets.size(); ++t) {
    k.scope = scenario_detail::target_name(t);
    k.target = std::to_string(t + 1);
    summary_rows(out, k, step.targets[t]);
  }
  k.scope = "aggregate";
  k.target = "";
  summary_rows(out, k, step.aggregate);
  for (const results::InstanceRecord& in : step.instances) {
    k.scope = "stream";
    k.stream = in.stream;
    k.target = std::to_string(in.target + 1);
    k.requested_iops = in.rate_iops > 0 ? number(in.rate_iops) : "";
    k.requested_mb_per_s = in.rate_mb_per_s > 0 ? number(in.rate_mb_per_s) : "";
    summary_rows(out, k, in.summary);
  }
}

}  // namespace

std::string scenario_csv(const results::ScenarioDocument& doc) {
  std::string out = header();
  for (const results::PhaseRecord& phase : doc.phases) {
    for (size_t i = 0; i < phase.steps.size(); ++i) step_rows(out, phase, i, phase.steps[i]);
    replay_rows(out, phase);
    app_rows(out, phase);
    mixed_rows(out, phase);
  }
  return out;
}

}  // namespace ptsuite::report
