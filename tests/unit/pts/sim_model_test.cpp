// The simulated drives against the figures they were fitted to (seed 004, the Kingston DC500R /
// DC500M review, as quoted in issue 41): each model, dilated to the size it was fitted at, must
// reproduce FOB 4 KiB random write, the saturated level of 4 KiB random writes and 4 KiB random
// read within 10 % (TC 4 / QD 32), and the CBW MaxIOPS point by the knee rule within 15 % in
// IOPS and ART (SeedCbw: the shipped 75 us read/write turnaround, on the grid alone; each prints
// its whole grid, the numbers docs/sim.md quotes). SeedCbwProcedure runs the full CBW procedure
// (PTS 2.0.2, full length) and checks its MaxIOPS point the same way. SeedCbwWithMerge keeps the
// fit tried before it (a 450 us read-modify-write merge, not shipped: its IOPS level within
// 15 %, not its ART; docs/sim.md). Plus the model files themselves: every parameter has a value
// and a source, and a missing model names the ones there are.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include <ptsuite/engine/sim_device.hpp>
#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/procedures/registry.hpp>
#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/pts/run_config.hpp>
#include <ptsuite/pts/settings.hpp>
#include <ptsuite/pts/sim_executor.hpp>
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
  d.format(clock.device_ns());
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
// low at 40/60 in 3-minute segments (3x the procedure's: less noise, same plateau). With the
// drive's write amplification (flash units over host units written) over each of the two parts.
struct CbwGrid {
  std::vector<GridPoint> points;
  double precondition_wa = 0;
  double grid_wa = 0;
};

double write_amplification_between(const engine::SimCounters& before, const engine::SimCounters& after) {
  const uint64_t host_units = after.host_units_written - before.host_units_written;
  return host_units == 0 ? 1.0
                         : static_cast<double>(after.flash_units_written - before.flash_units_written) /
                               static_cast<double>(host_units);
}

CbwGrid cbw_grid(const engine::SimModel& model, double k) {
  engine::SimDevice d(engine::dilated(model, k));
  workload::VirtualClock clock;
  constexpr uint64_t k_s = 1'000'000'000;
  constexpr uint64_t k_segment_s = 180;
  const json cbw = json::parse(*embedded_file("tests/cbw.json"));
  CbwGrid out;
  const engine::SimCounters fob = d.counters();
  (void)run_spec(d, clock, cbw_workload(0, 32, 32, 0, 16 * d.capacity_bytes()));
  const engine::SimCounters preconditioned = d.counters();
  out.precondition_wa = write_amplification_between(fob, preconditioned);
  for (const json& tc : cbw.at("thread_counts").at("value")) {
    for (const json& qd : cbw.at("queue_depths").at("value")) {
      const Measured m =
          run_spec(d, clock, cbw_workload(40, tc.get<uint32_t>(), qd.get<uint32_t>(), k_segment_s * k_s, 0));
      out.points.push_back(
          {out.points.size(), tc.get<uint32_t>(), qd.get<uint32_t>(), m.iops * k, m.mean_latency_us * 1e3 / k});
    }
  }
  out.grid_wa = write_amplification_between(preconditioned, d.counters());
  return out;
}

// One TC x QD table of the grid (rows: TC, columns: QD, in the grid's order), `value` of each point.
void print_table(const char* name, const std::vector<GridPoint>& grid, double (*value)(const GridPoint&)) {
  std::printf("  %-8s", name);
  for (const GridPoint& p : grid) {
    if (p.threads != grid.front().threads) break;
    std::printf(" %7s", ("QD " + std::to_string(p.queue_depth)).c_str());
  }
  for (size_t i = 0; i < grid.size(); ++i) {
    if (i == 0 || grid[i].threads != grid[i - 1].threads) std::printf("\n  TC %-5u", grid[i].threads);
    std::printf(" %7.0f", value(grid[i]));
  }
  std::printf("\n");
}

// The whole grid in one block: undilated IOPS, then ART in us, at every TC x QD point.
void print_grid(const std::string& title, const std::vector<GridPoint>& grid) {
  std::printf("%s\n", title.c_str());
  print_table("IOPS", grid, [](const GridPoint& p) { return p.iops; });
  print_table("ART us", grid, [](const GridPoint& p) { return p.latency_mean_ns / 1e3; });
}

