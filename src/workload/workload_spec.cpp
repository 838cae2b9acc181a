// resolve(): every input check of a workload, and its binding to a target's geometry. Each
// check throws UsageError naming the field at fault (queue_depth, read_pct, ...; the CLI maps fields
// to its own flags), before anything touches the target.
#include <ptsuite/workload/workload_spec.hpp>

#include <fmt/format.h>
#include <sched.h>
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/int128.hpp>
#include <ptsuite/util/units.hpp>

#include "multi_stream.hpp"

namespace ptsuite::workload {

namespace {

constexpr double k_sum_tolerance_pct = 1e-6;  // zone columns must sum to 100 within this

uint64_t round_up(uint64_t value, uint64_t align) { return (value + align - 1) / align * align; }
uint64_t round_down(uint64_t value, uint64_t align) { return value / align * align; }

std::string size_text(uint64_t bytes) { return units::format_size_binary(bytes); }

// The field a block-size problem is reported under: one size is `block_size`, a weighted list
// `bs_split` (the CLI spells them --block-size and --bs-split).
const char* block_size_option(const WorkloadSpec& spec) {
  return spec.block_sizes.size() > 1 ? "bs_split" : "block_size";
}

void check_geometry(const engine::TargetGeometry& g) {
  if (g.logical_block_bytes < 512 || !std::has_single_bit(g.logical_block_bytes)) {
    throw UsageError("target",
                     fmt::format("logical block size {} is not a power of two >= 512", g.logical_block_bytes));
  }
  if (g.capacity_bytes < g.logical_block_bytes) {
    throw UsageError("target", "the target is empty");
  }
}

void check_counts(const WorkloadSpec& spec) {
  if (spec.active_range.segments == 0 || spec.active_range.segments > k_max_ar_segments) {
    throw UsageError("segments",
                     fmt::format("{} is out of range; give 1 to {}", spec.active_range.segments, k_max_ar_segments));
  }
  if (spec.threads < 1 || spec.threads > k_max_threads) {
    throw UsageError("threads", fmt::format("{} is out of range; give 1 to {}", spec.threads, k_max_threads));
  }
  if (spec.queue_depth < 1 || spec.queue_depth > k_max_queue_depth) {
    throw UsageError("queue_depth",
                     fmt::format("{} is out of range; give 1 to {}", spec.queue_depth, k_max_queue_depth));
  }
  if (!std::isfinite(spec.read_pct) || spec.read_pct < 0 || spec.read_pct > 100) {
    throw UsageError("read_pct", fmt::format("{} is out of range; give a percentage from 0 to 100", spec.read_pct));
  }
}

std::vector<ResolvedBlockSize> resolve_block_sizes(const WorkloadSpec& spec, uint32_t logical) {
  const char* option = block_size_option(spec);
  if (spec.block_sizes.empty()) {
    throw UsageError(option, "no block size given");
  }
  double weight_sum = 0;
  for (size_t i = 0; i < spec.block_sizes.size(); ++i) {
    const BlockSizeWeight& b = spec.block_sizes[i];
    if (b.bytes == 0) {
      throw UsageError(option, "a block size of 0 bytes is not allowed");
    }
    if (b.bytes < logical) {
      throw UsageError(option, fmt::format("{} is smaller than the target's {}-byte logical block and cannot be "
                                           "issued on it; remove it",
                                           size_text(b.bytes), logical));
    }
    if (b.bytes % logical != 0) {
      throw UsageError(option, fmt::format("{} is not a multiple of the target's {}-byte logical block",
                                           size_text(b.bytes), logical));
    }
    if (b.bytes > k_max_block_bytes) {
      throw UsageError(
          option, fmt::format("{} is larger than the maximum of {}", size_text(b.bytes), size_text(k_max_block_bytes)));
    }
    if (!std::isfinite(b.weight) || b.weight <= 0) {
      throw UsageError(option, fmt::format("the weight of {} must be greater than 0", size_text(b.bytes)));
    }
    for (size_t j = 0; j < i; ++j) {
      if (spec.block_sizes[j].bytes == b.bytes) {
        throw UsageError(option, fmt::format("{} is listed twice", size_text(b.bytes)));
      }
    }
    weight_sum += b.weight;
  }
  std::vector<ResolvedBlockSize> out;
  out.reserve(spec.block_sizes.size());
  for (const BlockSizeWeight& b : spec.block_sizes) {
    // Power-of-two sizes align to themselves; the odd CBW sizes (1.5/2.5/3.5 KiB, ...) to the
    // logical block, the finest alignment the device accepts (docs/workload.md, "Alignment").
    const uint64_t align = std::has_single_bit(b.bytes) && !spec.align_to_logical_block ? b.bytes : logical;
    out.push_back({b.bytes, align, b.weight / weight_sum});
  }
  return out;
}

void resolve_range(const WorkloadSpec& spec, const engine::TargetGeometry& g, ResolvedWorkload& r) {
  const ActiveRangeSpec& ar = spec.active_range;
  const uint64_t logical = g.logical_block_bytes;
  if (ar.length_bytes.has_value()) {
    const uint64_t length = *ar.length_bytes;
    if (length == 0) {
      throw UsageError("range", "the length must be greater than 0");
    }
    if (ar.offset_bytes % logical != 0 || length % logical != 0) {
      throw UsageError("range", fmt::format("offset {} and length {} must be multiples of the {}-byte logical block",
                                            ar.offset_bytes, length, logical));
    }
    if (ar.offset_bytes > g.capacity_bytes || length > g.capacity_bytes - ar.offset_bytes) {
      throw UsageError("range", fmt::format("offset {} + length {} ends beyond the target's capacity of {} bytes",
                                            ar.offset_bytes, length, g.capacity_bytes));
    }
    r.range_offset_bytes = ar.offset_bytes;
    r.range_length_bytes = length;
  } else {
    if (!std::isfinite(ar.pct) || ar.pct <= 0 || ar.pct > 100) {
      throw UsageError("range", fmt::format("{}% is out of range; give more than 0 and at most 100", ar.pct));
    }
    // floor(capacity * pct / 100) in long double (64-bit mantissa: exact for any capacity),
    // rounded down to the logical block.
    const auto raw = static_cast<uint64_t>(static_cast<long double>(g.capacity_bytes) * ar.pct / 100.0L);
    r.range_offset_bytes = 0;
    r.range_length_bytes = round_down(std::min(raw, g.capacity_bytes), logical);
    if (r.range_length_bytes == 0) {
      throw UsageError("range",
                       fmt::format("{}% of {} bytes is less than one logical block", ar.pct, g.capacity_bytes));
    }
  }
  if (r.max_block_bytes > r.range_length_bytes) {
    throw UsageError(block_size_option(spec),
                     fmt::format("{} is larger than the active range of {}", size_text(r.max_block_bytes),
                                 size_text(r.range_length_bytes)));
  }
}

// The AR Amount in equal segments (ActiveRangeSpec). Both the stride and the segment length
// are whole multiples of the coarsest block alignment, so every segment starts aligned for
// every block size: segment i = [start + i * stride, start + i * stride + segment), with
//   segment = floor(amount / segments / unit) * unit  and  stride = floor(length / segments / unit) * unit,
// so segment <= stride whenever amount <= length, and the segments never overlap.
void resolve_segments(const WorkloadSpec& spec, ResolvedWorkload& r) {
  const ActiveRangeSpec& ar = spec.active_range;
  if (spec.pattern == AccessPattern::sequential) {
    throw UsageError("segments", "ActiveRange segments apply to the random pattern only");
  }
  if (!spec.zones.empty()) {
    throw UsageError("segments", "ActiveRange segments and LBA zones cannot be combined; give one of them");
  }
  if (ar.amount_bytes == 0) {
    throw UsageError("segments", fmt::format("{} segments need an ActiveRange amount to divide", ar.segments));
  }
  if (ar.amount_bytes > r.range_length_bytes) {
    throw UsageError("amount", fmt::format("{} is more than the active range of {}", size_text(ar.amount_bytes),
                                           size_text(r.range_length_bytes)));
  }
  uint64_t unit = r.geometry.logical_block_bytes;
  for (const ResolvedBlockSize& b : r.block_sizes) {
    unit = std::max(unit, b.align_bytes);
  }
  const uint64_t segment = round_down(ar.amount_bytes / ar.segments, unit);
  const uint64_t stride = round_down(r.range_length_bytes / ar.segments, unit);
  const uint64_t start = round_up(r.range_offset_bytes, unit);
  if (segment < r.max_block_bytes ||
      start + (ar.segments - 1) * stride + segment > r.range_offset_bytes + r.range_length_bytes) {
    throw UsageError("segments", fmt::format("{} in {} segments leaves {} per segment, less than the {} block; use "
                                             "fewer segments or a larger amount",
                                             size_text(ar.amount_bytes), ar.segments,
                                             size_text(ar.amount_bytes / ar.segments), size_text(r.max_block_bytes)));
  }
  for (uint32_t i = 0; i < ar.segments; ++i) {
    r.zones.push_back({start + i * stride, segment, 1.0 / ar.segments});
  }
  r.segmented = true;
  r.addressed_bytes = segment * ar.segments;
}

void resolve_zones(const WorkloadSpec& spec, uint32_t logical, ResolvedWorkload& r) {
  const uint64_t range_end = r.range_offset_bytes + r.range_length_bytes;
  r.addressed_bytes = r.range_length_bytes;
  if (spec.active_range.segments != 1 || spec.active_range.amount_bytes != 0) {
    resolve_segments(spec, r);
    return;
  }
  if (spec.zones.empty()) {
    r.zones.push_back({r.range_offset_bytes, r.range_length_bytes, 1.0});
    return;
  }
  if (spec.pattern == AccessPattern::sequential) {
    throw UsageError("zones", "zoned access applies to the random pattern only");
  }
  double io_sum = 0;
  double range_sum = 0;
  for (const AccessZone& z : spec.zones) {
    if (!std::isfinite(z.io_pct) || z.io_pct < 0 || !std::isfinite(z.range_pct) || z.range_pct <= 0) {
      throw UsageError("zones",
                       fmt::format("zone {}/{} needs an IO share >= 0 and a range share > 0", z.io_pct, z.range_pct));
    }
    io_sum += z.io_pct;
    range_sum += z.range_pct;
  }
  if (std::fabs(io_sum - 100) > k_sum_tolerance_pct || std::fabs(range_sum - 100) > k_sum_tolerance_pct) {
    throw UsageError("zones", fmt::format("the IO shares sum to {} and the range shares to {}; both must sum to 100",
                                          io_sum, range_sum));
  }
  double cum_range_pct = 0;
  uint64_t start = r.range_offset_bytes;
  for (size_t i = 0; i < spec.zones.size(); ++i) {
    cum_range_pct += spec.zones[i].range_pct;
    const uint64_t end =
        i + 1 == spec.zones.size()
            ? range_end
            : r.range_offset_bytes + round_down(static_cast<uint64_t>(static_cast<long double>(r.range_length_bytes) *
                                                                      cum_range_pct / 100.0L),
                                                logical);
    if (end <= start) {
      throw UsageError("zones", fmt::format("zone {} ({}% of the range) is smaller than one logical block", i + 1,
                                            spec.zones[i].range_pct));
    }
    r.zones.push_back({start, end - start, spec.zones[i].io_pct / io_sum});
    start = end;
  }
}

void resolve_slots(const WorkloadSpec& spec, ResolvedWorkload& r) {
  const uint64_t range_end = r.range_offset_bytes + r.range_length_bytes;
  for (size_t z = 0; z < r.zones.size(); ++z) {
    const ResolvedZone& zone = r.zones[z];
    for (const ResolvedBlockSize& b : r.block_sizes) {
      OffsetSlots s;
      s.first_offset_bytes = round_up(zone.offset_bytes, b.align_bytes);
      // An IO starts inside its zone and may run on into the next zone, but never leaves the
      // range; an AR segment holds its IOs whole (the gap after it is not addressed).
      const uint64_t last_start = r.segmented
                                      ? zone.offset_bytes + zone.length_bytes - b.bytes
                                      : std::min(zone.offset_bytes + zone.length_bytes - 1, range_end - b.bytes);
      if (last_start >= s.first_offset_bytes) {
        s.count = (round_down(last_start, b.align_bytes) - s.first_offset_bytes) / b.align_bytes + 1;
      }
      if (s.count == 0 && zone.probability > 0) {
        throw UsageError(
            spec.zones.empty() ? "range" : "zones",
            fmt::format("no {}-aligned offset for a {} IO in {} ({} bytes at offset {})", size_text(b.align_bytes),
                        size_text(b.bytes),
                        spec.zones.empty() ? std::string("the active range") : fmt::format("zone {}", z + 1),
                        zone.length_bytes, zone.offset_bytes));
      }
      r.slots.push_back(s);
    }
  }
}

void resolve_sequential(const WorkloadSpec& spec, ResolvedWorkload& r) {
  uint64_t align = 0;
  for (const ResolvedBlockSize& b : r.block_sizes) {
    align = std::max(align, b.align_bytes);
  }
  const uint64_t range_end = r.range_offset_bytes + r.range_length_bytes;
  r.sequential.start_bytes = round_up(r.range_offset_bytes, align);
  const uint64_t usable = r.sequential.start_bytes < range_end ? range_end - r.sequential.start_bytes : 0;
  r.sequential.slice_bytes = round_down(usable / spec.threads, align);
  if (r.sequential.slice_bytes < r.max_block_bytes) {
    throw UsageError("threads", fmt::format("the sequential range of {} split over {} threads leaves {} per thread, "
                                            "less than the {} block size; use fewer threads or a larger --range",
                                            size_text(usable), spec.threads, size_text(r.sequential.slice_bytes),
                                            size_text(r.max_block_bytes)));
  }
}

void resolve_limits(const WorkloadSpec& spec, ResolvedWorkload& r) {
  const RunLimits& l = spec.limits;
  if (!std::isfinite(l.bytes_range_multiple) || l.bytes_range_multiple < 0) {
    throw UsageError("bytes", "the multiple of the range must be greater than 0");
  }
  if (l.bytes != 0 && l.bytes_range_multiple != 0) {
    throw UsageError("bytes", "give either a size or a multiple of the range, not both");
  }
  if (l.duration_ns == 0 && l.bytes == 0 && l.bytes_range_multiple == 0 && l.ios == 0) {
    throw UsageError("duration", "no limit given; set --duration, --bytes or --ios");
  }
  r.byte_limit = l.bytes;
  if (l.bytes_range_multiple > 0) {
    const long double bytes = static_cast<long double>(r.addressed_bytes) * l.bytes_range_multiple;
    if (bytes >= 1.8e19L) {
      throw UsageError("bytes", fmt::format("{}x the range is too large", l.bytes_range_multiple));
    }
    r.byte_limit = static_cast<uint64_t>(std::llround(bytes));
    if (r.byte_limit == 0) {
      throw UsageError("bytes", fmt::format("{}x the range is less than one byte", l.bytes_range_multiple));
    }
  }
  const RateLimit& rate = spec.rate;
  if (!std::isfinite(rate.iops) || rate.iops < 0) {
    throw UsageError("rate_iops", "the rate must be 0 (unlimited) or more");
  }
  if (!std::isfinite(rate.mb_per_s) || rate.mb_per_s < 0) {
    throw UsageError("rate_mbps", "the rate must be 0 (unlimited) or more");
  }
  if (spec.interval_ns != 0 && spec.interval_ns < k_min_interval_ns) {
    throw UsageError("interval",
                     fmt::format("{} is too short; the minimum is {}", units::format_duration(spec.interval_ns),
                                 units::format_duration(k_min_interval_ns)));
  }
}

void check_resources(const WorkloadSpec& spec, const ResolvedWorkload& r) {
  const uint128_t buffers = static_cast<uint128_t>(spec.threads) * spec.queue_depth * r.max_block_bytes;
  if (buffers > k_max_buffer_bytes) {
    throw UsageError("queue_depth",
                     fmt::format("{} threads x {} IOs x {} of IO buffers exceeds the limit of {}", spec.threads,
                                 spec.queue_depth, size_text(r.max_block_bytes), size_text(k_max_buffer_bytes)));
  }
  if (!spec.cpus.empty()) {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
      throw SystemError("sched_getaffinity", errno);
    }
    for (int cpu : spec.cpus) {
      if (cpu < 0 || cpu >= CPU_SETSIZE || CPU_ISSET(cpu, &allowed) == 0) {
        throw UsageError("cpus", fmt::format("CPU {} does not exist or is not available to this process", cpu));
      }
    }
  }
  // Only the name is checked here (create_engine throws UsageError("engine") listing the
  // engines); whether the engine can run is found out when the run opens it (SystemError with
  // the cause, e.g. fs.aio-max-nr), without probing the kernel on every resolve().
  engine::create_engine(spec.engine);
}

}  // namespace

