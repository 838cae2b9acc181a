// The simulated drives against the figures they were fitted to (seed 004, the Kingston DC500R /
// DC500M review, as quoted in issue 41): each model, dilated to the size it was fitted at, must
// reproduce FOB 4 KiB random write, the saturated level of 4 KiB random writes and 4 KiB random
// read within 10 % (TC 4 / QD 32). Plus the model files themselves: every parameter has a value
// and a source, and a missing model names the ones there are.
#include <gtest/gtest.h>

#include <ptsuite/engine/sim_device.hpp>
#include <ptsuite/pts/sim_model.hpp>
#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>
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
  engine::TargetGeometry g;
  g.capacity_bytes = d.capacity_bytes();
  const workload::WorkloadResult w =
      workload::run_simulated_workload(workload::resolve_simulated(ws, g), d, clock, workload::RunControl{});
  const uint64_t ios = w.stats.read.ios + w.stats.write.ios;
  const auto latency_sum = static_cast<double>(w.stats.read.latency.sum_ns + w.stats.write.latency.sum_ns);
  return {static_cast<double>(ios) * 1e9 / static_cast<double>(w.elapsed_ns),
          latency_sum / static_cast<double>(ios) / 1e3};
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
  // TRIM of the whole drive returns it to its FOB write rate.
  d.trim(0, d.capacity_bytes());
  const Measured trimmed = run(d, clock, AccessPattern::random, 0, 4096, 600 * k_s);
  EXPECT_NEAR(trimmed.iops, fob.iops, 0.10 * fob.iops);
}

// Seed 004: FOB 70,000 / 88,000, saturated 22,000 / 77,000-78,000, 4 KiB read ~98,000 (SATA).
INSTANTIATE_TEST_SUITE_P(Seed004, SeedDrive,
                         ::testing::Values(SeedFigures{"dc500r", 70'000, 22'000, 98'000},
                                           SeedFigures{"dc500m", 88'000, 77'500, 98'000}),
                         [](const ::testing::TestParamInfo<SeedFigures>& p) { return std::string(p.param.model); });

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
