#include "support/scenario_fixture.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/scenario/profiles.hpp>
#include <ptsuite/scenario/scenario_runner.hpp>
#include <ptsuite/stats/latency_stats.hpp>

namespace ptsuite::test_support {

namespace {

using nlohmann::json;

// xorshift64*: a fixed sequence per seed.
class Rng {
 public:
  explicit Rng(uint64_t seed) : m_state(seed * 0x9E3779B97F4A7C15ULL + 1) {}
  double uniform() {
    m_state ^= m_state >> 12;
    m_state ^= m_state << 25;
    m_state ^= m_state >> 27;
    return static_cast<double>((m_state * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
  }
  double normal() {  // Box-Muller
    const double u = std::max(uniform(), 1e-12);
    return std::sqrt(-2 * std::log(u)) * std::cos(6.283185307179586 * uniform());
  }

 private:
  uint64_t m_state;
};

// What one synthetic stream instance did.
struct StreamShape {
  double iops = 10000;
  double read_share = 1;     // 0..1
  double read_mean_us = 90;  // the median of a lognormal
  double write_mean_us = 30;
  uint64_t block_bytes = 8192;
  uint64_t interval_ns = 0;  // 0: no series
};

constexpr uint64_t k_elapsed_ns = 200'000'000;  // 0.2 s per synthetic step: enough samples, fast

// Samples recorded into real statistics; with an interval series, the last interval is a 4 ms
// tail completing IOs at twice the rate (the spike the report must not draw).
workload::WorkloadResult synthesize(const StreamShape& s, uint64_t seed) {
  Rng rng(seed);
  workload::WorkloadResult r;
  const uint64_t tail_ns = s.interval_ns > 0 ? 4'000'000 : 0;
  r.elapsed_ns = k_elapsed_ns + tail_ns;
  const auto n = static_cast<uint64_t>(s.iops * static_cast<double>(k_elapsed_ns) / 1e9);
  const auto n_tail = static_cast<uint64_t>(2 * s.iops * static_cast<double>(tail_ns) / 1e9);
  workload::IntervalSample current;
  // Each interval's own 99 %, exact maximum and stddev per direction, as the runner records them.
  stats::LatencyHistogram histogram[2];
  stats::LatencyMoments moments[2];
  const auto close = [&] {
    for (int d = 0; d < 2; ++d) {
      current.p99_ns[d] = histogram[d].value_at_percentile_ns(99);
      current.max_ns[d] = moments[d].count > 0 ? moments[d].max_ns : 0;
      current.stddev_ns[d] = moments[d].stddev_ns();
      histogram[d] = stats::LatencyHistogram{};
      moments[d] = stats::LatencyMoments{};
    }
    current.has_p99 = true;
    r.intervals.push_back(current);
  };
  for (uint64_t i = 0; i < n + n_tail; ++i) {
    const bool read = rng.uniform() < s.read_share;
    const double median_ns = (read ? s.read_mean_us : s.write_mean_us) * 1000;
    const double tail = rng.uniform() < 0.001 ? 8.0 : 1.0;  // one IO in 1000 is slow
    const auto ns = static_cast<uint64_t>(median_ns * std::exp(0.35 * rng.normal()) * tail);
    (read ? r.stats.read : r.stats.write).record(s.block_bytes, ns);
    if (s.interval_ns == 0) continue;
    const uint64_t at_ns = i < n ? i * k_elapsed_ns / n : k_elapsed_ns + (i - n + 1) * tail_ns / n_tail;
    while (at_ns >= current.end_offset_ns + s.interval_ns && current.end_offset_ns + s.interval_ns <= k_elapsed_ns) {
      current.end_offset_ns += s.interval_ns;
      close();
      current = workload::IntervalSample{};
      current.end_offset_ns = r.intervals.back().end_offset_ns;
    }
    const int d = read ? 0 : 1;
    ++current.ios[d];
    current.bytes[d] += s.block_bytes;
    current.latency_sum_ns[d] += ns;
    histogram[d].record(ns);
    moments[d].record(ns);
  }
  if (s.interval_ns > 0) {
    // The full intervals up to the stop, then the tail when it completed IOs (as the runner).
    while (current.end_offset_ns + s.interval_ns <= k_elapsed_ns) {
      current.end_offset_ns += s.interval_ns;
      close();
      current = workload::IntervalSample{};
      current.end_offset_ns = r.intervals.back().end_offset_ns;
    }
    current.end_offset_ns = r.elapsed_ns;
    if (current.ios[0] + current.ios[1] > 0) close();
  }
  return r;
}

scenario::StepInstance instance(const std::string& stream, uint32_t target, const StreamShape& s, uint64_t seed) {
  scenario::StepInstance in{stream, target, {}};
  in.spec.seed = seed;
  in.spec.interval_ns = s.interval_ns;
  in.spec.block_sizes = {{s.block_bytes, 1.0}};
  return in;
}

json identity(size_t i) {
  return json{{"path", fmt::format("/dev/loop{}", i)},
              {"scratch", false},
              {"transport", "loop"},
              {"vendor", "Linux"},
              {"model", "Loop device"},
              {"serial", fmt::format("LOOP{:04}", i)},
              {"firmware", "6.1"},
              {"capacity_bytes", uint64_t{1} << 30}};
}

json document(const std::string& name, const std::string& title, size_t targets, json phases) {
  json ids = json::array();
  for (size_t i = 0; i < targets; ++i) ids.push_back(identity(i));
  return json{{"kind", "ptsuite.scenario"},
              {"schema_version", 1},
              {"tool", {{"name", "ptsuite"}, {"version", "0.0.0-test"}, {"git_revision", "synthetic"}}},
              {"scenario",
               {{"name", name},
                {"title", title},
                {"description", "A synthetic document at the published reviews' scale (tests/support)."},
                {"reconstructs", "the published reviews' " + title},
                {"ptsuite_choices", {"synthetic values: a seeded lognormal per stream"}},
                {"roles", json::array()},
                {"quick", false},
                {"source_sha256", std::string(64, 'a')}}},
              {"config", {{"engine", "libaio"}, {"seed", 1}, {"quick", false}, {"tested_by", "ptsuite tests"}}},
              {"report", report::scenario_report_options_json({})},
              {"targets", std::move(ids)},
              {"started_utc", "2026-11-26T18:00:00Z"},
              {"finished_utc", "2026-11-26T19:00:00Z"},
              {"status", "complete"},
              {"phases", std::move(phases)}};
}

json phase(const std::string& name, const std::string& kind, json steps) {
  return json{{"name", name}, {"kind", kind}, {"duration_ns", 30'000'000'000ULL}, {"steps", std::move(steps)}};
}

}  // namespace

json scenario_txq_sweep(size_t targets, size_t points) {
  json steps = json::array();
  for (size_t p = 0; p < points; ++p) {
    const uint32_t tc = 2u << (p / 4);
    const uint32_t qd = 2u << (p % 4);
    std::vector<scenario::StepInstance> in;
    std::vector<workload::WorkloadResult> res;
    for (uint32_t t = 0; t < targets; ++t) {
      // Throughput grows with TC x QD towards a drive's ceiling; latency with the queue.
      const double oio = tc * qd;
      StreamShape s{90000.0 * (1 + 0.05 * t) * oio / (oio + 24), 0.7, 80 + 6 * oio, 25 + 2 * oio, 8192, 0};
      in.push_back(instance("8k-7030", t, s, p * 100 + t));
      res.push_back(synthesize(s, p * 100 + t));
    }
    steps.push_back(scenario::step_record(in, res, targets, fmt::format("TC {} / QD {}", tc, qd),
                                          json{{"threads", tc}, {"queue_depth", qd}}));
  }
  // A title long enough to take two lines in the page header (the header grows; pages still fit).
  return document("enterprise-synthetic", "8 KiB 70/30 TC x QD sweep on eight drives at the reviews' own scale",
                  targets, json::array({phase("8k-7030", "txq", std::move(steps))}));
}

json scenario_write_pressure(size_t n) {
  json steps = json::array();
  for (size_t i = 0; i < n; ++i) {
    const double mbps = 10.0 * static_cast<double>(i + 1);
    const StreamShape reads{
        60000 - 50.0 * static_cast<double>(i), 1, 95 + 3.0 * static_cast<double>(i), 0, 4096, 100'000'000};
    const StreamShape writes{mbps * 1e6 / 131072, 0, 0, 180 + 4.0 * static_cast<double>(i), 131072, 100'000'000};
    std::vector<scenario::StepInstance> in = {instance("reads", 0, reads, i * 2),
                                              instance("writes", 0, writes, i * 2 + 1)};
    in[1].spec.rate.mb_per_s = mbps;
    std::vector<workload::WorkloadResult> res = {synthesize(reads, i * 2), synthesize(writes, i * 2 + 1)};
    steps.push_back(
        scenario::step_record(in, res, 1, fmt::format("writes {:g} MB/s", mbps), json{{"rate_mbps", mbps}}));
  }
  return document("write-pressure", "write pressure", 1,
                  json::array({phase("pressure", "rate_steps", std::move(steps))}));
}

json scenario_load_curves(size_t curves, size_t targets) {
  json phases = json::array();
  const std::vector<scenario::MixProfile>& profiles = scenario::mix_profiles();
  for (size_t c = 0; c < curves; ++c) {
    const scenario::MixProfile& p = profiles[c % profiles.size()];
    const double read_share = p.read_pct / 100;
    json peak_steps = json::array();
    json curve_steps = json::array();
    for (size_t k = 0; k <= 10; ++k) {
      const double pct = k == 0 ? 100 : 10.0 * static_cast<double>(k);
      std::vector<scenario::StepInstance> in;
      std::vector<workload::WorkloadResult> res;
      for (uint32_t t = 0; t < targets; ++t) {
        const double load = pct / 100;
        // Latency rises steeply towards the peak (an M/M/1-like knee).
        const StreamShape s{150000.0 * (1 - 0.03 * t) * load * (1 - 0.02 * static_cast<double>(c)),
                            read_share,
                            70 / (1.05 - load * 0.95),
                            30 / (1.05 - load * 0.9),
                            8192,
                            0};
        const uint64_t seed = c * 10000 + k * 100 + t;
        in.push_back(instance(k == 0 ? "p" : "c", t, s, seed));
        res.push_back(synthesize(s, seed));
      }
      if (k == 0) {
        peak_steps.push_back(scenario::step_record(in, res, targets, "run", json::object()));
      } else {
        curve_steps.push_back(scenario::step_record(in, res, targets, fmt::format("{:g} % of peak", pct),
                                                    json{{"percent", pct}, {"rate_iops", json::array()}}));
      }
    }
    phases.push_back(phase("peak-" + p.name, "run", std::move(peak_steps)));
    phases.push_back(phase("curve-" + p.name, "rate_ramp", std::move(curve_steps)));
  }
  return document("mixed-profile-curves", "load curves", targets, std::move(phases));
}

}  // namespace ptsuite::test_support
