#include <ptsuite/stats/stats_json.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_member.hpp>

namespace ptsuite::stats {

namespace {

using nlohmann::json;

uint64_t as_u64(const json& j, const std::string& where) {
  if (j.is_number_unsigned()) {
    return j.get<uint64_t>();
  }
  if (j.is_number_integer() && j.get<int64_t>() >= 0) {
    return static_cast<uint64_t>(j.get<int64_t>());
  }
  throw UsageError(where, fmt::format("expected a non-negative integer, got {}", j.dump()));
}

double as_double(const json& j, const std::string& where) {
  if (!j.is_number()) {
    throw UsageError(where, fmt::format("expected a number, got {}", j.dump()));
  }
  return j.get<double>();
}

// "99.9" for 99.9, "1" for 1.0: fmt's shortest round-trip spelling.
std::string percentile_key(double percentile) { return fmt::format("{}", percentile); }

double parse_percentile_key(const std::string& key, const std::string& where) {
  double value = 0;
  const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), value);
  if (ec != std::errc{} || end != key.data() + key.size() || !(value > 0 && value <= 100)) {
    throw UsageError(where, fmt::format("\"{}\" is not a percentile in (0, 100]", key));
  }
  return value;
}

}  // namespace

void to_json(json& j, const DirectionSummary& summary) {
  json percentiles = json::object();
  for (const PercentileValue& p : summary.percentiles) {
    percentiles[percentile_key(p.percentile)] = p.value_ns;
  }
  j = json{{"ios", summary.ios},
           {"bytes", summary.bytes},
           {"iops", summary.iops},
           {"mb_per_s", summary.mb_per_s},
           {"latency_ns",
            {{"min", summary.latency_min_ns},
             {"max", summary.latency_max_ns},
             {"mean", summary.latency_mean_ns},
             {"stddev", summary.latency_stddev_ns},
             {"percentiles", std::move(percentiles)}}}};
}

void from_json(const json& j, DirectionSummary& summary) {
  const std::string where = "direction summary";
  DirectionSummary out;
  out.ios = as_u64(required_member(j, "ios", where), where + " ios");
  out.bytes = as_u64(required_member(j, "bytes", where), where + " bytes");
  out.iops = as_double(required_member(j, "iops", where), where + " iops");
  out.mb_per_s = as_double(required_member(j, "mb_per_s", where), where + " mb_per_s");
  const json& lat = required_member(j, "latency_ns", where);
  const std::string lat_where = where + " latency_ns";
  out.latency_min_ns = as_u64(required_member(lat, "min", lat_where), lat_where + ".min");
  out.latency_max_ns = as_u64(required_member(lat, "max", lat_where), lat_where + ".max");
  out.latency_mean_ns = as_double(required_member(lat, "mean", lat_where), lat_where + ".mean");
  out.latency_stddev_ns = as_double(required_member(lat, "stddev", lat_where), lat_where + ".stddev");
  const json& percentiles = required_member(lat, "percentiles", lat_where);
  const std::string p_where = lat_where + ".percentiles";
  if (!percentiles.is_object()) {
    throw UsageError(p_where, "expected a JSON object");
  }
  for (const auto& [key, value] : percentiles.items()) {
    out.percentiles.push_back(PercentileValue{parse_percentile_key(key, p_where), as_u64(value, p_where + "." + key)});
  }
  std::sort(out.percentiles.begin(), out.percentiles.end(),
            [](const PercentileValue& a, const PercentileValue& b) { return a.percentile < b.percentile; });
  summary = std::move(out);
}

void to_json(json& j, const IoSummary& summary) {
  j = json{{"read", summary.read}, {"write", summary.write}, {"combined", summary.combined}};
}

void from_json(const json& j, IoSummary& summary) {
  const std::string where = "io summary";
  summary.read = required_member(j, "read", where).get<DirectionSummary>();
  summary.write = required_member(j, "write", where).get<DirectionSummary>();
  summary.combined = required_member(j, "combined", where).get<DirectionSummary>();
}

// Runs: a bucket's lower bound followed by the counts of it and the buckets after it. A gap of up
// to k_max_bridged_zeros empty buckets stays inside a run: each costs "0," (2 bytes) where a new
// run costs "],[" plus a lower bound of up to 20 digits. A histogram with one IO every few
// buckets is thus written as [lower_ns, count] pairs, a dense one as a few long runs (about 3x
// smaller than pairs: results.json of a full run, docs/performance.md "Round 3", goal 7).
constexpr size_t k_max_bridged_zeros = 4;

