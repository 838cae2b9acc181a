#include <gtest/gtest.h>

#include <algorithm>

#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/run.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {
namespace {

constexpr uint64_t k_min_ns = 60'000'000'000ull;
using units::k_gib;

struct PlanFixture {
  Settings settings;
  explicit PlanFixture(std::vector<std::pair<std::string, std::string>> overrides = {},
                       std::vector<std::string> presets = {})
      : settings(Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, presets, overrides)) {}
  Plan plan(const std::vector<std::string>& tests, PlanCase c, uint64_t capacity = 100 * k_gib) {
    return make_plan(tests, DefinitionSet::embedded(), {"2.0.2", "enterprise"}, settings, {capacity, 512}, c,
                     PlanAssumptions{});
  }
};

size_t count(const Plan& p, const std::string& kind) {
  return static_cast<size_t>(
      std::count_if(p.steps.begin(), p.steps.end(), [&](const PlanStep& s) { return s.kind == kind; }));
}

TEST(Plan, IopsBestAndWorstCaseStepCountsAndDurations) {
  PlanFixture f;
  const Plan best = f.plan({"iops"}, PlanCase::best);
  const Plan worst = f.plan({"iops"}, PlanCase::worst);
  EXPECT_EQ(count(best, "segment"), 1u + 5u * 56u);    // WIPC + 5 Rounds
  EXPECT_EQ(count(worst, "segment"), 1u + 25u * 56u);  // WIPC + 25 Rounds
  EXPECT_EQ(count(worst, "purge"), 1u);
  EXPECT_EQ(count(worst, "health"), 25u);
  // WIPC: 2 x 100 GiB at 500 MB/s, estimated.
  const PlanStep& wipc = worst.steps[1];
  EXPECT_EQ(wipc.id, "iops/main/wipc");
  EXPECT_EQ(wipc.bytes, 200 * k_gib);
  EXPECT_TRUE(wipc.estimated);
  EXPECT_NEAR(static_cast<double>(wipc.duration_ns) / 1e9, 200.0 * k_gib / 500e6, 1.0);
  EXPECT_EQ(wipc.threads, 4u);
  EXPECT_EQ(wipc.queue_depth, 32u);
  // The 25-round worst case: 25 x 56 minutes of segments (the ~23.3 h of the spec) + WIPC + purge.
  EXPECT_EQ(worst.total_ns, 25 * 56 * k_min_ns + wipc.duration_ns + PlanAssumptions{}.purge_ns);
  EXPECT_EQ(best.total_ns, 5 * 56 * k_min_ns + wipc.duration_ns + PlanAssumptions{}.purge_ns);
}

// PlanAssumptions::sequential_write_mb_per_s (a simulated drive's FOB rate): a sequential
// byte-limited step (IOPS's WIPC, 128 KiB SEQ) is planned at it, in both cases; a random one
// (WSAT's 4 KiB samples toward 4x the capacity) keeps write_mb_per_s. Unset: both at the latter.
TEST(Plan, SequentialByteLimitedStepsAtTheirOwnRateWhenOneIsGiven) {
  PlanFixture f;
  PlanAssumptions a;
  a.write_mb_per_s = 100;
  a.sequential_write_mb_per_s = 400;
  const auto with = [&](const std::string& test, PlanCase c, const PlanAssumptions& assumed) {
    return make_plan({test}, DefinitionSet::embedded(), {"2.0.2", "enterprise"}, f.settings, {10 * k_gib, 512}, c,
                     assumed);
  };
  for (const PlanCase c : {PlanCase::best, PlanCase::worst}) {
    const Plan plan = with("iops", c, a);  // held: a step of a temporary plan would dangle (ASan)
    const PlanStep& wipc = plan.steps[1];
    ASSERT_EQ(wipc.id, "iops/main/wipc");
    EXPECT_NEAR(static_cast<double>(wipc.duration_ns) / 1e9, 20.0 * k_gib / 400e6, 1.0);
    PlanAssumptions unset = a;
    unset.sequential_write_mb_per_s = 0;
    EXPECT_NEAR(static_cast<double>(with("iops", c, unset).steps[1].duration_ns) / 1e9, 20.0 * k_gib / 100e6, 1.0);
  }
  // WSAT's best case: 4 x 10 GiB at 100 MB/s = 429.5 s, 8 one-minute samples (the last one
  // short), then the capture; at 400 MB/s it would be 2.
  EXPECT_EQ(count(with("wsat", PlanCase::best, a), "segment"), 8u + 1u);
}

