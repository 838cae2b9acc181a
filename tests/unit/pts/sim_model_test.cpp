// The simulated drives against the figures they were fitted to (seed 004, the Kingston DC500R /
// DC500M review, as quoted in issue 41): each model, dilated to the size it was fitted at, must
// reproduce FOB 4 KiB random write, the saturated level of 4 KiB random writes and 4 KiB random
// read within 10 % (TC 4 / QD 32), and the CBW MaxIOPS point by the knee rule within 15 % in
// IOPS and ART (SeedCbw: the shipped 75 us read/write turnaround). SeedCbwWithMerge keeps the
// fit tried before it (a 450 us read-modify-write merge, not shipped: its IOPS level within
// 15 %, not its ART; docs/sim.md). Plus the model files themselves: every parameter has a value
// and a source, and a missing model names the ones there are.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include <ptsuite/engine/sim_device.hpp>
#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/pts/sim_model.hpp>
#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/sim_runner.hpp>

namespace ptsuite::pts {
namespace {

using nlohmann::json;

struct Measured {
  double iops = 0;
  double mean_latency_us = 0;
};

double recommended_scale(const std::string& name) {
  const json j = json::parse(*embedded_file("sim/" + name + ".json"));
  return j.at("recommended_scale").at("value").get<double>();
}

// One workload on the drive in virtual time (512 B logical blocks, as SimExecutor reports: the
// odd CBW sizes align to 512 B): its IOPS and mean latency.
Measured run_spec(engine::SimDevice& d, workload::VirtualClock& clock, const workload::WorkloadSpec& ws) {
  engine::TargetGeometry g;
  g.capacity_bytes = d.capacity_bytes();
  const workload::WorkloadResult w =
      workload::run_simulated_workload(workload::resolve_simulated(ws, g), d, clock, workload::RunControl{});
  const uint64_t ios = w.stats.read.ios + w.stats.write.ios;
  const auto latency_sum = static_cast<double>(w.stats.read.latency.sum_ns + w.stats.write.latency.sum_ns);
  return {static_cast<double>(ios) * 1e9 / static_cast<double>(w.elapsed_ns),
          latency_sum / static_cast<double>(ios) / 1e3};
}

// One TC 4 / QD 32 workload on the drive in virtual time.
Measured run(engine::SimDevice& d, workload::VirtualClock& clock, workload::AccessPattern pattern, double read_pct,
             uint64_t block_bytes, uint64_t duration_ns, uint64_t bytes = 0) {
  workload::WorkloadSpec ws;
  ws.pattern = pattern;
  ws.read_pct = read_pct;
  ws.block_sizes = {{block_bytes, 1.0}};
  ws.threads = 4;
  ws.queue_depth = 32;
  ws.limits.duration_ns = duration_ns;
  ws.limits.bytes = bytes;
  ws.seed = 7;
  ws.engine = "sim";
  return run_spec(d, clock, ws);
}

struct SeedFigures {
  const char* model;
  double fob_write_iops;
  double saturated_write_iops;
  double random_read_iops;
};

class SeedDrive : public ::testing::TestWithParam<SeedFigures> {};

TEST_P(SeedDrive, ReproducesTheReviewWithinTenPercent) {
  const SeedFigures& f = GetParam();
  const double k = recommended_scale(f.model);
  engine::SimDevice d(engine::dilated(load_sim_model(f.model), k));
  workload::VirtualClock clock;
  constexpr uint64_t k_s = 1'000'000'000;
  using workload::AccessPattern;
  const Measured fob = run(d, clock, AccessPattern::random, 0, 4096, 600 * k_s);
  EXPECT_NEAR(fob.iops * k, f.fob_write_iops, 0.10 * f.fob_write_iops);
  d.format(clock.now_ns);
  (void)run(d, clock, AccessPattern::sequential, 0, 131072, 0, 2 * d.capacity_bytes());  // WIPC
  const Measured read = run(d, clock, AccessPattern::random, 100, 4096, 60 * k_s);
  EXPECT_NEAR(read.iops * k, f.random_read_iops, 0.10 * f.random_read_iops);
  (void)run(d, clock, AccessPattern::random, 0, 4096, 0, 4 * d.capacity_bytes());  // to saturation
  const Measured saturated = run(d, clock, AccessPattern::random, 0, 4096, 600 * k_s);
  EXPECT_NEAR(saturated.iops * k, f.saturated_write_iops, 0.10 * f.saturated_write_iops);
  EXPECT_GT(d.counters().write_amplification(), 1.2);
  // TRIM of the whole drive returns it to its FOB write rate, once the write buffer's saturated
  // units (16 MiB: ~37 s of die work with their GC at dilation 240) are programmed: the drive
  // idles 120 s first. (Unpaced GC hid most of that work in the long drain of the IOs stuck
  // behind a whole-block GC at the end of the saturated run; paced GC drains in ~1 s.)
  d.trim(0, d.capacity_bytes());
  clock.now_ns += 120 * k_s;
  const Measured trimmed = run(d, clock, AccessPattern::random, 0, 4096, 600 * k_s);
  EXPECT_NEAR(trimmed.iops, fob.iops, 0.10 * fob.iops);
  std::printf("SeedDrive %s: FOB %.0f, 4 KiB read %.0f, saturated %.0f IOPS (WA %.2f), after TRIM %.0f\n", f.model,
              fob.iops * k, read.iops * k, saturated.iops * k, d.counters().write_amplification(), trimmed.iops * k);
}

// Seed 004: FOB 70,000 / 88,000, saturated 22,000 / 77,000-78,000, 4 KiB read ~98,000 (SATA).
INSTANTIATE_TEST_SUITE_P(Seed004, SeedDrive,
                         ::testing::Values(SeedFigures{"dc500r", 70'000, 22'000, 98'000},
                                           SeedFigures{"dc500m", 88'000, 77'500, 98'000}),
                         [](const ::testing::TestParamInfo<SeedFigures>& p) { return std::string(p.param.model); });

// Seed 004's CBW MaxIOPS point with read-modify-write of partial units (merge_ns 450 us, not in
// the shipped models: docs/sim.md): the CBW access pattern on each dilated model (precondition at
// 100 % W, then the procedure's TC x QD grid from high to low TOIO at 40/60 R/W), MaxIOPS
// picked by the product's rule (max_point_of, cbw.json's art-ceiling and its 5 ms ceiling, on
// the undilated drive's IOPS and ART). ~2-3 s for both models.
// The CBW access pattern of pts/tests/cbw.json (block-size mix, zones, R/W mix) at one TOIO.
workload::WorkloadSpec cbw_workload(double read_pct, uint32_t threads, uint32_t queue_depth, uint64_t duration_ns,
                                    uint64_t bytes) {
  const json cbw = json::parse(*embedded_file("tests/cbw.json"));
  workload::WorkloadSpec ws;
  ws.pattern = workload::AccessPattern::random;
  ws.read_pct = read_pct;
  ws.block_sizes.clear();
  for (const json& b : cbw.at("block_size_mix").at("value")) {
    ws.block_sizes.push_back(
        {units::parse_size_bytes(b.at("block_size").get<std::string>(), "block_size"), b.at("pct").get<double>()});
  }
  for (const json& z : cbw.at("zones").at("value")) {
    ws.zones.push_back({z.at("io_pct").get<double>(), z.at("range_pct").get<double>()});
  }
  ws.threads = threads;
  ws.queue_depth = queue_depth;
  ws.limits.duration_ns = duration_ns;
  ws.limits.bytes = bytes;
  ws.seed = 7;
  ws.engine = "sim";
  return ws;
}

struct CbwPoint {
  const char* model;
  double iops;
  double art_us;
};

// The CBW grid on a dilated model (undilated IOPS and ART): precondition CBW at 100 % W, TC 32 /
// QD 32, 16x the capacity (the procedure's preconditioning and demand-variation Rounds write many
// capacities; the zoned pattern fills its cold 80 % slowly), then the 7 x 7 TC x QD grid high to
// low at 40/60 in 3-minute segments (3x the procedure's: less noise, same plateau).
std::vector<GridPoint> cbw_grid(const engine::SimModel& model, double k) {
  engine::SimDevice d(engine::dilated(model, k));
  workload::VirtualClock clock;
  constexpr uint64_t k_s = 1'000'000'000;
  constexpr uint64_t k_segment_s = 180;
  const json cbw = json::parse(*embedded_file("tests/cbw.json"));
  (void)run_spec(d, clock, cbw_workload(0, 32, 32, 0, 16 * d.capacity_bytes()));
  std::vector<GridPoint> grid;
  for (const json& tc : cbw.at("thread_counts").at("value")) {
    for (const json& qd : cbw.at("queue_depths").at("value")) {
      const Measured m =
          run_spec(d, clock, cbw_workload(40, tc.get<uint32_t>(), qd.get<uint32_t>(), k_segment_s * k_s, 0));
      grid.push_back({grid.size(), tc.get<uint32_t>(), qd.get<uint32_t>(), m.iops * k, m.mean_latency_us * 1e3 / k});
    }
  }
  return grid;
}

// cbw.json's MaxIOPS rule by name, with its ceiling and knee fraction.
std::pair<const GridPoint*, std::string> cbw_max_point(const std::vector<GridPoint>& grid, const std::string& rule) {
  const json cbw = json::parse(*embedded_file("tests/cbw.json"));
  const uint64_t ceiling_ns =
      units::parse_duration_ns(cbw.at("max_iops_art_ceiling").at("value").get<std::string>(), "x");
  return max_point_of(grid, ceiling_ns, rule, cbw.at("max_iops_knee_fraction").at("value").get<double>());
}

class SeedCbwWithMerge : public ::testing::TestWithParam<CbwPoint> {};

TEST_P(SeedCbwWithMerge, AnUnshippedMergeBringsTheMaxIopsLevelWithinFifteenPercentNotItsArt) {
  const CbwPoint& f = GetParam();
  // The shipped models leave merge_ns out (docs/sim.md: with it the full-length IOPS test's
  // 0.5 KiB writes keep dc500r from settling); this is the fit that reproduces the CBW IOPS.
  engine::SimModel model = load_sim_model(f.model);
  model.merge_ns = 450'000;
  model.turnaround_ns = 0;  // the merge was the fit tried before the shipped turnaround
  // The merge was fitted with whole-block GC; with the shipped paced GC (4 units a step) dc500r's
  // knee reads 13,364 IOPS, 0.745x the published MaxIOPS (docs/sim.md, Open): not re-fitted.
  model.gc_units_per_step = 0;
  const std::vector<GridPoint> grid = cbw_grid(model, recommended_scale(f.model));
  const json cbw = json::parse(*embedded_file("tests/cbw.json"));
  const auto [max_point, why] = cbw_max_point(grid, cbw.at("max_iops_rule").at("value").get<std::string>());
  EXPECT_NEAR(max_point->iops, f.iops, 0.15 * f.iops)
      << why << " at TC " << max_point->threads << " / QD " << max_point->queue_depth;
  // The published ART is not reproduced (docs/sim.md: the model's IOPS is flat from ~8 IOs in
  // flight, so the rule's pick lands where segment noise puts the highest IOPS, at a longer
  // ART). What the model does show: at 8 IOs in flight (TC 1 / QD 8, Little's law for the
  // published points) IOPS is already within 25 % of the published MaxIOPS and ART is under
  // the published ART x 1.15: the knee is where the review measured.
  const auto knee =
      std::find_if(grid.begin(), grid.end(), [](const GridPoint& p) { return p.threads == 1 && p.queue_depth == 8; });
  ASSERT_NE(knee, grid.end());
  EXPECT_GT(knee->iops, 0.75 * f.iops);
  EXPECT_LT(knee->latency_mean_ns / 1e3, 1.15 * f.art_us);
}

INSTANTIATE_TEST_SUITE_P(Seed004, SeedCbwWithMerge,
                         ::testing::Values(CbwPoint{"dc500r", 17'949, 594}, CbwPoint{"dc500m", 18'880, 448}),
                         [](const ::testing::TestParamInfo<CbwPoint>& p) { return std::string(p.param.model); });

// Seed 004's CBW MaxIOPS point on the shipped models (read/write turnaround 75 us, paced GC
// into a GC block apart from host writes): each is a near-serial server with a sharp knee, and
// its knee by AnandTech's rule (cbw.max_iops_rule=knee, 95 % of the grid's highest IOPS at the
// lowest TOIO) is the published MaxIOPS point within 15 % in IOPS and ART (measured 2026-12-03,
// docs/sim.md: dc500r 18,951 at 633 us, TC 2 / QD 6; dc500m 18,057 at 443 us, TC 2 / QD 4).
// The spec's rule (art-ceiling) keeps the IOPS level but lands on the plateau, past the knee.
class SeedCbw : public ::testing::TestWithParam<CbwPoint> {};

TEST_P(SeedCbw, TheKneeIsThePublishedMaxIopsPointWithinFifteenPercent) {
  const CbwPoint& f = GetParam();
  const std::vector<GridPoint> grid = cbw_grid(load_sim_model(f.model), recommended_scale(f.model));
  const auto [knee, why] = cbw_max_point(grid, "knee");
  EXPECT_NEAR(knee->iops, f.iops, 0.15 * f.iops) << why;
  EXPECT_NEAR(knee->latency_mean_ns / 1e3, f.art_us, 0.15 * f.art_us) << why;
  const auto [highest, ceiling_why] = cbw_max_point(grid, "art-ceiling");
  EXPECT_NEAR(highest->iops, f.iops, 0.15 * f.iops) << ceiling_why;
  EXPECT_GT(highest->latency_mean_ns, knee->latency_mean_ns) << ceiling_why;
  std::printf(
      "SeedCbw %s: knee %.0f IOPS at %.0f us (TC %u / QD %u); art-ceiling %.0f IOPS at %.0f us (TC %u / QD %u)\n",
      f.model, knee->iops, knee->latency_mean_ns / 1e3, knee->threads, knee->queue_depth, highest->iops,
      highest->latency_mean_ns / 1e3, highest->threads, highest->queue_depth);
}

INSTANTIATE_TEST_SUITE_P(Seed004, SeedCbw,
                         ::testing::Values(CbwPoint{"dc500r", 17'949, 594}, CbwPoint{"dc500m", 18'880, 448}),
                         [](const ::testing::TestParamInfo<CbwPoint>& p) { return std::string(p.param.model); });

TEST(SimModels, EveryModelLoadsAndEveryParameterSaysWhereItCameFrom) {
  const std::vector<std::string> names = sim_model_names();
  EXPECT_EQ(names, (std::vector<std::string>{"dc500m", "dc500r", "tlc-nvme", "tlc-nvme-61t"}));
  for (const std::string& name : names) {
    const json j = json::parse(*embedded_file("sim/" + name + ".json"));
    for (const auto& [key, entry] : j.at("parameters").items()) {
      EXPECT_FALSE(entry.at("source").get<std::string>().empty()) << name << " " << key;
    }
    const engine::SimModel m = load_sim_model(name);
    EXPECT_EQ(m.name, name);
    EXPECT_EQ(m.capacity_bytes, j.at("parameters").at("capacity_bytes").at("value").get<uint64_t>());
  }
}

// The optional mechanism is off (0) in a model that leaves it out: dc500r / dc500m / tlc-nvme
// keep their figures; a model that sets it gets it.
TEST(SimModels, AnOptionalMechanismLeftOutIsOff) {
  for (const std::string& name : sim_model_names()) {
    EXPECT_EQ(load_sim_model(name).background_period_s, 0) << name;
    EXPECT_EQ(load_sim_model(name).background_load, 0) << name;
  }
  for (const std::string& name : sim_model_names()) {
    EXPECT_EQ(load_sim_model(name).merge_ns, 0) << name;  // read-modify-write of partial units: off
  }
  // The read/write turnaround: on in the SATA models fitted to seed 004's CBW point, off (left
  // out) in the NVMe ones.
  EXPECT_EQ(load_sim_model("dc500r").turnaround_ns, 75'000u);
  EXPECT_EQ(load_sim_model("dc500m").turnaround_ns, 75'000u);
  EXPECT_EQ(load_sim_model("tlc-nvme").turnaround_ns, 0u);
  EXPECT_EQ(load_sim_model("tlc-nvme-61t").turnaround_ns, 0u);
  json paced = json::parse(*embedded_file("sim/dc500r.json"));
  paced["parameters"].erase("gc_units_per_step");
  EXPECT_EQ(sim_model_from_json(paced, "dc500r", "sim/dc500r.json").gc_units_per_step, 0u);  // whole blocks
  json j = json::parse(*embedded_file("sim/dc500r.json"));
  j["parameters"]["background_period_s"] = {{"value", 600}, {"source", "x"}};
  EXPECT_EQ(sim_model_from_json(j, "dc500r", "sim/dc500r.json").background_period_s, 600);
}

TEST(SimModels, AMissingModelNamesTheModelsThereAre) {
  try {
    (void)load_sim_model("dc600x");
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("sim.model"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("dc500r"), std::string::npos) << e.what();
  }
}

TEST(SimModels, AParameterWithoutItsSourceIsRefused) {
  json j = json::parse(*embedded_file("sim/dc500r.json"));
  j["parameters"]["read_ns"].erase("source");
  EXPECT_THROW((void)sim_model_from_json(j, "dc500r", "sim/dc500r.json"), Error);
  json unknown = json::parse(*embedded_file("sim/dc500r.json"));
  unknown["parameters"]["slc_cache_bytes"] = {{"value", 1}, {"source", "x"}};
  EXPECT_THROW((void)sim_model_from_json(unknown, "dc500r", "sim/dc500r.json"), Error);
}

}  // namespace
}  // namespace ptsuite::pts
