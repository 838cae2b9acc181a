#include "cli/console.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <cstring>

#include <ptsuite/stats/latency_stats.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/workload_json.hpp>

namespace ptsuite::cli {

namespace {

using workload::ResolvedWorkload;
using workload::WorkloadResult;

// 245.3k, 1.21M, 950.0
std::string compact_count(double value) {
  if (value >= 1e6) {
    return fmt::format("{:.2f}M", value / 1e6);
  }
  if (value >= 1e4) {
    return fmt::format("{:.1f}k", value / 1e3);
  }
  return fmt::format("{:.1f}", value);
}

// A latency in the summary's unit (units::latency_unit_for: us below 1 ms, else ms), 2 decimals
// in us (the console's resolution of 10 ns), 3 in ms.
std::string lat(double ns, units::LatencyUnit u) {
  return fmt::format("{:.{}f}", units::in_latency_unit(ns, u), u == units::LatencyUnit::us ? 2 : 3);
}

units::LatencyUnit summary_unit(const stats::IoSummary& s) {
  std::vector<double> v;
  for (const stats::DirectionSummary* d : {&s.read, &s.write, &s.combined}) {
    if (d->ios == 0) continue;
    v.insert(v.end(), {d->latency_mean_ns, d->latency_stddev_ns, static_cast<double>(d->latency_max_ns)});
    for (const stats::PercentileValue& p : d->percentiles) v.push_back(static_cast<double>(p.value_ns));
  }
  return units::latency_unit_for(std::move(v));
}

std::string block_sizes_text(const ResolvedWorkload& w) {
  if (w.block_sizes.size() == 1) {
    return units::format_size_binary(w.block_sizes.front().bytes);
  }
  std::string text;
  for (const workload::ResolvedBlockSize& b : w.block_sizes) {
    text +=
        fmt::format("{}{}/{:.4g}%", text.empty() ? "" : ":", units::format_size_binary(b.bytes), b.probability * 100);
  }
  return text;
}

std::string limits_text(const ResolvedWorkload& w) {
  std::string text;
  auto add = [&](const std::string& part) { text += text.empty() ? part : ", " + part; };
  if (w.spec.limits.duration_ns != 0) {
    add(units::format_duration(w.spec.limits.duration_ns));
  }
  if (w.byte_limit != 0) {
    add(units::format_size_human(w.byte_limit));
  }
  if (w.spec.limits.ios != 0) {
    add(fmt::format("{} IOs", w.spec.limits.ios));
  }
  return text;
}

void print_config(std::FILE* out, const ResolvedWorkload& w, const engine::Target& target) {
  const engine::TargetGeometry& g = target.geometry();
  fmt::print(out, "target   {} ({}, {}, {}-byte logical / {}-byte physical blocks)\n", target.path(),
             target.kind() == engine::TargetKind::block_device ? "block device" : "O_DIRECT file",
             units::format_size_human(g.capacity_bytes), g.logical_block_bytes, g.physical_block_bytes);
  fmt::print(out, "workload {}, {}% read, {}, {} thread(s) x QD {}, range {} at offset {}{}\n",
             to_string(w.spec.pattern), w.spec.read_pct, block_sizes_text(w), w.spec.threads, w.spec.queue_depth,
             units::format_size_human(w.range_length_bytes), w.range_offset_bytes,
             w.spec.zones.empty() ? "" : fmt::format(", {} zones", w.spec.zones.size()));
  std::string rate;
  if (w.spec.rate.iops > 0) {
    rate += fmt::format(", rate {} IOPS", w.spec.rate.iops);
  }
  if (w.spec.rate.mb_per_s > 0) {
    rate += fmt::format(", rate {} MB/s", w.spec.rate.mb_per_s);
  }
  fmt::print(out, "         limit {}, seed {}, engine {}, data {}{}\n", limits_text(w), w.spec.seed, w.spec.engine,
             to_string(w.spec.data), rate);
}

void print_direction_row(std::FILE* out, const char* name, const stats::DirectionSummary& s, units::LatencyUnit u) {
  fmt::print(out, "{:<9}{:>12} {:>12} {:>12} {:>10.2f} {:>9} {:>9} {:>9} {:>10}\n", name, s.ios,
             units::format_size_human(s.bytes), fmt::format("{:.1f}", s.iops), s.mb_per_s,
             lat(static_cast<double>(s.latency_min_ns), u), lat(s.latency_mean_ns, u), lat(s.latency_stddev_ns, u),
             lat(static_cast<double>(s.latency_max_ns), u));
}

void print_percentile_row(std::FILE* out, const char* name, const stats::DirectionSummary& s, units::LatencyUnit u) {
  std::string row = fmt::format("{:<9}", name);
  for (const stats::PercentileValue& p : s.percentiles) {
    row += fmt::format("{:>10}", lat(static_cast<double>(p.value_ns), u));
  }
  fmt::print(out, "{}\n", row);
}

}  // namespace

ProgressLine::ProgressLine(bool enabled) : m_enabled(enabled && isatty(STDERR_FILENO) == 1), m_warn(enabled) {}

std::string stall_warning(uint64_t stalled_ns) {
  if (stalled_ns < workload::k_stall_warning_ns) {
    return "";
  }
  return fmt::format(
      "ptsuite: no IO has completed for {} (the device may be hung; IO in flight cannot be "
      "abandoned, waiting)",
      units::format_duration(stalled_ns));
}

bool stall_warning_due(uint64_t stalled_ns, uint64_t elapsed_ns, uint64_t last_warning_elapsed_ns) {
  return stalled_ns >= workload::k_stall_warning_ns &&
         (last_warning_elapsed_ns == 0 || elapsed_ns - last_warning_elapsed_ns >= workload::k_stall_warning_ns);
}

std::string format_progress(const workload::Progress& p) {
  std::string line = fmt::format("  {}", units::format_duration(p.elapsed_ns));
  if (p.expected_ns > 0) {
    const uint64_t remaining = p.expected_ns > p.elapsed_ns ? p.expected_ns - p.elapsed_ns : 0;
    line += fmt::format(" / {}  remaining {}", units::format_duration(p.expected_ns),
                        remaining == 0 ? std::string("0s") : units::format_duration(remaining));
  }
  line += fmt::format("  {} IOPS  {:.1f} MB/s", compact_count(p.live_iops), p.live_mb_per_s);
  return line;
}

void ProgressLine::update(const workload::Progress& progress) {
  if (m_warn && stall_warning_due(progress.stalled_ns, progress.elapsed_ns, m_warned_at_ns)) {
    clear();
    fmt::print(stderr, "{}\n", stall_warning(progress.stalled_ns));
    m_warned_at_ns = progress.elapsed_ns;
  }
  if (!m_enabled) {
    return;
  }
  // \r returns to the line start, \033[K erases what a longer previous line left behind.
  fmt::print(stderr, "\r{}\033[K", format_progress(progress));
  std::fflush(stderr);
  m_drawn = true;
}

void ProgressLine::clear() {
  if (m_drawn) {
    fmt::print(stderr, "\r\033[K");
    std::fflush(stderr);
    m_drawn = false;
  }
}

std::string describe_io_error(const WorkloadResult& result) {
  return workload::describe_io_error(result.first_error, result.error_count);
}

void print_summary(std::FILE* out, const ResolvedWorkload& w, const engine::Target& target, const WorkloadResult& r) {
  print_config(out, w, target);
  fmt::print(out, "ran      {}, stopped by {}\n\n", units::format_duration(r.elapsed_ns), to_string(r.stop_reason));
  const stats::IoSummary s = stats::summarize(r.stats, r.elapsed_ns);
  const units::LatencyUnit u = summary_unit(s);
  const std::string symbol = units::latency_unit_symbol(u);
  fmt::print(out, "{:<9}{:>12} {:>12} {:>12} {:>10} {:>9} {:>9} {:>9} {:>10}\n", "", "IOs", "bytes", "IOPS", "MB/s",
             "lat min", "mean", "stddev", fmt::format("max ({})", symbol));
  print_direction_row(out, "read", s.read, u);
  print_direction_row(out, "write", s.write, u);
  print_direction_row(out, "combined", s.combined, u);

  std::string header = fmt::format("\n{:<9}", fmt::format("({})", symbol));
  for (double p : stats::k_standard_percentiles) {
    header += fmt::format("{:>10}", fmt::format("p{}", p));
  }
  fmt::print(out, "{}\n", header);
  print_percentile_row(out, "read", s.read, u);
  print_percentile_row(out, "write", s.write, u);
  print_percentile_row(out, "combined", s.combined, u);

  fmt::print(out, "\nCPU      user {:.2f} s, system {:.2f} s, {:.2f} µs per IO\n", r.cpu.user_s, r.cpu.system_s,
             workload::cpu_us_per_io(r));
  fmt::print(out, "(MB = 10^6 bytes; IOPS and MB/s over the elapsed time; latency = submit to completion)\n");
}

}  // namespace ptsuite::cli