ResolvedWorkload resolve(const WorkloadSpec& spec, const engine::TargetGeometry& geometry) {
  check_geometry(geometry);
  if (!spec.streams.empty()) {
    return resolve_multi_stream(spec, geometry);
  }
  check_counts(spec);
  ResolvedWorkload r;
  r.spec = spec;
  r.geometry = geometry;
  r.writes = spec.read_pct < 100;
  r.block_sizes = resolve_block_sizes(spec, geometry.logical_block_bytes);
  for (const ResolvedBlockSize& b : r.block_sizes) {
    r.max_block_bytes = std::max(r.max_block_bytes, b.bytes);
  }
  resolve_range(spec, geometry, r);
  resolve_zones(spec, geometry.logical_block_bytes, r);
  if (spec.pattern == AccessPattern::random) {
    resolve_slots(spec, r);
  } else {
    resolve_sequential(spec, r);
  }
  resolve_limits(spec, r);
  check_resources(spec, r);
  return r;
}

const char* to_string(AccessPattern pattern) noexcept {
  return pattern == AccessPattern::sequential ? "sequential" : "random";
}

const char* to_string(DataPattern pattern) noexcept {
  switch (pattern) {
    case DataPattern::random:
      return "random";
    case DataPattern::refill:
      return "refill";
    case DataPattern::zeros:
      return "zeros";
  }
  return "random";
}

}  // namespace ptsuite::workload
