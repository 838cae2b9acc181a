#include "support/scenario_fixture.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/scenario/profiles.hpp>
#include <ptsuite/scenario/scenario_runner.hpp>
#include <ptsuite/stats/latency_stats.hpp>

#include "support/report_fixtures.hpp"

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
  uint64_t interval_ns = 0;           // 0: no series
  uint64_t elapsed_ns = 200'000'000;  // 0.2 s per synthetic step: enough samples, fast
};

// Samples recorded into real statistics; with an interval series, the last interval is a 4 ms
// tail completing IOs at twice the rate (the spike the report must not draw).
workload::WorkloadResult synthesize(const StreamShape& s, uint64_t seed) {
  Rng rng(seed);
  const uint64_t k_elapsed_ns = s.elapsed_ns;
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

// The generator coordinates of the synthetic steps (results/scenario_writers.hpp).
results::ScenarioStepX txq_x(uint32_t threads, uint32_t queue_depth) {
  results::ScenarioStepX x;
  x.threads = threads;
  x.queue_depth = queue_depth;
  return x;
}

results::ScenarioStepX rate_x(double mb_per_s) {
  results::ScenarioStepX x;
  x.rate_mbps = mb_per_s;
  return x;
}

results::ScenarioStepX ramp_x(double percent) {
  results::ScenarioStepX x;
  x.percent = percent;
  x.instance_rates_iops = std::vector<double>{};
  return x;
}

results::ScenarioStepX app_x(const std::string& app) {
  results::ScenarioStepX x;
  x.app = app;
  return x;
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
    steps.push_back(scenario::step_record(in, res, targets, fmt::format("TC {} / QD {}", tc, qd), txq_x(tc, qd)));
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
    steps.push_back(scenario::step_record(in, res, 1, fmt::format("writes {:g} MB/s", mbps), rate_x(mbps)));
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
        peak_steps.push_back(scenario::step_record(in, res, targets, "run", {}));
      } else {
        curve_steps.push_back(scenario::step_record(in, res, targets, fmt::format("{:g} % of peak", pct), ramp_x(pct)));
      }
    }
    phases.push_back(phase("peak-" + p.name, "run", std::move(peak_steps)));
    phases.push_back(phase("curve-" + p.name, "rate_ramp", std::move(curve_steps)));
  }
  return document("mixed-profile-curves", "load curves", targets, std::move(phases));
}

json scenario_mixed(size_t app_instances, size_t stream_targets, size_t seconds) {
  std::vector<scenario::StepInstance> in;
  std::vector<workload::WorkloadResult> res;
  for (size_t t = 0; t < stream_targets; ++t) {
    StreamShape s{
        2000.0 * (1 + 0.1 * static_cast<double>(t)), 0.7, 120, 40, 4096, 1'000'000'000, seconds * 1'000'000'000};
    in.push_back(instance("neighbour", static_cast<uint32_t>(app_instances + t), s, 7000 + t));
    res.push_back(synthesize(s, 7000 + t));
  }
  json step = scenario::step_record(in, res, app_instances + stream_targets, "with pgbench", app_x("pgbench"));
  results::AppRun run = app_run_fixture("pgbench", app_instances);
  // One progress line a second over the whole period, TPS sagging while the streams write.
  run.aggregate.series.clear();
  for (results::AppInstanceResult& r : run.instances) {
    r.series.clear();
    for (size_t k = 1; k <= seconds; ++k) {
      const double tps = 1500 - 200 * std::sin(static_cast<double>(k) / 5) - 10 * static_cast<double>(r.index);
      r.series.push_back({static_cast<double>(k), tps, 0, 1000 / tps * 1.5, std::nan(""), 0});
    }
  }
  for (size_t k = 0; k < seconds; ++k) {
    results::AppInterval sum = run.instances.front().series[k];
    sum.tps = 0;
    for (const results::AppInstanceResult& r : run.instances) sum.tps += r.series[k].tps;
    run.aggregate.series.push_back(sum);
  }
  json app;
  results::to_json(app, run);
  json ph = phase("db-and-neighbours", "app", json::array({std::move(step)}));
  ph["duration_ns"] = 0;
  ph["app"] = std::move(app);
  json targets = json::array();
  for (size_t i = 0; i < app_instances; ++i) targets.push_back(i);
  ph["app_targets"] = std::move(targets);
  ph["streams_start_ns"] = 120'000;
  return document("mixed", "pgbench next to synthetic neighbours", app_instances + stream_targets,
                  json::array({std::move(ph)}));
}

}  // namespace ptsuite::test_support