void print_cbw_grid(const char* test, const char* model, const CbwGrid& g) {
  print_grid(fmt::format("{} {}: the CBW grid after its precondition (WA {:.2f} over the precondition, {:.2f} "
                         "over the grid), 3-minute segments, undilated",
                         test, model, g.precondition_wa, g.grid_wa),
             g.points);
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
  const CbwGrid measured = cbw_grid(model, recommended_scale(f.model));
  print_cbw_grid("SeedCbwWithMerge", f.model, measured);
  const std::vector<GridPoint>& grid = measured.points;
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
  const CbwGrid measured = cbw_grid(load_sim_model(f.model), recommended_scale(f.model));
  print_cbw_grid("SeedCbw", f.model, measured);
  const std::vector<GridPoint>& grid = measured.points;
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

// The full CBW procedure against seed 004's point: PTS 2.0.2 enterprise at full length (purge,
// preconditioning Rounds of 30 minutes to steady state, demand-variation Rounds of the 7 x 7
// grid in 1-minute segments to steady state, the operating points' pre-writes and captures),
// make_test("cbw") over a SimExecutor on the model at its recommended dilation, as the seed's
// recipe runs it (docs/sim.md, seed 004): `ptsuite run cbw --engine sim --set sim.model=M --set
// cbw.max_iops_rule=knee --set cbw.operating_point_source=window-average` (the CLI's defaults:
// seed 1, the model's recommended_scale, 240 for both; IOPS x k and ART / k are the unscaled
// drive's, docs/sim.md "Dilation"). The knee is picked from two grids of the same run:
//  * the measurement window's (the 5 steady Rounds averaged): what the record's MaxIOPS is with
//    the recipe's settings, and the published point within 15 % in IOPS and ART on both models;
//  * the final Round's (the setting's default, final-round): its IOPS within 15 % on both; its
//    ART only on dc500r. dc500m's IOPS at 8 in flight (the published knee) is
//    ~96 % of its plateau (the window's grid: 17,865-17,937 against ~18,600), and the highest of the final Round's 49
//    one-minute cells sits ~2 % above the plateau (segment noise), so the rule passes to 12 in flight (~640 us, 1.4x
//    the published ART; docs/sim.md, seed 004).
// ~3-4 s of CPU a model.
struct CbwProcedurePoint {
  const char* model;
  double iops;
  double art_us;
  bool final_round_art_reproduced;
};

class SeedCbwProcedure : public ::testing::TestWithParam<CbwProcedurePoint> {};

// A grid of a CBW record's demand-variation phase, undilated: `cells[i]` is the i-th TOIO's
// segment result (a final-Round segment or a measurement-window cell), in grid order.
std::vector<GridPoint> record_grid(const json& block, const json& cells, double k) {
  std::vector<GridPoint> grid;
  for (const json& tc : block.at("thread_counts")) {
    for (const json& qd : block.at("queue_depths")) {
      const json& c = cells.at(grid.size()).at("summary").at("combined");
      grid.push_back({grid.size(), tc.get<uint32_t>(), qd.get<uint32_t>(), c.at("iops").get<double>() * k,
                      c.at("latency_ns").at("mean").get<double>() / k});
    }
  }
  return grid;
}

TEST_P(SeedCbwProcedure, TheFullProceduresKneeIsThePublishedMaxIopsPointWithinFifteenPercent) {
  const CbwProcedurePoint& f = GetParam();
  const double k = recommended_scale(f.model);
  const DefinitionSet& defs = DefinitionSet::embedded();
  const SpecContext spec{"2.0.2", "enterprise"};
  const Settings settings = Settings::build(
      defs, spec, {}, {{"cbw.max_iops_rule", "knee"}, {"cbw.operating_point_source", "window-average"}});
  SimRunParams params;
  params.align_to_logical_block = settings.text("alignment") == "logical";
  SimExecutor exec(engine::dilated(load_sim_model(f.model), k), params);
  TestContext ctx{defs, spec, settings, exec, TargetFacts{exec.geometry().capacity_bytes, 512}};
  const json record = json(make_test("cbw")->run(ctx));
  const json& block = record.at("cbw");
  const json& demand = record.at("phases").at(1);
  const std::vector<GridPoint> final_round = record_grid(block, demand.at("rounds").back().at("segments"), k);
  const std::vector<GridPoint> window = record_grid(block, demand.at("measurement_window").at("cells"), k);
  const auto [knee, why] = cbw_max_point(final_round, "knee");
  const auto [window_knee, window_why] = cbw_max_point(window, "knee");
  // The record's MaxIOPS is the measurement window's knee (operating_point_source window-average).
  EXPECT_EQ(block.at("operating_point_source"), "window-average");
  const json& max = block.at("operating_points").at(0);
  EXPECT_EQ(max.at("segment_index").get<size_t>(), window_knee->index);
  EXPECT_NEAR(window_knee->iops, f.iops, 0.15 * f.iops) << window_why;
  EXPECT_NEAR(window_knee->latency_mean_ns / 1e3, f.art_us, 0.15 * f.art_us) << window_why;
  EXPECT_NEAR(knee->iops, f.iops, 0.15 * f.iops) << why;
  if (f.final_round_art_reproduced) {
    EXPECT_NEAR(knee->latency_mean_ns / 1e3, f.art_us, 0.15 * f.art_us) << why;
  } else {
    EXPECT_GT(knee->latency_mean_ns / 1e3, 1.15 * f.art_us) << why << ": reproduced now; docs/sim.md says not";
  }
  const auto rounds = [&](size_t i) {
    return record.at("phases").at(i).at("steady_state").at("rounds_run").get<uint32_t>();
  };
  std::printf("SeedCbwProcedure %s: precondition %u Rounds, demand variation %u Rounds, %.0f s virtual, %llu IOs\n",
              f.model, rounds(0), rounds(1), static_cast<double>(exec.clock().now_ns) / 1e9,
              static_cast<unsigned long long>(exec.simulated_ios()));
  const auto point_text = [](const GridPoint& p) {
    return fmt::format("{:.0f} IOPS at {:.0f} us (TC {} / QD {})", p.iops, p.latency_mean_ns / 1e3, p.threads,
                       p.queue_depth);
  };
  print_grid(fmt::format("SeedCbwProcedure {}: the final Round's grid, 1-minute segments, undilated; knee {}", f.model,
                         point_text(*knee)),
             final_round);
  print_grid(fmt::format("SeedCbwProcedure {}: the measurement window's grid (Rounds {}-{} averaged); knee {}", f.model,
                         demand.at("measurement_window").at("first_round").get<uint32_t>(),
                         demand.at("measurement_window").at("last_round").get<uint32_t>(), point_text(*window_knee)),
             window);
}

INSTANTIATE_TEST_SUITE_P(Seed004, SeedCbwProcedure,
                         ::testing::Values(CbwProcedurePoint{"dc500r", 17'949, 594, true},
                                           CbwProcedurePoint{"dc500m", 18'880, 448, false}),
                         [](const ::testing::TestParamInfo<CbwProcedurePoint>& p) {
                           return std::string(p.param.model);
                         });

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
