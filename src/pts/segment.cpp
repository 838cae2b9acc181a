#include <ptsuite/pts/segment.hpp>

#include <fmt/format.h>

#include <ptsuite/pts/step_executor.hpp>
#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_member.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

using nlohmann::json;

namespace {

// Where a strict read of a segment record (results.json, the journal) names its failure.
const std::string k_record = "segment record";

struct MetricName {
  Metric metric;
  const char* name;
  const char* unit;
};
constexpr MetricName k_metrics[] = {
    {Metric::iops, "iops", "IOPS"},
    {Metric::read_mb_per_s, "read_mb_per_s", "MB/s"},
    {Metric::write_mb_per_s, "write_mb_per_s", "MB/s"},
    {Metric::mb_per_s, "mb_per_s", "MB/s"},
    {Metric::mean_latency_ns, "mean_latency", "ns"},
    {Metric::max_latency_ns, "max_latency", "ns"},
};

}  // namespace

Metric parse_metric(const std::string& text) {
  for (const MetricName& m : k_metrics) {
    if (text == m.name) {
      return m.metric;
    }
  }
  throw Error(ExitCode::system, fmt::format("unknown tracking metric \"{}\"", text));
}

const char* to_string(Metric metric) noexcept {
  for (const MetricName& m : k_metrics) {
    if (m.metric == metric) {
      return m.name;
    }
  }
  return "?";
}

const char* metric_unit(Metric metric) noexcept {
  for (const MetricName& m : k_metrics) {
    if (m.metric == metric) {
      return m.unit;
    }
  }
  return "";
}

const char* metric_display_unit(Metric metric) noexcept {
  return metric == Metric::mean_latency_ns || metric == Metric::max_latency_ns ? "ms" : metric_unit(metric);
}

double metric_display_divisor(Metric metric) noexcept {
  return metric == Metric::mean_latency_ns || metric == Metric::max_latency_ns ? 1e6 : 1.0;
}

double metric_value(const SegmentResult& r, Metric metric) {
  switch (metric) {
    case Metric::iops:
      return r.summary.combined.iops;
    case Metric::read_mb_per_s:
      return r.summary.read.mb_per_s;
    case Metric::write_mb_per_s:
      return r.summary.write.mb_per_s;
    case Metric::mb_per_s:
      return r.summary.combined.mb_per_s;
    case Metric::mean_latency_ns:
      return r.summary.combined.latency_mean_ns;
    case Metric::max_latency_ns:
      return static_cast<double>(r.summary.combined.latency_max_ns);
  }
  return 0;
}

std::string segment_label(workload::AccessPattern pattern, const std::vector<workload::BlockSizeWeight>& sizes,
                          RwMix mix) {
  const char* pat = pattern == workload::AccessPattern::random ? "RND" : "SEQ";
  if (sizes.size() == 1) {
    return fmt::format("{} {} {}", pat, units::format_size_binary(sizes.front().bytes), format_rw_mix(mix));
  }
  return fmt::format("{} CBW-mix {}", pat, format_rw_mix(mix));
}

const char* to_string(StepKind kind) noexcept {
  switch (kind) {
    case StepKind::segment:
      return "segment";
    case StepKind::purge:
      return "purge";
    case StepKind::health:
      return "health";
    case StepKind::idle:
      return "idle";
  }
  return "?";
}

void to_json(json& j, const StepRequest& request) {
  j = json{{"kind", to_string(request.kind)}};
  switch (request.kind) {
    case StepKind::segment:
      j["segment"] = request.segment;
      break;
    case StepKind::purge:
      j["method"] = request.purge_method;
      break;
    case StepKind::health:
      break;
    case StepKind::idle:
      j["idle_ns"] = request.idle_ns;
      break;
  }
}

void to_json(json& j, const IdleStepResult& r) {
  j = json{{"kind", "idle"}, {"idle_ns", r.idle_ns}, {"elapsed_ns", r.elapsed_ns}};
  if (!r.started_utc.empty()) j["started_utc"] = r.started_utc;
  if (!r.finished_utc.empty()) j["finished_utc"] = r.finished_utc;
  if (r.planned) j["planned"] = true;
}

void to_json(json& j, const WarmupStopRecord& r) { j = json{{"kind", "warmup"}, {"warmup_ns", r.warmup_ns}}; }

void to_json(json& j, const PlannedStepResult& r) {
  j = json{{"planned", true}};
  if (r.method) j["method"] = *r.method;
}

void to_json(json& j, const HealthStepResult& r) {
  j = r.snapshot;
  j["throttling"] = r.throttling;
}

SegmentResult run_segment(StepExecutor& exec, const StepId& id, const SegmentSpec& spec, uint32_t plan_round,
                          uint64_t plan_time_limit_ns) {
  StepRequest request;
  request.kind = StepKind::segment;
  request.segment = spec;
  request.plan_round = plan_round;
  request.plan_time_limit_ns = plan_time_limit_ns;
  return exec.execute(id, request).get<SegmentResult>();
}