void to_json(json& j, const LatencyHistogram& histogram) {
  json runs = json::array();
  json run;
  size_t next_index = 0;  // the index that would continue `run`
  for (const auto& [index, count] : histogram.nonzero_buckets()) {
    if (run.is_null() || index - next_index > k_max_bridged_zeros) {
      if (!run.is_null()) {
        runs.push_back(std::move(run));
      }
      run = json::array({LatencyHistogram::bucket_lower_ns(index)});
    } else {
      for (size_t gap = next_index; gap < index; ++gap) {
        run.push_back(0);
      }
    }
    run.push_back(count);
    next_index = index + 1;
  }
  if (!run.is_null()) {
    runs.push_back(std::move(run));
  }
  j = json{{"layout", k_histogram_layout_name},
           {"sub_bucket_bits", LatencyHistogram::k_sub_bucket_bits},
           {"buckets", std::move(runs)}};
}

namespace {

void check_layout(const json& j, const std::string& where) {
  const json& layout = required_member(j, "layout", where);
  if (!layout.is_string() || layout.get<std::string>() != k_histogram_layout_name) {
    throw UsageError(where + " layout", fmt::format("{} is not supported: ptsuite reads only the \"{}\" layout",
                                                    layout.dump(), k_histogram_layout_name));
  }
  const uint64_t bits = as_u64(required_member(j, "sub_bucket_bits", where), where + " sub_bucket_bits");
  if (bits != LatencyHistogram::k_sub_bucket_bits) {
    throw UsageError(where + " sub_bucket_bits",
                     fmt::format("{} is not supported: this layout has {} sub-bucket bits (1/{} of an octave)", bits,
                                 LatencyHistogram::k_sub_bucket_bits, LatencyHistogram::k_sub_buckets));
  }
}

// One run [lower_ns, count, count, ...] into `out`; returns the index after its last bucket.
size_t read_run(const json& run, const std::string& where, size_t min_index, LatencyHistogram& out) {
  if (!run.is_array() || run.size() < 2) {
    throw UsageError(where, fmt::format("expected [lower_ns, count, ...], got {}", run.dump()));
  }
  const uint64_t lower_ns = as_u64(run[0], where);
  const size_t first = LatencyHistogram::bucket_index(lower_ns);
  if (LatencyHistogram::bucket_lower_ns(first) != lower_ns) {
    throw UsageError(where, fmt::format("{} ns is not the lower bound of a bucket (the bucket holding it "
                                        "starts at {} ns)",
                                        lower_ns, LatencyHistogram::bucket_lower_ns(first)));
  }
  if (first < min_index) {
    throw UsageError(where, fmt::format("bucket {} ns is out of order or repeated", lower_ns));
  }
  const size_t counts = run.size() - 1;
  if (first + counts > LatencyHistogram::k_bucket_count) {
    throw UsageError(where, fmt::format("{} counts from {} ns run past the last bucket", counts, lower_ns));
  }
  for (size_t k = 0; k < counts; ++k) {
    const uint64_t count = as_u64(run[k + 1], where);
    if (count == 0 && (k == 0 || k + 1 == counts)) {
      throw UsageError(where, "a run that starts or ends with count 0 (runs list non-empty buckets at both ends)");
    }
    if (out.total_count() + count < count) {
      throw UsageError(where, "the total count overflows 64 bits");
    }
    if (count > 0) {
      out.record_n(LatencyHistogram::bucket_lower_ns(first + k), count);
    }
  }
  return first + counts;
}

}  // namespace

void from_json(const json& j, LatencyHistogram& histogram) {
  const std::string where = "histogram";
  check_layout(j, where);
  const json& buckets = required_member(j, "buckets", where);
  const std::string b_where = where + " buckets";
  if (!buckets.is_array()) {
    throw UsageError(b_where, "expected an array of [lower_ns, count, ...] runs");
  }
  LatencyHistogram out;
  size_t next_index = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    next_index = read_run(buckets[i], fmt::format("{}[{}]", b_where, i), next_index, out);
  }
  out.shrink_to_fit();  // a result kept in memory holds only its used range (latency_histogram.hpp)
  histogram = std::move(out);
}

}  // namespace ptsuite::stats
