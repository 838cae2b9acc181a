#include <ptsuite/pts/plan_probe.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include <ptsuite/pts/device_executor.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/sha256.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/workload_runner.hpp>

namespace ptsuite::pts {

namespace {

// Each probe segment's length: long enough that its threads all start and complete IO, short
// enough that a handful of them take about a second.
constexpr uint64_t k_probe_segment_ns = 10'000'000;
constexpr int k_probe_repeats = 3;
// A probe write's amount: at most this, at most an eighth of the target.
constexpr uint64_t k_probe_write_bytes = uint64_t{256} << 20;
constexpr double k_bytes_per_mib = 1024.0 * 1024.0;

// One shape of the plan's segments: its thread count, queue depth and largest block.
struct ProbePoint {
  uint32_t threads = 0;
  uint32_t queue_depth = 0;
  uint64_t block_bytes = 0;
  [[nodiscard]] double footprint_mib() const {
    return static_cast<double>(segment_footprint_bytes(threads, queue_depth, block_bytes)) / k_bytes_per_mib;
  }
  friend bool operator==(const ProbePoint&, const ProbePoint&) = default;
};

workload::WorkloadSpec probe_spec(const ProbeOptions& o, const ProbePoint& p) {
  workload::WorkloadSpec ws;
  ws.pattern = workload::AccessPattern::random;
  ws.read_pct = 100.0;
  ws.block_sizes = {{p.block_bytes, 1.0}};
  ws.threads = p.threads;
  ws.queue_depth = p.queue_depth;
  ws.engine = o.engine;
  ws.seed = 0x5eedULL + p.threads;
  return ws;
}

// The wall time one step of shape `p` takes beyond its length: the workload's set-up (threads,
// engines, IO buffers, the data pool) and drain, then what the run does with every result (its
// JSON and the journal's hash).
uint64_t timed_step_overhead_ns(const engine::Target& target, const ProbeOptions& o, const ProbePoint& p) {
  workload::WorkloadSpec ws = probe_spec(o, p);
  ws.limits.duration_ns = k_probe_segment_ns;
  const uint64_t start = monotonic_ns();
  const workload::ResolvedWorkload resolved = workload::resolve(ws, target.geometry());
  const workload::WorkloadResult w = workload::run_workload(resolved, target, workload::RunControl{}, nullptr);
  const nlohmann::json result = to_segment_result(w, ws.seed, utc_now_iso8601(), utc_now_iso8601());
  (void)sha256_hex(result.dump());
  const uint64_t wall = monotonic_ns() - start;
  return wall > k_probe_segment_ns ? wall - k_probe_segment_ns : 0;
}

template <typename Once>
uint64_t slowest_of(const Once& once) {
  uint64_t slowest = 0;
  for (int i = 0; i < k_probe_repeats; ++i) {
    slowest = std::max(slowest, once());
  }
  return slowest;
}

// The three shapes that bound the model: the lightest step at the smallest thread count, the
// lightest at the largest thread count (threads), and the step with the most buffer bytes.
std::vector<ProbePoint> probe_points(const Plan& worst) {
  std::vector<ProbePoint> shapes;
  for (const PlanStep& s : worst.steps) {
    if (s.kind == "segment" && s.threads > 0 && s.queue_depth > 0 && s.max_block_bytes > 0) {
      shapes.push_back({s.threads, s.queue_depth, s.max_block_bytes});
    }
  }
  if (shapes.empty()) return {};
  const auto lighter = [](const ProbePoint& a, const ProbePoint& b) {
    return std::tuple{a.threads, a.footprint_mib()} < std::tuple{b.threads, b.footprint_mib()};
  };
  const ProbePoint small = *std::min_element(shapes.begin(), shapes.end(), lighter);
  const uint32_t most_threads = std::max_element(shapes.begin(), shapes.end(), lighter)->threads;
  ProbePoint threads{};
  for (const ProbePoint& p : shapes) {
    if (p.threads == most_threads && (threads.threads == 0 || p.footprint_mib() < threads.footprint_mib())) {
      threads = p;
    }
  }
  const ProbePoint big = *std::max_element(shapes.begin(), shapes.end(), [](const ProbePoint& a, const ProbePoint& b) {
    return a.footprint_mib() < b.footprint_mib();
  });
  std::vector<ProbePoint> out{small};
  for (const ProbePoint& p : {threads, big}) {
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  }
  return out;
}

// The slopes b (per thread) and c (per MiB of IO buffers) through the probes. probe_points()
// gives p0 (the lightest step at the fewest threads), then up to two more: with two more, b and
// c solve o_i - o_0 = b x dT_i + c x dM_i exactly (the 2 x 2 system); a negative slope is set to
// 0 and the other taken from the probe that moves it most. Max-of-pairwise slopes over-read a
// thread's cost as buffer cost: TC 32 x QD 1 x 64 KiB (2 MiB, 175 ms) beside TC 1 (48 ms) gave
// 65 ms per MiB, 12.6 s planned for a TC 32 x QD 32 step measured at 345 ms (ECW's probe).
std::pair<double, double> overhead_slopes(const std::vector<std::pair<ProbePoint, uint64_t>>& probes) {
  const ProbePoint& p0 = probes.front().first;
  const uint64_t o0 = probes.front().second;
  const auto delta = [&](size_t i) {
    const auto& [p, o] = probes[i];
    return std::tuple{static_cast<double>(p.threads) - static_cast<double>(p0.threads),
                      p.footprint_mib() - p0.footprint_mib(), static_cast<double>(o) - static_cast<double>(o0)};
  };
  if (probes.size() >= 3) {
    const auto [t1, m1, d1] = delta(1);
    const auto [t2, m2, d2] = delta(2);
    const double det = t1 * m2 - t2 * m1;
    if (std::fabs(det) > 1e-9) {
      const double per_thread = (d1 * m2 - d2 * m1) / det;
      const double per_mib = (t1 * d2 - t2 * d1) / det;
      if (per_thread >= 0 && per_mib >= 0) {
        return {per_thread, per_mib};
      }
    }
  }
  // One slope only: each probe's rise over its threads (no buffers counted) or over its buffers.
  double per_thread = 0;
  double per_mib = 0;
  for (size_t i = 1; i < probes.size(); ++i) {
    const double rise = std::get<2>(delta(i));
    if (const double t = std::get<0>(delta(i)); t > 0) per_thread = std::max(per_thread, rise / t);
  }
  if (per_thread == 0) {
    for (size_t i = 1; i < probes.size(); ++i) {
      const double rise = std::get<2>(delta(i));
      if (const double m = std::get<1>(delta(i)); m > 0) per_mib = std::max(per_mib, rise / m);
    }
  }
  return {per_thread, per_mib};
}

// overhead = a + b x threads + c x MiB of IO buffers: b and c from overhead_slopes(), then a
// raised until the model is at least every probe. Then the margin.
void fit_overhead(const std::vector<std::pair<ProbePoint, uint64_t>>& probes, PlanAssumptions& a) {
  const auto [per_thread, per_mib] = overhead_slopes(probes);
  double base = 0;
  std::vector<std::string> parts;
  for (const auto& [p, o] : probes) {
    base = std::max(base, static_cast<double>(o) - per_thread * p.threads - per_mib * p.footprint_mib());
    parts.push_back(fmt::format("{} at TC {} QD {} {}", units::format_duration(o), p.threads, p.queue_depth,
                                units::format_size_binary(p.block_bytes)));
  }
  const uint64_t floor = a.step_overhead_ns;
  a.step_overhead_ns = std::max(floor, static_cast<uint64_t>(base * k_probe_margin));
  a.overhead_per_thread_ns = static_cast<uint64_t>(per_thread * k_probe_margin);
  a.overhead_per_mib_ns = static_cast<uint64_t>(per_mib * k_probe_margin);
  a.overhead_basis = fmt::format(
      "step overhead measured on the target ({}), x{:g} for load: {} + {} per thread + {} per MiB of IO buffers per "
      "segment (at least {})",
      fmt::join(parts, ", "), k_probe_margin, units::format_duration(a.step_overhead_ns),
      units::format_duration(a.overhead_per_thread_ns), units::format_duration(a.overhead_per_mib_ns),
      units::format_duration(floor));
}

// The byte-limited writes (WIPC) of the plan: their TC x QD x block size.
std::vector<ProbePoint> byte_limited_writes(const Plan& worst) {
  std::vector<ProbePoint> out;
  for (const PlanStep& s : worst.steps) {
    if (s.kind == "segment" && s.estimated && s.bytes > 0 && s.threads > 0) {
      const ProbePoint key{s.threads, s.queue_depth, s.max_block_bytes};
      if (std::find(out.begin(), out.end(), key) == out.end()) out.push_back(key);
    }
  }
  return out;
}

void probe_write_rates(const engine::Target& target, const Plan& worst, const ProbeOptions& o, PlanAssumptions& a) {
  std::vector<std::string> parts;
  for (const ProbePoint& p : byte_limited_writes(worst)) {
    workload::WorkloadSpec ws = probe_spec(o, p);
    ws.pattern = workload::AccessPattern::sequential;
    ws.read_pct = 0;
    const uint64_t unit = p.block_bytes * p.threads;
    ws.limits.bytes = std::max(unit, std::min(k_probe_write_bytes, target.geometry().capacity_bytes / 8) / unit * unit);
    const workload::WorkloadResult w =
        workload::run_workload(workload::resolve(ws, target.geometry()), target, workload::RunControl{}, nullptr);
    const double written = static_cast<double>(w.stats.write.bytes);
    if (w.elapsed_ns == 0 || written <= 0) continue;
    const double mb_per_s = written / (static_cast<double>(w.elapsed_ns) / 1e9) / 1e6 / k_probe_margin;
    a.write_rates.push_back({p.threads, p.queue_depth, mb_per_s});
    parts.push_back(fmt::format("{:.0f} MB/s at TC {} / QD {}", mb_per_s, p.threads, p.queue_depth));
  }
  if (!parts.empty()) {
    a.write_basis = fmt::format("writes measured on the scratch target, /{:g} for load: {}", k_probe_margin,
                                fmt::join(parts, ", "));
  }
}

// How long the results document's JSON takes per byte: a document of the probe's own segment
// results, about 1 MB, serialized (the slowest of 3).
double document_ns_per_byte(const engine::Target& target, const ProbeOptions& o) {
  workload::WorkloadSpec ws = probe_spec(o, {1, 1, 4096});
  ws.limits.duration_ns = k_probe_segment_ns;
  const workload::WorkloadResult w =
      workload::run_workload(workload::resolve(ws, target.geometry()), target, workload::RunControl{}, nullptr);
  const nlohmann::json one = to_segment_result(w, ws.seed, utc_now_iso8601(), utc_now_iso8601());
  const size_t copies = std::max<size_t>(1, (size_t{1} << 20) / std::max<size_t>(1, one.dump().size()));
  const nlohmann::json document(copies, one);
  size_t bytes = 0;
  const uint64_t slowest = slowest_of([&] {
    const uint64_t start = monotonic_ns();
    bytes = document.dump().size();
    return monotonic_ns() - start;
  });
  return bytes == 0 ? 0.0 : static_cast<double>(slowest) / static_cast<double>(bytes);
}

}  // namespace

PlanAssumptions probe_assumptions(const engine::Target& target, const Plan& worst, PlanAssumptions base,
                                  const ProbeOptions& options) {
  std::vector<std::pair<ProbePoint, uint64_t>> probes;
  for (const ProbePoint& p : probe_points(worst)) {
    probes.emplace_back(p, slowest_of([&] { return timed_step_overhead_ns(target, options, p); }));
  }
  if (!probes.empty()) {
    fit_overhead(probes, base);
  }
  base.document_ns_per_byte = document_ns_per_byte(target, options) * k_probe_margin;
  if (options.health) {
    base.health_ns = static_cast<uint64_t>(static_cast<double>(slowest_of([&] {
                                             const uint64_t start = monotonic_ns();
                                             options.health();
                                             return monotonic_ns() - start;
                                           })) *
                                           k_probe_margin);
  }
  if (options.may_write) {
    probe_write_rates(target, worst, options, base);
  }
  return base;
}

}  // namespace ptsuite::pts
