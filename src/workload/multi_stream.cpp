// resolve() of a weighted multi-stream workload (workload_spec.hpp, StreamSpec).
#include "multi_stream.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <string>

#include <ptsuite/util/error.hpp>
#include <ptsuite/workload/rng.hpp>

namespace ptsuite::workload {

namespace {

constexpr double k_pct_tolerance = 1e-9;  // a stream may end at 100 % of the range within this

std::string stream_name(const StreamSpec& s, size_t index) {
  return s.name.empty() ? fmt::format("stream {}", index + 1) : fmt::format("stream {} ({})", index + 1, s.name);
}

// The workload's own active range, checked by resolve() on a one-block random probe (the same
// "range" errors as a single-stream workload).
ResolvedWorkload resolve_range_probe(const WorkloadSpec& spec, const engine::TargetGeometry& geometry) {
  WorkloadSpec probe = spec;
  probe.streams.clear();
  probe.zones.clear();
  probe.pattern = AccessPattern::random;
  probe.read_pct = 100;
  probe.block_sizes = {{geometry.logical_block_bytes, 1.0}};
  probe.active_range.amount_bytes = 0;
  probe.active_range.segments = 1;
  return resolve(probe, geometry);
}

// The stream's part of the range [offset, offset + length), both multiples of the logical
// block: start = floor(length * start_pct / 100), end = floor(length * (start_pct + pct) / 100).
ActiveRangeSpec stream_range(const StreamSpec& s, const ResolvedWorkload& whole, const std::string& name) {
  const bool bad_start = !std::isfinite(s.range_start_pct) || s.range_start_pct < 0;
  const bool bad_length = !std::isfinite(s.range_pct) || s.range_pct <= 0;
  if (bad_start || bad_length || s.range_start_pct + s.range_pct > 100 + k_pct_tolerance) {
    throw UsageError("streams", fmt::format("{}: range {}% + {}% must lie inside 0..100% of the active range", name,
                                            s.range_start_pct, s.range_pct));
  }
  const uint64_t logical = whole.geometry.logical_block_bytes;
  const auto at = [&](double pct) {
    const auto raw =
        static_cast<uint64_t>(static_cast<long double>(whole.range_length_bytes) * std::min(pct, 100.0) / 100.0L);
    return raw / logical * logical;
  };
  const uint64_t start = at(s.range_start_pct);
  const uint64_t end = at(s.range_start_pct + s.range_pct);
  if (end <= start) {
    throw UsageError("streams",
                     fmt::format("{}: {}% of the active range is less than one logical block", name, s.range_pct));
  }
  ActiveRangeSpec r;
  r.offset_bytes = whole.range_offset_bytes + start;
  r.length_bytes = end - start;
  return r;
}

void check_streams(const WorkloadSpec& spec) {
  if (spec.streams.size() > k_max_streams) {
    throw UsageError("streams",
                     fmt::format("{} streams are too many; give at most {}", spec.streams.size(), k_max_streams));
  }
  if (!spec.zones.empty()) {
    throw UsageError("streams", "LBA zones cannot be combined with streams; give each stream its range instead");
  }
  if (spec.active_range.amount_bytes != 0 || spec.active_range.segments != 1) {
    throw UsageError("streams", "ActiveRange segments cannot be combined with streams");
  }
  for (size_t i = 0; i < spec.streams.size(); ++i) {
    const double w = spec.streams[i].weight;
    if (!std::isfinite(w) || w <= 0) {
      throw UsageError("streams",
                       fmt::format("{}: the weight must be greater than 0", stream_name(spec.streams[i], i)));
    }
  }
}

}  // namespace

ResolvedWorkload resolve_multi_stream(const WorkloadSpec& spec, const engine::TargetGeometry& geometry) {
  check_streams(spec);
  ResolvedWorkload r = resolve_range_probe(spec, geometry);
  r.spec = spec;
  r.block_sizes.clear();
  r.zones.clear();
  r.slots.clear();
  r.max_block_bytes = 0;
  r.writes = false;
  double weight_sum = 0;
  for (const StreamSpec& s : spec.streams) weight_sum += s.weight;
  uint64_t span_start = UINT64_MAX;
  uint64_t span_end = 0;
  for (size_t i = 0; i < spec.streams.size(); ++i) {
    const StreamSpec& s = spec.streams[i];
    const std::string name = stream_name(s, i);
    WorkloadSpec sub = spec;
    sub.streams.clear();
    sub.pattern = s.pattern;
    sub.read_pct = s.read_pct;
    sub.block_sizes = s.block_sizes;
    sub.active_range = stream_range(s, r, name);
    // Every stream draws from its own generators: the seed hashed with the stream's index.
    sub.seed = mix64(mix64(spec.seed) ^ (uint64_t{i} + 1));
    try {
      r.streams.push_back(resolve(sub, geometry));
    } catch (const UsageError& e) {
      throw UsageError("streams", fmt::format("{}: {}", name, e.what()));
    }
    const ResolvedWorkload& one = r.streams.back();
    r.stream_probabilities.push_back(s.weight / weight_sum);
    r.max_block_bytes = std::max(r.max_block_bytes, one.max_block_bytes);
    r.writes = r.writes || one.writes;
    span_start = std::min(span_start, one.range_offset_bytes);
    span_end = std::max(span_end, one.range_offset_bytes + one.range_length_bytes);
  }
  r.range_offset_bytes = span_start;
  r.range_length_bytes = span_end - span_start;
  r.addressed_bytes = r.range_length_bytes;
  // The byte limit over the union of the streams' ranges (resolve_limits() checked the inputs
  // on every stream).
  r.byte_limit = spec.limits.bytes;
  if (spec.limits.bytes_range_multiple > 0) {
    r.byte_limit = static_cast<uint64_t>(
        std::llround(static_cast<long double>(r.addressed_bytes) * spec.limits.bytes_range_multiple));
  }
  return r;
}

}  // namespace ptsuite::workload
