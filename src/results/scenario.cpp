#include <ptsuite/results/scenario.hpp>

#include <cmath>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

using nlohmann::json;

namespace {

// A number, 0 when absent (counts and rates of a partial document read as nothing done).
double value_or_zero(const json& j) { return j.is_number() ? j.get<double>() : 0.0; }

LatencyRecord read_latency_record(const json& j) {
  LatencyRecord out;
  out.mean_ns = num(at(j, "mean"));
  out.stddev_ns = num(at(j, "stddev"));
  out.min_ns = num(at(j, "min"));
  out.max_ns = num(at(j, "max"));
  const json& p = at(j, "percentiles");
  if (p.is_object()) {
    for (auto it = p.begin(); it != p.end(); ++it) out.percentiles.emplace_back(it.key(), num(it.value()));
  }
  return out;
}

DirectionRecord read_direction(const json& j) {
  return {count(at(j, "ios")), count(at(j, "bytes")), value_or_zero(at(j, "iops")), value_or_zero(at(j, "mb_per_s")),
          read_latency_record(at(j, "latency_ns"))};
}

IntervalRecord read_interval(const json& j) {
  IntervalRecord out;
  out.end_offset_ns = count(at(j, "end_offset_ns"));
  const char* k_dir[2] = {"read", "write"};
  for (int d = 0; d < 2; ++d) {
    const std::string prefix = k_dir[d];
    out.ios[d] = count(at(j, prefix + "_ios"));
    out.bytes[d] = count(at(j, prefix + "_bytes"));
    out.latency_sum_ns[d] = count(at(j, prefix + "_latency_sum_ns"));
    out.p99_ns[d] = num(at(j, prefix + "_p99_ns"));
    out.max_ns[d] = num(at(j, prefix + "_max_ns"));
    out.stddev_ns[d] = num(at(j, prefix + "_stddev_ns"));
  }
  return out;
}

}  // namespace

double LatencyRecord::percentile_ns(std::string_view key) const {
  for (const auto& [k, v] : percentiles) {
    if (k == key) return v;
  }
  return std::nan("");
}

double LatencyRecord::statistic_ns(std::string_view key) const {
  if (key == "mean") return mean_ns;
  if (key == "stddev") return stddev_ns;
  if (key == "max") return max_ns;
  if (key == "min") return min_ns;
  return percentile_ns(key);
}

std::vector<Direction> PhaseRecord::directions() const {
  bool r = false;
  bool w = false;
  for (const StepRecord& s : steps) {
    r = r || s.aggregate.read.ios > 0;
    w = w || s.aggregate.write.ios > 0;
  }
  std::vector<Direction> out;
  if (r) out.push_back(Direction::read);
  if (w) out.push_back(Direction::write);
  if (out.empty()) out.push_back(Direction::combined);
  return out;
}

const char* to_string(Direction d) noexcept {
  switch (d) {
    case Direction::read:
      return "read";
    case Direction::write:
      return "write";
    case Direction::combined:
      return "combined";
  }
  return "combined";
}

const DirectionRecord& SummaryRecord::of(Direction d) const {
  return d == Direction::read ? read : d == Direction::write ? write : combined;
}

std::vector<Direction> SummaryRecord::directions() const {
  std::vector<Direction> out;
  if (read.ios > 0) out.push_back(Direction::read);
  if (write.ios > 0) out.push_back(Direction::write);
  if (out.empty()) out.push_back(Direction::combined);
  return out;
}

SummaryRecord read_summary_record(const json& j) {
  SummaryRecord out;
  out.present = j.is_object();
  out.read = read_direction(at(j, "read"));
  out.write = read_direction(at(j, "write"));
  out.combined = read_direction(at(j, "combined"));
  return out;
}

InstanceRecord read_instance_record(const json& j) {
  InstanceRecord out;
  out.stream = str(j, "stream");
  out.target = count32(at(j, "target"));
  out.threads = count32(at(j, "threads"));
  out.queue_depth = count32(at(j, "queue_depth"));
  out.rate_iops = value_or_zero(at(j, {"rate", "iops"}));
  out.rate_mb_per_s = value_or_zero(at(j, {"rate", "mb_per_s"}));
  out.elapsed_ns = count(at(j, "elapsed_ns"));
  out.stop_reason = str(j, "stop_reason");
  out.summary = read_summary_record(at(j, "summary"));
  out.interval_ns = count(at(j, "interval_ns"));
  out.intervals = read_each(at(j, "intervals"), read_interval);
  return out;
}

StepRecord read_step_record(const json& j) {
  StepRecord out;
  out.label = str(j, "label");
  out.x = Embedded::borrow(at(j, "x"));
  const json& x = out.x.get();
  out.rate.mb_per_s = x.is_object() && x.contains("rate_mbps");
  out.rate.value = num(at(x, out.rate.mb_per_s ? "rate_mbps" : "rate_iops"));
  out.instances = read_each(at(j, "streams"), read_instance_record);
  out.targets = read_each(at(j, "targets"), [](const json& t) { return read_summary_record(at(t, "summary")); });
  out.aggregate = read_summary_record(at(j, "aggregate"));
  return out;
}

uint32_t PhaseRecord::app_target(uint32_t instance) const {
  return instance < app_targets.size() ? app_targets[instance] : instance;
}

PhaseRecord read_phase_record(const json& j) {
  PhaseRecord out;
  out.name = str(j, "name");
  out.kind = str(j, "kind");
  out.duration_ns = count(at(j, "duration_ns"));
  out.warmup_ns = count(at(j, "warmup_ns"));
  out.steps = read_each(at(j, "steps"), read_step_record);
  const json& ss = at(j, "steady_state");
  if (ss.is_object()) {
    out.steady_state = ScenarioSteadyState{at(ss, "attained") == true, str(ss, "variable"),
                                           count32(at(ss, "rounds_run")), count32(at(ss, "max_rounds"))};
  }
  out.purges = Embedded::borrow(at(j, "purges"));
  out.purge_records = read_each(out.purges.get(), [](const json& p) {
    return ScenarioPurge{static_cast<uint32_t>(count(at(p, "target"))), str(p, "description")};
  });
  out.replays = read_each(at(j, "replays"), [](const json& r) {
    return ScenarioReplay{count32(at(r, "target")), read_replay(at(r, "replay"))};
  });
  if (const json& app = at(j, "app"); app.is_object()) out.app = read_app_run(app);
  out.app_targets = read_each(at(j, "app_targets"), [](const json& t) { return count32(t); });
  out.streams_start_ns = count(at(j, "streams_start_ns"));
  return out;
}

std::vector<PhaseRecord> read_phase_records(const json& phases) { return read_each(phases, read_phase_record); }

}  // namespace ptsuite::results
