#include <ptsuite/pts/segment.hpp>

#include <fmt/format.h>

#include <ptsuite/pts/step_executor.hpp>
#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

using nlohmann::json;

namespace {

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

template <class T>
T field(const json& j, const char* key) {
  if (!j.contains(key)) {
    throw UsageError(key, "missing in segment record");
  }
  try {
    return j.at(key).get<T>();
  } catch (const json::exception& e) {
    throw UsageError(key, fmt::format("malformed in segment record: {}", e.what()));
  }
}

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

SegmentResult run_segment(StepExecutor& exec, const StepId& id, const SegmentSpec& spec, uint32_t plan_round) {
  StepRequest request;
  request.kind = StepKind::segment;
  request.segment = spec;
  request.plan_round = plan_round;
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
  s.label = field<std::string>(j, "label");
  const std::string pattern = field<std::string>(j, "pattern");
  s.pattern = pattern == "sequential" ? workload::AccessPattern::sequential : workload::AccessPattern::random;
  s.mix = RwMix{field<double>(j, "read_pct")};
  s.block_sizes.clear();
  for (const json& b : field<json>(j, "block_sizes")) {
    s.block_sizes.push_back({field<uint64_t>(b, "bytes"), field<double>(b, "weight")});
  }
  s.zones.clear();
  for (const json& z : field<json>(j, "zones")) {
    s.zones.push_back({field<double>(z, "io_pct"), field<double>(z, "range_pct")});
  }
  s.threads = field<uint32_t>(j, "threads");
  s.queue_depth = field<uint32_t>(j, "queue_depth");
  s.duration_ns = field<uint64_t>(j, "duration_ns");
  s.bytes_limit = field<uint64_t>(j, "bytes_limit");
  s.sequence_key = field<std::string>(j, "sequence_key");
  s.interval_ns = field<uint64_t>(j, "interval_ns");
  s.streams.clear();
  if (j.contains("streams")) {
    for (const json& st : field<json>(j, "streams")) {
      workload::StreamSpec one;
      one.name = field<std::string>(st, "name");
      one.weight = field<double>(st, "weight");
      one.pattern = field<std::string>(st, "pattern") == "sequential" ? workload::AccessPattern::sequential
                                                                      : workload::AccessPattern::random;
      one.read_pct = field<double>(st, "read_pct");
      one.block_sizes.clear();
      for (const json& b : field<json>(st, "block_sizes")) {
        one.block_sizes.push_back({field<uint64_t>(b, "bytes"), field<double>(b, "weight")});
      }
      one.range_start_pct = field<double>(st, "range_start_pct");
      one.range_pct = field<double>(st, "range_pct");
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
}

void from_json(const json& j, SegmentResult& r) {
  r.summary = field<stats::IoSummary>(j, "summary");
  const json& h = field<json>(j, "histograms");
  r.read_histogram = field<stats::LatencyHistogram>(h, "read");
  r.write_histogram = field<stats::LatencyHistogram>(h, "write");
  r.combined_histogram = field<stats::LatencyHistogram>(h, "combined");
  r.elapsed_ns = field<uint64_t>(j, "elapsed_ns");
  const json& cpu = field<json>(j, "cpu");
  r.cpu_user_s = field<double>(cpu, "user_s");
  r.cpu_system_s = field<double>(cpu, "system_s");
  r.stop_reason = field<std::string>(j, "stop_reason");
  r.started_utc = field<std::string>(j, "started_utc");
  r.finished_utc = field<std::string>(j, "finished_utc");
  r.seed = field<uint64_t>(j, "seed");
  r.end_cursor_bytes = field<std::vector<uint64_t>>(j, "end_cursor_bytes");
  r.intervals = field<json>(j, "intervals");
  r.error = j.value("error", json());
}

}  // namespace ptsuite::pts