void to_json(json& j, const SegmentSpec& s) {
  json sizes = json::array();
  for (const workload::BlockSizeWeight& b : s.block_sizes) {
    sizes.push_back({{"bytes", b.bytes}, {"weight", b.weight}});
  }
  json zones = json::array();
  for (const workload::AccessZone& z : s.zones) {
    zones.push_back({{"io_pct", z.io_pct}, {"range_pct", z.range_pct}});
  }
  j = json{{"label", s.label},
           {"pattern", workload::to_string(s.pattern)},
           {"rw_mix", format_rw_mix(s.mix)},
           {"read_pct", s.mix.read_pct},
           {"block_sizes", sizes},
           {"zones", zones},
           {"threads", s.threads},
           {"queue_depth", s.queue_depth},
           {"duration_ns", s.duration_ns},
           {"bytes_limit", s.bytes_limit},
           {"sequence_key", s.sequence_key},
           {"interval_ns", s.interval_ns}};
  if (s.warmup_ns > 0) {
    j["warmup_ns"] = s.warmup_ns;
  }
  if (!s.streams.empty()) {
    json streams = json::array();
    for (const workload::StreamSpec& st : s.streams) {
      json st_sizes = json::array();
      for (const workload::BlockSizeWeight& b : st.block_sizes) {
        st_sizes.push_back({{"bytes", b.bytes}, {"weight", b.weight}});
      }
      streams.push_back({{"name", st.name},
                         {"weight", st.weight},
                         {"pattern", workload::to_string(st.pattern)},
                         {"read_pct", st.read_pct},
                         {"block_sizes", st_sizes},
                         {"range_start_pct", st.range_start_pct},
                         {"range_pct", st.range_pct}});
    }
    j["streams"] = streams;
  }
}

void from_json(const json& j, SegmentSpec& s) {
  s.label = required_as<std::string>(j, "label", k_record);
  const std::string pattern = required_as<std::string>(j, "pattern", k_record);
  s.pattern = pattern == "sequential" ? workload::AccessPattern::sequential : workload::AccessPattern::random;
  s.mix = RwMix{required_as<double>(j, "read_pct", k_record)};
  s.block_sizes.clear();
  for (const json& b : required_as<json>(j, "block_sizes", k_record)) {
    s.block_sizes.push_back({required_as<uint64_t>(b, "bytes", k_record), required_as<double>(b, "weight", k_record)});
  }
  s.zones.clear();
  for (const json& z : required_as<json>(j, "zones", k_record)) {
    s.zones.push_back({required_as<double>(z, "io_pct", k_record), required_as<double>(z, "range_pct", k_record)});
  }
  s.threads = required_as<uint32_t>(j, "threads", k_record);
  s.queue_depth = required_as<uint32_t>(j, "queue_depth", k_record);
  s.duration_ns = required_as<uint64_t>(j, "duration_ns", k_record);
  s.bytes_limit = required_as<uint64_t>(j, "bytes_limit", k_record);
  s.sequence_key = required_as<std::string>(j, "sequence_key", k_record);
  s.interval_ns = required_as<uint64_t>(j, "interval_ns", k_record);
  s.warmup_ns = j.contains("warmup_ns") ? required_as<uint64_t>(j, "warmup_ns", k_record) : 0;
  s.streams.clear();
  if (j.contains("streams")) {
    for (const json& st : required_as<json>(j, "streams", k_record)) {
      workload::StreamSpec one;
      one.name = required_as<std::string>(st, "name", k_record);
      one.weight = required_as<double>(st, "weight", k_record);
      one.pattern = required_as<std::string>(st, "pattern", k_record) == "sequential"
                        ? workload::AccessPattern::sequential
                        : workload::AccessPattern::random;
      one.read_pct = required_as<double>(st, "read_pct", k_record);
      one.block_sizes.clear();
      for (const json& b : required_as<json>(st, "block_sizes", k_record)) {
        one.block_sizes.push_back(
            {required_as<uint64_t>(b, "bytes", k_record), required_as<double>(b, "weight", k_record)});
      }
      one.range_start_pct = required_as<double>(st, "range_start_pct", k_record);
      one.range_pct = required_as<double>(st, "range_pct", k_record);
      s.streams.push_back(std::move(one));
    }
  }
}

void to_json(json& j, const SegmentResult& r) {
  j = json{
      {"summary", r.summary},
      {"histograms", {{"read", r.read_histogram}, {"write", r.write_histogram}, {"combined", r.combined_histogram}}},
      {"elapsed_ns", r.elapsed_ns},
      {"cpu", {{"user_s", r.cpu_user_s}, {"system_s", r.cpu_system_s}}},
      {"stop_reason", r.stop_reason},
      {"started_utc", r.started_utc},
      {"finished_utc", r.finished_utc},
      {"seed", r.seed},
      {"end_cursor_bytes", r.end_cursor_bytes},
      {"intervals", r.intervals},
      {"error", r.error}};
  if (r.run_clock_ns) j["run_clock_ns"] = *r.run_clock_ns;
}

void from_json(const json& j, SegmentResult& r) {
  r.summary = required_as<stats::IoSummary>(j, "summary", k_record);
  const json& h = required_as<json>(j, "histograms", k_record);
  r.read_histogram = required_as<stats::LatencyHistogram>(h, "read", k_record);
  r.write_histogram = required_as<stats::LatencyHistogram>(h, "write", k_record);
  r.combined_histogram = required_as<stats::LatencyHistogram>(h, "combined", k_record);
  r.elapsed_ns = required_as<uint64_t>(j, "elapsed_ns", k_record);
  if (j.contains("run_clock_ns")) r.run_clock_ns = required_as<uint64_t>(j, "run_clock_ns", k_record);
  const json& cpu = required_as<json>(j, "cpu", k_record);
  r.cpu_user_s = required_as<double>(cpu, "user_s", k_record);
  r.cpu_system_s = required_as<double>(cpu, "system_s", k_record);
  r.stop_reason = required_as<std::string>(j, "stop_reason", k_record);
  r.started_utc = required_as<std::string>(j, "started_utc", k_record);
  r.finished_utc = required_as<std::string>(j, "finished_utc", k_record);
  r.seed = required_as<uint64_t>(j, "seed", k_record);
  r.end_cursor_bytes = required_as<std::vector<uint64_t>>(j, "end_cursor_bytes", k_record);
  r.intervals = required_as<json>(j, "intervals", k_record);
  r.error = j.value("error", json());
}

}  // namespace ptsuite::pts
