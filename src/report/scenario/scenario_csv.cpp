// scenario_csv(): every step's statistics as one wide CSV table (scenario_report.hpp): one row
// per step, scope (each target, the aggregate, each stream instance) and direction (read,
// write, combined), with every latency statistic the document holds.
#include <fmt/format.h>
#include <cmath>
#include <nlohmann/json.hpp>

#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/results/scenario.hpp>
#include <ptsuite/results/scenario_document.hpp>

#include "report/csv_writer.hpp"
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
  return out + "\r\n";
}

std::string number(double v) { return std::isfinite(v) ? csv_number(v) : std::string(); }

struct Keys {
  std::string phase, kind, step, label, x, scope, stream, target, requested_iops, requested_mb_per_s;
};

void direction_row(std::string& out, const Keys& k, Direction d, const results::DirectionRecord& v) {
  for (const std::string* f : {&k.phase, &k.kind, &k.step, &k.label, &k.x, &k.scope, &k.stream, &k.target}) {
    csv::append_field(out, *f);
    out += ',';
  }
  out += results::to_string(d);
  out += ',' + k.requested_iops + ',' + k.requested_mb_per_s;
  out += fmt::format(",{},{},{},{},{},{},{},{}", v.ios, v.bytes, number(v.iops), number(v.mb_per_s),
                     number(v.latency.mean_ns), number(v.latency.stddev_ns), number(v.latency.min_ns),
                     number(v.latency.max_ns));
  for (const char* p : k_percentiles) out += ',' + number(v.latency.percentile_ns(p));
  out += "\r\n";
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
    k.target = std::to_string(t);
    summary_rows(out, k, step.targets[t]);
  }
  k.scope = "aggregate";
  k.target = "";
  summary_rows(out, k, step.aggregate);
  for (const results::InstanceRecord& in : step.instances) {
    k.scope = "stream";
    k.stream = in.stream;
    k.target = std::to_string(in.target);
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
  }
  return out;
}

}  // namespace ptsuite::report