TEST(Plan, WsatWorstCaseRunsToTheTimeLimitAndBestCaseStopsAtFourFills) {
  PlanFixture f;
  const Plan worst = f.plan({"wsat"}, PlanCase::worst);
  EXPECT_EQ(count(worst, "segment"), 360u + 1u);  // 6 h of 1-minute samples + the capture
  const Plan best = f.plan({"wsat"}, PlanCase::best, 10 * k_gib);
  // 4 x 10 GiB at 500 MB/s = 85.9 s of writing: 2 one-minute samples, then the capture.
  EXPECT_EQ(count(best, "segment"), 2u + 1u);
}

// wsat.stop_rule=steady-state: the check samples swing Round by Round in the worst case, so
// it runs to the Round cap: 25 Rounds x 31 one-minute samples + the 20-minute capture + a
// 2-minute purge = 13 h 17 min; the best case stops at Round 5: 2 h 57 min.
TEST(Plan, WsatSteadyStateStopRuleWorstCaseIsTheRoundCap) {
  PlanFixture f(std::vector<std::pair<std::string, std::string>>{{"wsat.stop_rule", "steady-state"}});
  const Plan worst = f.plan({"wsat"}, PlanCase::worst, 960 * k_gib);
  const Plan best = f.plan({"wsat"}, PlanCase::best, 960 * k_gib);
  EXPECT_EQ(count(worst, "segment"), 25u * 31u + 1u);
  EXPECT_EQ(count(best, "segment"), 5u * 31u + 1u);
  EXPECT_EQ(worst.total_ns, (25 * 31 + 20 + 2) * k_min_ns);
  EXPECT_EQ(best.total_ns, (5 * 31 + 20 + 2) * k_min_ns);
  EXPECT_GE(worst.total_ns, 13 * 60 * k_min_ns);
  EXPECT_LT(best.total_ns, 4 * 60 * k_min_ns);
}

