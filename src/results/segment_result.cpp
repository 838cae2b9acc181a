#include <ptsuite/results/segment_result.hpp>

#include <algorithm>
#include <charconv>
#include <tuple>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

using nlohmann::json;

namespace {

// A 32-bit count (threads, queue depth); nullopt unless a non-negative integer that fits.
std::optional<uint32_t> opt_count32(const json& j) {
  const std::optional<uint64_t> n = opt_count(j);
  return n && *n <= UINT32_MAX ? std::optional<uint32_t>(static_cast<uint32_t>(*n)) : std::nullopt;
}

// The value of a percentile key ("99.999" -> 99.999); 0 when it does not start with a number.
double percentile_of_key(const std::string& key) {
  double value = 0;
  const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), value);
  return ec == std::errc() ? value : 0;
}

IntervalCounters read_counters(const json& sample, const std::string& prefix) {
  return {opt_count(at(sample, prefix + "_ios")), opt_count(at(sample, prefix + "_bytes")),
          opt_count(at(sample, prefix + "_latency_sum_ns")), opt_count(at(sample, prefix + "_p99_ns"))};
}

IntervalSample read_interval_sample(const json& sample) {
  return {opt_count(at(sample, "end_offset_ns")), read_counters(sample, "read"), read_counters(sample, "write")};
}

std::optional<DirectionSummary> read_optional_direction(const json& direction) {
  return direction.is_object() ? std::optional<DirectionSummary>(read_direction_summary(direction)) : std::nullopt;
}

BlockSizeRecord read_block_size(const json& size) { return {opt_count(at(size, "bytes")), num(at(size, "weight"))}; }

}  // namespace

double LatencySummary::percentile_ns(std::string_view key) const {
  for (const PercentileRecord& p : percentiles) {
    if (p.key == key) {
      return static_cast<double>(p.ns);
    }
  }
  return std::nan("");
}

const DirectionSummary* SegmentSummary::direction(std::string_view name) const {
  const std::optional<DirectionSummary>* d = name == "read"       ? &read
                                             : name == "write"    ? &write
                                             : name == "combined" ? &combined
                                                                  : nullptr;
  return d != nullptr && d->has_value() ? &**d : nullptr;
}

LatencySummary read_latency_summary(const json& latency_ns) {
  LatencySummary out;
  out.min_ns = opt_count(at(latency_ns, "min"));
  out.max_ns = opt_count(at(latency_ns, "max"));
  out.mean_ns = num(at(latency_ns, "mean"));
  out.stddev_ns = num(at(latency_ns, "stddev"));
  const json& percentiles = at(latency_ns, "percentiles");
  if (percentiles.is_object()) {
    for (const auto& [key, value] : percentiles.items()) {
      if (value.is_number_unsigned()) {
        out.percentiles.push_back({percentile_of_key(key), key, value.get<uint64_t>()});
      }
    }
  }
  std::sort(out.percentiles.begin(), out.percentiles.end(), [](const PercentileRecord& a, const PercentileRecord& b) {
    return std::tie(a.pct, a.key) < std::tie(b.pct, b.key);
  });
  return out;
}

DirectionSummary read_direction_summary(const json& direction) {
  DirectionSummary out;
  out.ios = opt_count(at(direction, "ios"));
  out.bytes = opt_count(at(direction, "bytes"));
  out.iops = num(at(direction, "iops"));
  out.mb_per_s = num(at(direction, "mb_per_s"));
  out.latency = read_latency_summary(at(direction, "latency_ns"));
  return out;
}

SegmentSummary read_segment_summary(const json& summary) {
  return {read_optional_direction(at(summary, "read")), read_optional_direction(at(summary, "write")),
          read_optional_direction(at(summary, "combined"))};
}

SegmentSummary read_segment_summary(const Embedded& summary) { return read_segment_summary(summary.get()); }

SegmentResultRecord read_segment_result(const json& result) {
  SegmentResultRecord out;
  out.summary = read_segment_summary(at(result, "summary"));
  out.elapsed_ns = opt_count(at(result, "elapsed_ns"));
  out.cpu_user_s = num(at(result, {"cpu", "user_s"}));
  out.cpu_system_s = num(at(result, {"cpu", "system_s"}));
  out.stop_reason = str(at(result, "stop_reason"));
  out.started_utc = str(at(result, "started_utc"));
  out.finished_utc = str(at(result, "finished_utc"));
  out.has_error = !at(result, "error").is_null();
  out.intervals = read_each(at(result, "intervals"), read_interval_sample);
  return out;
}

SegmentResultRecord read_segment_result(const Embedded& result) { return read_segment_result(result.get()); }

SegmentSpecRecord read_segment_spec(const json& spec) {
  SegmentSpecRecord out;
  out.label = str(at(spec, "label"));
  out.pattern = str(at(spec, "pattern"));
  out.rw_mix = str(at(spec, "rw_mix"));
  out.read_pct = num(at(spec, "read_pct"));
  out.block_sizes = read_each(at(spec, "block_sizes"), read_block_size);
  out.threads = opt_count32(at(spec, "threads"));
  out.queue_depth = opt_count32(at(spec, "queue_depth"));
  out.duration_ns = opt_count(at(spec, "duration_ns"));
  out.bytes_limit = opt_count(at(spec, "bytes_limit"));
  out.interval_ns = opt_count(at(spec, "interval_ns"));
  out.sequence_key = str(at(spec, "sequence_key"));
  return out;
}

SegmentSpecRecord read_segment_spec(const Embedded& spec) { return read_segment_spec(spec.get()); }

std::optional<BeforeRoundRecord> read_before_round(const Embedded& before_round) {
  const json& j = before_round.get();
  if (!j.is_object()) {
    return std::nullopt;
  }
  return BeforeRoundRecord{str(j, "kind"), read_segment_spec(at(j, "spec")), read_segment_result(at(j, "result")),
                           read_interval_series(at(j, "series"))};
}

}  // namespace ptsuite::results
