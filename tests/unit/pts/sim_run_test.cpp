// Full-length PTS on simulated drives in virtual time (docs/sim.md): the IOPS test at the
// spec's lengths (WIPC 2x the capacity, 56 one-minute segments a Round, up to 25 Rounds; NOT
// quick) on a dilated model. An oracle written here, independently of src/pts, takes the
// Round values the record holds and finds the first Round whose window meets the PTS 2.0.2
// rule (data excursion <= 20 %, slope excursion <= 10 % of the window average, every
// tracking variable); the run must have stopped exactly there (the DC500R model at Round 7,
// the NVMe model at Round 6). Each run takes seconds of CPU for 14-30 hours of virtual time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/procedures/registry.hpp>
#include <ptsuite/pts/run_config.hpp>
#include <ptsuite/pts/settings.hpp>
#include <ptsuite/pts/sim_executor.hpp>
#include <ptsuite/pts/sim_model.hpp>
#include <ptsuite/util/embedded.hpp>

namespace ptsuite::pts {
namespace {

using nlohmann::json;

// The PTS 2.0.2 window test (definition 2.1.24), from scratch.
bool window_steady(const std::vector<double>& y, size_t last, size_t window) {
  const size_t first = last + 1 - window;
  double sx = 0, sy = 0, sxy = 0, sxx = 0, lo = y[first], hi = y[first];
  for (size_t i = first; i <= last; ++i) {
    const double x = static_cast<double>(i + 1);
    sx += x;
    sy += y[i];
    sxy += x * y[i];
    sxx += x * x;
    lo = std::min(lo, y[i]);
    hi = std::max(hi, y[i]);
  }
  const double n = static_cast<double>(window);
  const double average = sy / n;
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return hi - lo <= 0.20 * average && std::abs(slope) * (n - 1) <= 0.10 * average;
}

// The first Round (1-based) at which every tracking series is steady; 0 = none.
uint32_t oracle_round(const json& tracking) {
  const size_t rounds = tracking.at(0).at("values").size();
  for (size_t last = 4; last < rounds; ++last) {
    bool all = true;
    for (const json& t : tracking) {
      all = all && window_steady(t.at("values").get<std::vector<double>>(), last, 5);
    }
    if (all) {
      return static_cast<uint32_t>(last + 1);
    }
  }
  return 0;
}

struct FullRun {
  json record;
  uint64_t virtual_ns = 0;
  uint64_t ios = 0;
};

FullRun full_length_iops(const std::string& model, double scale) {
  const json file = json::parse(*embedded_file("sim/" + model + ".json"));
  SimExecutor exec(engine::dilated(load_sim_model(model), scale), SimRunParams{});
  const DefinitionSet& defs = DefinitionSet::embedded();
  const SpecContext spec{"2.0.2", "enterprise"};
  const Settings settings = Settings::build(defs, spec, {}, {});
  TestContext ctx{defs, spec, settings, exec, TargetFacts{exec.geometry().capacity_bytes, 512}};
  FullRun out;
  out.record = make_test("iops")->run(ctx);
  out.virtual_ns = exec.clock().now_ns;
  out.ios = exec.simulated_ios();
  return out;
}

std::string series_text(const json& tracking) {
  std::string s;
  for (const json& t : tracking) {
    s += t.at("name").get<std::string>() + ":";
    for (const json& v : t.at("values")) {
      s += " " + std::to_string(static_cast<int64_t>(v.get<double>()));
    }
    s += "\n";
  }
  return s;
}

TEST(SimFullLength, IopsStopsAtTheRoundTheOracleComputes) {
  const FullRun run = full_length_iops("dc500r", 240);
  const json& phase = run.record.at("phases").at(0);
  const json& tracking = phase.at("tracking");
  const uint32_t expected = oracle_round(tracking);
  const uint32_t rounds_run = phase.at("steady_state").at("rounds_run").get<uint32_t>();
  SCOPED_TRACE(series_text(tracking) + "virtual s " + std::to_string(run.virtual_ns / 1'000'000'000) + ", IOs " +
               std::to_string(run.ios));
  ASSERT_GT(expected, 0u);
  EXPECT_EQ(rounds_run, expected);
  EXPECT_TRUE(phase.at("steady_state").at("attained").get<bool>());
  // Full length: every Round is 56 one-minute segments of virtual time.
  EXPECT_GE(run.virtual_ns, uint64_t{rounds_run} * 56 * 60'000'000'000ULL);
}

// The NVMe model, at its recommended dilation: the run stops where the oracle says (or runs to the
// Round cap of 25 when no window is steady). Issue 41 wants this model to settle only after
// Round 10; it settles earlier today (docs/sim.md: open), which this test records, not hides.
TEST(SimFullLength, TlcNvmeStopsAtTheRoundTheOracleComputes) {
  const FullRun run = full_length_iops("tlc-nvme", 1000);
  const json& phase = run.record.at("phases").at(0);
  const json& tracking = phase.at("tracking");
  const uint32_t expected = oracle_round(tracking);
  const uint32_t rounds_run = phase.at("steady_state").at("rounds_run").get<uint32_t>();
  SCOPED_TRACE(series_text(tracking) + "virtual s " + std::to_string(run.virtual_ns / 1'000'000'000) + ", IOs " +
               std::to_string(run.ios));
  EXPECT_EQ(rounds_run, expected == 0 ? 25u : expected);
  EXPECT_EQ(phase.at("steady_state").at("attained").get<bool>(), expected != 0);
}

}  // namespace
}  // namespace ptsuite::pts

namespace ptsuite::pts {
namespace {

// bench/sim_speed.sh runs this (disabled in the suite: it measures, it does not check): the
// simulated IO path's cost, as simulated IOs per CPU second of this process, for RND 4 KiB
// 100 % read, 100 % write (with GC) and 65/35 at TC 4 / QD 32 on the DC500R model.
TEST(SimSpeed, DISABLED_SimulatedIosPerCpuSecond) {
  const double k = 240;
  for (const double read_pct : {100.0, 0.0, 65.0}) {
    engine::SimDevice d(engine::dilated(load_sim_model("dc500r"), k));
    workload::VirtualClock clock;
    workload::WorkloadSpec ws;
    ws.read_pct = 0;
    ws.pattern = workload::AccessPattern::sequential;
    ws.block_sizes = {{131072, 1.0}};
    ws.limits.bytes = d.capacity_bytes();
    engine::TargetGeometry g;
    g.capacity_bytes = d.capacity_bytes();
    (void)workload::run_simulated_workload(workload::resolve_simulated(ws, g), d, clock, workload::RunControl{});
    ws.pattern = workload::AccessPattern::random;
    ws.read_pct = read_pct;
    ws.block_sizes = {{4096, 1.0}};
    ws.threads = 4;
    ws.queue_depth = 32;
    ws.limits.bytes = 0;
    ws.limits.ios = 20'000'000;
    const workload::WorkloadResult w =
        workload::run_simulated_workload(workload::resolve_simulated(ws, g), d, clock, workload::RunControl{});
    const double cpu_s = w.cpu.user_s + w.cpu.system_s;
    const uint64_t ios = w.stats.read.ios + w.stats.write.ios;
    std::printf("sim_speed read_pct=%.0f ios=%llu cpu_s=%.3f ios_per_cpu_s=%.0f virtual_s=%.0f\n", read_pct,
                static_cast<unsigned long long>(ios), cpu_s, static_cast<double>(ios) / cpu_s,
                static_cast<double>(w.elapsed_ns) / 1e9);
  }
}

}  // namespace
}  // namespace ptsuite::pts