// A WSAT sample's bytes are what one sample moves (1 minute at the assumed 500 MB/s), not the
// 4X target that is left when it starts.
TEST(Plan, AWsatSampleShowsItsOwnBytes) {
  PlanFixture f;
  const Plan worst = f.plan({"wsat"}, PlanCase::worst, 960 * k_gib);
  const auto sample = std::find_if(worst.steps.begin(), worst.steps.end(),
                                   [](const PlanStep& s) { return s.id == "wsat/main/sample-00001"; });
  ASSERT_NE(sample, worst.steps.end());
  EXPECT_EQ(sample->bytes, 30'000'000'000ull);  // 60 s x 500 MB/s
  EXPECT_FALSE(sample->estimated);
}

// A small target: the worst case writes nothing, so WSAT's samples last their full minute and
// the 6-hour limit is 360 of them, not 6 h / (a few MiB at 500 MB/s) samples.
TEST(Plan, ASmallTargetsWsatWorstCaseIsStillSixHoursOfMinuteSamples) {
  PlanFixture f;
  const Plan worst = f.plan({"wsat"}, PlanCase::worst, 4ull << 20);
  EXPECT_EQ(count(worst, "segment"), 360u + 1u);
  const Plan best = f.plan({"wsat"}, PlanCase::best, 4ull << 20);
  EXPECT_EQ(count(best, "segment"), 1u + 1u);  // 16 MiB written in the first sample
}

// The planner marks the loop: endurance-write's samples and their health snapshots carry its
// 600-minute limit, its purge and WIPC do not; WSAT's samples under the steady-state stop rule
// (Round cap, no time stop) are no such loop.
TEST(Plan, TimeLimitedLoopsCarryTheirLimit) {
  PlanFixture f;
  const Plan endurance = f.plan({"endurance-write"}, PlanCase::worst);
  size_t marked = 0;
  for (const PlanStep& s : endurance.steps) {
    const bool sample = s.id.find("/sample-") != std::string::npos;
    EXPECT_EQ(s.loop_time_limit_ns, sample ? 600 * k_min_ns : 0) << s.id;
    EXPECT_EQ(s.loop, sample ? "endurance-write/main" : "") << s.id;
    marked += sample ? 1 : 0;
  }
  EXPECT_EQ(marked, 2u * 600u);  // 600 one-minute samples and their snapshots
  PlanFixture ss(std::vector<std::pair<std::string, std::string>>{{"wsat.stop_rule", "steady-state"}});
  for (const PlanStep& s : ss.plan({"wsat"}, PlanCase::worst, 960 * k_gib).steps) {
    EXPECT_EQ(s.loop_time_limit_ns, 0u) << s.id;
  }
}

TEST(Plan, AllFiveTestsQuickPresetIsShort) {
  PlanFixture quick({}, {"quick"});
  const Plan worst = quick.plan({"iops", "throughput", "latency", "wsat", "cbw"}, PlanCase::worst, k_gib);
  const Plan best = quick.plan({"iops", "throughput", "latency", "wsat", "cbw"}, PlanCase::best, k_gib);
  EXPECT_LT(best.total_ns, worst.total_ns);
  EXPECT_EQ(count(worst, "purge"), 6u);  // iops, tp x2, latency, wsat, cbw
  // Quick worst case stays well under an hour even with assumed 2-minute purges.
  EXPECT_LT(worst.total_ns, 60 * k_min_ns);
  // On the 1 GiB scratch loop device (a newcomer's `ptsuite run --quick`), with the scratch
  // target's assumptions (discard purges, 40 ms per segment), the five core tests plan at most
  // 3.5 minutes, every Round loop to the quick cap included.
  device::DeviceIdentity scratch;
  scratch.transport = device::Transport::loop;
  scratch.capacity_bytes = k_gib;
  scratch.purge.discard = true;
  const Plan on_scratch =
      make_plan({"iops", "throughput", "latency", "wsat", "cbw"}, DefinitionSet::embedded(), {"2.0.2", "enterprise"},
                quick.settings, {k_gib, 512}, PlanCase::worst, plan_assumptions_for(scratch, "auto"));
  EXPECT_LE(on_scratch.total_ns, 210 * 1'000'000'000ull) << static_cast<double>(on_scratch.total_ns) / 1e9 << " s";
}

// Issue 37 item 4: each byte-limited write is timed at its own TC x QD's rate (the Latency WIPC
// at TC 1 / QD 1 is not an IOPS WIPC at TC 4 / QD 32), every segment carries the overhead of
// its shape (a + b x threads + c x MiB of IO buffers), a health snapshot its time, and after each
// test the results document is written whole.
TEST(Plan, StepsCarryTheirToiosRateAndTheirShapesOverhead) {
  PlanFixture f;
  PlanAssumptions a;
  a.write_mb_per_s = 1000;
  a.write_rates = {{1, 1, 100}};
  a.step_overhead_ns = 10'000'000;
  a.overhead_per_thread_ns = 1'000'000;
  a.overhead_per_mib_ns = 2'000'000;
  a.health_ns = 3'000'000;
  a.document_ns_per_byte = 1;
  const Plan p = make_plan({"iops", "latency"}, DefinitionSet::embedded(), {"2.0.2", "enterprise"}, f.settings,
                           {k_gib, 512}, PlanCase::worst, a);
  uint64_t iops_steps = 0;
  uint64_t overheads = 0;
  uint64_t durations = 0;
  for (const PlanStep& s : p.steps) {
    iops_steps += s.id.rfind("iops/", 0) == 0 ? 1 : 0;
    overheads += s.overhead_ns;
    durations += s.duration_ns;
    if (s.id == "latency/main/wipc") {  // 2 GiB at TC 1 / QD 1: 100 MB/s
      EXPECT_NEAR(static_cast<double>(s.duration_ns) / 1e9, 2.0 * k_gib / 100e6, 0.01);
    } else if (s.id == "iops/main/wipc") {  // at TC 4 / QD 32: the default 1000 MB/s
      EXPECT_NEAR(static_cast<double>(s.duration_ns) / 1e9, 2.0 * k_gib / 1000e6, 0.01);
    } else if (s.id == "iops/main/r001-s00") {  // TC 4 x QD 32 x 1 MiB = 128 MiB of buffers
      EXPECT_EQ(s.overhead_ns, 10'000'000u + 4 * 1'000'000u + 128 * 2'000'000u);
    } else if (s.id == "latency/main/r001-s00") {  // TC 1 x QD 1 x 8 KiB
      EXPECT_EQ(s.overhead_ns, 10'000'000u + 1'000'000u + 2'000'000u * 8 / 1024);
    } else if (s.kind == "health") {
      EXPECT_EQ(s.overhead_ns, 3'000'000u);
    }
  }
  // The document: after IOPS its steps so far, after Latency every step, 8 KiB each at 1 ns/byte.
  EXPECT_EQ(p.documents_ns, (iops_steps + p.steps.size()) * k_record_bytes_per_step);
  EXPECT_EQ(p.total_ns, durations + overheads + p.documents_ns);
}

TEST(Plan, PlanDoesNotDependOnAnyDevice) {
  PlanFixture f;
  const Plan a = f.plan({"latency"}, PlanCase::worst);
  const Plan b = f.plan({"latency"}, PlanCase::worst);
  ASSERT_EQ(a.steps.size(), b.steps.size());
  EXPECT_EQ(nlohmann::json(a.steps), nlohmann::json(b.steps));
  EXPECT_EQ(a.steps.back().id, "latency/capture/rt-histogram");
}

// What a run needs from the host (preflight): the largest TC x QD of any step in AIO events,
// and that step's buffers at its largest block size, plus the scratch target and the process.
TEST(Plan, PreflightNeedsComeFromTheLargestStep) {
  const Plan cbw = PlanFixture().plan({"cbw"}, PlanCase::worst);
  uint64_t slots = 0;
  uint64_t buffers = 0;
  for (const PlanStep& s : cbw.steps) {
    slots = std::max<uint64_t>(slots, uint64_t{s.threads} * s.queue_depth);
    buffers = std::max<uint64_t>(buffers, uint64_t{s.threads} * s.queue_depth * s.max_block_bytes);
  }
  EXPECT_EQ(slots, 32u * 32u);  // CBW's TC x QD grid tops out at 32 x 32
  RunConfig config;
  config.target = "/dev/nvme0n1";
  const device::PreflightNeeds needs = preflight_needs(cbw, config);
  EXPECT_EQ(needs.aio_events, slots);
  EXPECT_EQ(needs.memory_bytes, buffers + k_process_overhead_bytes);
  config.target.clear();  // a scratch target lives in RAM
  config.scratch_size_bytes = k_gib;
  EXPECT_EQ(preflight_needs(cbw, config).memory_bytes, buffers + k_gib + k_process_overhead_bytes);
  config.engine = "sync";
  EXPECT_EQ(preflight_needs(cbw, config).aio_events, 0u);
  // Every segment step knows its largest block size.
  const Plan tp = PlanFixture().plan({"throughput"}, PlanCase::best);
  for (const PlanStep& s : tp.steps) {
    if (s.kind == "segment") {
      EXPECT_GE(s.max_block_bytes, 128u * 1024u) << s.id;
    }
  }
}

}  // namespace
}  // namespace ptsuite::pts
