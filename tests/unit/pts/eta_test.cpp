// The ETA that learns (pts/eta.hpp) and the plan's assumptions about a known target
// (plan_assumptions_for in plan.hpp).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <ptsuite/pts/eta.hpp>
#include <ptsuite/pts/plan.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {
namespace {

using units::k_ns_per_s;

PlanStep step(const std::string& id, const std::string& kind, uint64_t duration_ns, uint64_t bytes = 0,
              bool estimated = false) {
  PlanStep s;
  s.id = id;
  s.kind = kind;
  s.duration_ns = duration_ns;
  s.bytes = bytes;
  s.estimated = estimated;
  return s;
}

// purge (assumed 120 s), WIPC of 1 GB (2 s at an assumed 500 MB/s), then four 1 s segments;
// the best case stops after two of them.
struct Plans {
  Plan best, worst;
  PlanAssumptions assumed;
  Plans() {
    assumed.step_overhead_ns = 0;
    worst.steps = {step("t/main/purge", "purge", 120 * k_ns_per_s),
                   step("t/main/wipc", "segment", 2 * k_ns_per_s, 1'000'000'000, true),
                   step("t/main/r001-s00", "segment", k_ns_per_s),
                   step("t/main/r002-s00", "segment", k_ns_per_s),
                   step("t/main/r003-s00", "segment", k_ns_per_s),
                   step("t/main/r004-s00", "segment", k_ns_per_s)};
    best.steps = {worst.steps[0], worst.steps[1], worst.steps[2], worst.steps[3]};
  }
};

TEST(EtaModel, BeforeAnythingRanItIsThePlan) {
  const Plans p;
  const EtaModel eta(p.best, p.worst, p.assumed);
  const auto left = eta.remaining("t/main/purge", 0);
  ASSERT_TRUE(left.has_value());
  EXPECT_EQ(left->worst_ns, 126 * k_ns_per_s);
  EXPECT_EQ(left->best_ns, 124 * k_ns_per_s);
  EXPECT_EQ(eta.remaining("t/main/purge", 10 * k_ns_per_s)->worst_ns, 116 * k_ns_per_s);  // elapsed in the step
  EXPECT_FALSE(eta.remaining("t/other/step", 0).has_value());
}

// Two phases of 1 s steps, each steady at its second Round at best and at its fourth at worst.
// The first settles at its third: half-way from best to worst, so the second is likely to too.
TEST(EtaModel, TheLikelyTimeLeftCountsLaterPhasesAtTheShareTheFinishedOnesTook) {
  PlanAssumptions assumed;
  Plan best, worst;
  for (const char* phase : {"t/a/", "t/b/"}) {
    for (int r = 1; r <= 4; ++r) {
      const PlanStep s = step(fmt::format("{}r{:03}-s00", phase, r), "segment", k_ns_per_s);
      worst.steps.push_back(s);
      if (r <= 2) best.steps.push_back(s);
    }
  }
  EtaModel eta(best, worst, assumed);
  EXPECT_FALSE(eta.remaining("t/a/r001-s00", 0)->likely_ns.has_value());  // nothing learnt yet
  for (int r = 1; r <= 3; ++r) eta.finished(fmt::format("t/a/r{:03}-s00", r), k_ns_per_s);
  EXPECT_FALSE(eta.remaining("t/a/r004-s00", 0)->likely_ns.has_value());  // t/a has not ended
  const auto left = eta.remaining("t/b/r001-s00", 0);
  ASSERT_TRUE(left.has_value());
  EXPECT_EQ(left->worst_ns, 4 * k_ns_per_s);
  EXPECT_EQ(left->best_ns, 2 * k_ns_per_s);
  EXPECT_EQ(left->likely_ns, 3 * k_ns_per_s);
  // Past the best plan in t/b: half of the worst case's rest of it.
  for (int r = 1; r <= 2; ++r) eta.finished(fmt::format("t/b/r{:03}-s00", r), k_ns_per_s);
  EXPECT_EQ(eta.remaining("t/b/r003-s00", 0)->likely_ns, k_ns_per_s);
  EXPECT_FALSE(eta.remaining("t/b/r003-s00", 0)->best_ns.has_value());
}

TEST(EtaModel, EachAssumptionIsReplacedByItsMeasurement) {
  const Plans p;
  EtaModel eta(p.best, p.worst, p.assumed);
  eta.finished("t/main/purge", k_ns_per_s / 2);  // a discard: half a second, not two minutes
  EXPECT_NE(eta.basis().find("purges measured (1, mean 500ms)"), std::string::npos) << eta.basis();
  eta.finished("t/main/wipc", k_ns_per_s / 4);  // 1 GB in 0.25 s: 4000 MB/s
  EXPECT_NE(eta.basis().find("writes measured at 4000 MB/s"), std::string::npos) << eta.basis();
  eta.finished("t/main/r001-s00", k_ns_per_s + 100'000'000);  // 100 ms of overhead
  EXPECT_NE(eta.basis().find("step overhead measured 100ms"), std::string::npos) << eta.basis();
  // Three 1.1 s segments are left in the worst case, one in the best case.
  const auto left = eta.remaining("t/main/r002-s00", 0);
  ASSERT_TRUE(left.has_value());
  EXPECT_EQ(left->worst_ns, 3 * (k_ns_per_s + 100'000'000));
  EXPECT_EQ(left->best_ns, k_ns_per_s + 100'000'000);
  // Past the best plan (Round 3): only the worst case remains.
  EXPECT_FALSE(eta.remaining("t/main/r003-s00", 0)->best_ns.has_value());
}

TEST(EtaModel, ALaterByteLimitedStepIsTimedAtTheMeasuredRate) {
  Plans p;
  p.worst.steps.push_back(step("u/main/wipc", "segment", 4 * k_ns_per_s, 2'000'000'000, true));  // 2 GB
  EtaModel eta(p.best, p.worst, p.assumed);
  eta.finished("t/main/wipc", k_ns_per_s / 4);  // 4000 MB/s
  EXPECT_EQ(eta.remaining("u/main/wipc", 0)->worst_ns, k_ns_per_s / 2);
}

// Issue 37 item 4: write rates are learned per TC x QD: a Latency WIPC at TC 1 / QD 1 is not timed
// at the rate an IOPS WIPC reached at TC 4 / QD 32.
TEST(EtaModel, WriteRatesAreLearnedPerToio) {
  Plans p;
  PlanStep deep = step("a/main/wipc", "segment", 2 * k_ns_per_s, 1'000'000'000, true);
  deep.threads = 4;
  deep.queue_depth = 32;
  PlanStep shallow = step("b/main/wipc", "segment", 3 * k_ns_per_s, 1'000'000'000, true);
  shallow.threads = 1;
  shallow.queue_depth = 1;
  PlanStep deep_again = deep;
  deep_again.id = "c/main/wipc";
  deep_again.bytes = 2'000'000'000;
  p.worst.steps = {deep, shallow, deep_again};
  p.best.steps = p.worst.steps;
  EtaModel eta(p.best, p.worst, p.assumed);
  eta.finished("a/main/wipc", k_ns_per_s / 4);  // 4000 MB/s at TC 4 / QD 32
  // TC 1 / QD 1 keeps its plan (3 s); the next TC 4 / QD 32 write is timed at 4000 MB/s (0.5 s).
  EXPECT_EQ(eta.remaining("b/main/wipc", 0)->worst_ns, 3 * k_ns_per_s + k_ns_per_s / 2);
  EXPECT_NE(eta.basis().find("writes measured at 4000 MB/s at TC 4 / QD 32"), std::string::npos) << eta.basis();
}

// The overhead the run measures scales the plan's model: a heavier segment keeps its larger share.
TEST(EtaModel, MeasuredOverheadsScaleThePlansPerStepOverheads) {
  Plans p;
  p.worst.steps = {step("t/main/r001-s00", "segment", k_ns_per_s), step("t/main/r001-s01", "segment", k_ns_per_s)};
  p.worst.steps[0].overhead_ns = 100'000'000;
  p.worst.steps[1].overhead_ns = 400'000'000;
  p.best.steps = p.worst.steps;
  EtaModel eta(p.best, p.worst, p.assumed);
  EXPECT_EQ(eta.remaining("t/main/r001-s01", 0)->worst_ns, k_ns_per_s + 400'000'000);  // the plan's
  eta.finished("t/main/r001-s00", k_ns_per_s + 200'000'000);                           // twice the plan's 100 ms
  EXPECT_EQ(eta.remaining("t/main/r001-s01", 0)->worst_ns, k_ns_per_s + 800'000'000);
  EXPECT_NE(eta.basis().find("step overhead measured 200ms per segment over 1 segments (2.00x the plan's)"),
            std::string::npos)
      << eta.basis();
}

// A loop with a time limit (WSAT, endurance-write): `n` samples of 60 s, each followed by its
// health snapshot, under a 600 s limit, then a 1 s step of the next test.
Plan time_limited_loop(size_t n) {
  Plan p;
  for (size_t i = 1; i <= n; ++i) {
    PlanStep sample = step(fmt::format("w/main/sample-{:05}", i), "segment", 60 * k_ns_per_s);
    PlanStep health = step(fmt::format("w/main/sample-{:05}-health", i), "health", 0);
    for (PlanStep* s : {&sample, &health}) {
      s->loop_time_limit_ns = 600 * k_ns_per_s;
      s->loop = "w/main";
    }
    p.steps.push_back(sample);
    p.steps.push_back(health);
  }
  p.steps.push_back(step("z/main/r001-s00", "segment", k_ns_per_s));
  return p;
}

// Before anything ran, the loop is the plan's: 10 samples of 60 s fill the 600 s limit.
TEST(EtaModel, ATimeLimitedLoopIsThePlanBeforeItsSamplesAreMeasured) {
  const Plan p = time_limited_loop(10);
  const EtaModel eta(p, p, PlanAssumptions{});
  EXPECT_EQ(eta.remaining("w/main/sample-00001", 0)->worst_ns, 601 * k_ns_per_s);
  EXPECT_EQ(eta.remaining("w/main/sample-00006", 0)->worst_ns, 301 * k_ns_per_s);
}

// Samples that overrun their minute (80 s: a simulated drive's GC drain) reach the 600 s limit
// after 8 of them (7 x 80 = 560 s < 600 s, 8 x 80 = 640 s): the ETA counts those, not the 10 the
// plan holds. After 5 samples (400 s): 3 more of 80 s with their snapshots, then the next test's
// 1 s step with the measured 20 s overhead. Counting every planned sample it would be 5 x 80 s.
TEST(EtaModel, ATimeLimitedLoopStopsCountingAtItsLimit) {
  const Plan p = time_limited_loop(10);
  EtaModel eta(p, p, PlanAssumptions{});
  for (size_t i = 1; i <= 5; ++i) {
    eta.finished(fmt::format("w/main/sample-{:05}", i), 80 * k_ns_per_s);
    eta.finished(fmt::format("w/main/sample-{:05}-health", i), 0);
  }
  EXPECT_EQ(eta.remaining("w/main/sample-00006", 0)->worst_ns, (3 * 80 + 21) * k_ns_per_s);
  // The health snapshot of the sample that reaches the limit still runs; nothing of the loop after it.
  for (size_t i = 6; i <= 8; ++i) {
    eta.finished(fmt::format("w/main/sample-{:05}", i), 80 * k_ns_per_s);
  }
  EXPECT_EQ(eta.remaining("w/main/sample-00008-health", 0)->worst_ns, 21 * k_ns_per_s);
  // A step the run is in counts even when the loop's clock (step times, the procedure counts its
  // segments' own: a little less) says the limit is reached.
  EXPECT_EQ(eta.remaining("w/main/sample-00009", 0)->worst_ns, (80 + 21) * k_ns_per_s);
}

// Samples shorter than the plan's (the plan assumed a 20 s drain in each sample's time, 80 s:
// 8 samples; the drive drains in 0 s: 10 samples fill the 600 s limit): past the plan's last
// sample, as many more as fit under the limit at the last one's time.
TEST(EtaModel, ATimeLimitedLoopOutrunsThePlansSamplesWhenTheyAreShorter) {
  Plan p = time_limited_loop(8);
  PlanAssumptions assumed;
  assumed.overhead_in_elapsed = true;
  for (PlanStep& s : p.steps) {
    if (s.kind == "segment" && s.loop == "w/main") s.overhead_ns = 20 * k_ns_per_s;
  }
  EtaModel eta(p, p, assumed);
  EXPECT_EQ(eta.remaining("w/main/sample-00001", 0)->worst_ns, (8 * 80 + 1) * k_ns_per_s);
  for (size_t i = 1; i <= 6; ++i) {
    eta.finished(fmt::format("w/main/sample-{:05}", i), 60 * k_ns_per_s);
    eta.finished(fmt::format("w/main/sample-{:05}-health", i), 0);
  }
  // 360 s measured: 2 planned samples, then 2 more, of 60 s each; then the next test's 1 s step.
  EXPECT_EQ(eta.remaining("w/main/sample-00007", 0)->worst_ns, (4 * 60 + 1) * k_ns_per_s);
}

// A simulated drive's drain (overhead_in_elapsed) in a time-limited loop is learnt from its
// recent samples: drains growing 10 s a sample (10 .. 100 s) predict the next at 72 s (one mean of
// all: 55 s). 1150 s measured of a 1300 s limit: 2 more samples of 132 s, then the next test's
// 1 s step with the mean drain (55 s).
TEST(EtaModel, ALoopsDrainIsLearntFromItsRecentSamples) {
  Plan p = time_limited_loop(20);
  PlanAssumptions assumed;
  assumed.overhead_in_elapsed = true;
  for (PlanStep& s : p.steps) s.loop_time_limit_ns = s.loop.empty() ? 0 : 1300 * k_ns_per_s;
  EtaModel eta(p, p, assumed);
  uint64_t measured = 0;
  for (size_t i = 1; i <= 10; ++i) {
    eta.finished(fmt::format("w/main/sample-{:05}", i), (60 + 10 * i) * k_ns_per_s);
    measured += 60 + 10 * i;
  }
  ASSERT_EQ(measured, 1150u);
  const uint64_t left = eta.remaining("w/main/sample-00011", 0)->worst_ns;
  EXPECT_GT(left, (2 * 130 + 56) * k_ns_per_s);  // at the mean: 2 x 115 + 56 s
  EXPECT_LT(left, (2 * 135 + 56) * k_ns_per_s);
}

// A segment's drain outside a time-limited loop is the run's ratio of measured to planned, on a
// simulated drive (overhead_in_elapsed) as on a real one: a 10 s planned drain measured 40 s in
// phase a and 5 s in b's first segment is (40 + 5) / 2 = 22.5 s for b's next, not b's own 5 s. (A
// phase's own drain was tried: a phase's first segments drain far more than its later ones, so
// the ETA jumped mid-phase, +72.6 % of the time left early in PTS-E 1.1's xsr/access-3.)
TEST(EtaModel, ADrainOutsideATimeLimitedLoopIsTheRunsNotThePhasesOwn) {
  Plan p;
  for (const char* id : {"a/main/r001-s00", "b/main/r001-s00", "b/main/r001-s01"}) {
    p.steps.push_back(step(id, "segment", k_ns_per_s));
    p.steps.back().overhead_ns = 10 * k_ns_per_s;
  }
  for (const bool in_elapsed : {true, false}) {
    SCOPED_TRACE(in_elapsed);
    PlanAssumptions assumed;
    assumed.overhead_in_elapsed = in_elapsed;
    EtaModel eta(p, p, assumed);
    EXPECT_EQ(eta.remaining("a/main/r001-s00", 0)->worst_ns, 3 * 11 * k_ns_per_s);  // the plan's
    eta.finished("a/main/r001-s00", 41 * k_ns_per_s);
    EXPECT_EQ(eta.remaining("b/main/r001-s00", 0)->worst_ns, 2 * 41 * k_ns_per_s);
    eta.finished("b/main/r001-s00", 6 * k_ns_per_s);
    EXPECT_EQ(eta.remaining("b/main/r001-s01", 0)->worst_ns, 23'500'000'000u);
  }
}

device::DeviceIdentity identity(device::Transport t, uint64_t capacity_bytes) {
  device::DeviceIdentity id;
  id.transport = t;
  id.capacity_bytes = capacity_bytes;
  id.purge.discard = t == device::Transport::loop || t == device::Transport::file;
  return id;
}

TEST(PlanAssumptions, AScratchTargetsPurgeIsADiscardOfSeconds) {
  const PlanAssumptions a = plan_assumptions_for(identity(device::Transport::loop, 1ull << 30), "auto");
  EXPECT_LT(a.purge_ns, 3 * k_ns_per_s);
  EXPECT_NE(a.purge_basis.find("a discard"), std::string::npos) << a.purge_basis;
  EXPECT_GT(a.step_overhead_ns, 0u);
  EXPECT_NE(a.write_basis.find("loop"), std::string::npos);
}

TEST(PlanAssumptions, TheDrivesOwnEstimatesAreUsedWhereItGivesThem) {
  device::DeviceIdentity ata = identity(device::Transport::ata, 1ull << 40);
  ata.purge.ata_security_erase = true;
  ata.ata_security = device::AtaSecurity{};
  ata.ata_security->supported = true;
  ata.ata_security->erase_minutes = 6;
  ata.ata_security->enhanced_erase_supported = true;
  ata.ata_security->enhanced_erase_minutes = 2;
  const PlanAssumptions a = plan_assumptions_for(ata, "ata-security-erase");
  EXPECT_EQ(a.purge_ns, 120 * k_ns_per_s);
  EXPECT_NE(a.purge_basis.find("IDENTIFY word 90"), std::string::npos) << a.purge_basis;

  device::DeviceIdentity nvme = identity(device::Transport::nvme, 1ull << 40);
  nvme.purge.nvme_sanitize_block = true;
  nvme.purge.nvme_sanitize_block_s = 95;
  const PlanAssumptions s = plan_assumptions_for(nvme, "auto");
  EXPECT_EQ(s.purge_ns, 95 * k_ns_per_s);
  EXPECT_NE(s.purge_basis.find("Sanitize Status log"), std::string::npos) << s.purge_basis;
  // No estimate (Format NVM): the 2-minute assumption, said as such.
  nvme.purge = {};
  nvme.purge.nvme_format = true;
  const PlanAssumptions f = plan_assumptions_for(nvme, "auto");
  EXPECT_EQ(f.purge_ns, 120 * k_ns_per_s);
  EXPECT_NE(f.purge_basis.find("assumed"), std::string::npos);
  EXPECT_EQ(plan_assumptions_for(nvme, "none").purge_ns, 0u);
}

}  // namespace
}  // namespace ptsuite::pts
