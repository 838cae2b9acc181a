// The simulated drive's write cache (docs/sim.md "Write cache"): the model's write buffer is its
// volatile write cache; disabled (WCD) on a drive without power-loss protection, a write is
// acknowledged only once its units are programmed; with PLP the buffer is non-volatile and keeps
// acknowledging (engine::SimDevice::set_write_cache). The executor of a simulated run applies the
// setting, keeps it across a purge and records it in the purge record as the device executor does.
// The run applying the profile's WCD and its compliance: tests/integration/sim_run_cli_test.cpp.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <ptsuite/engine/sim_device.hpp>
#include <ptsuite/pts/sim_executor.hpp>
#include <ptsuite/pts/sim_model.hpp>

#include "support/sim_test_model.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

// The engine tests' small drive, with or without power-loss protection.
engine::SimModel write_cache_model(bool plp) {
  engine::SimModel m = test_support::small_sim_model();
  m.power_loss_protection = plp;
  return m;
}

// The completion time of one 4 KiB write at t = 1 ms on an idle drive.
uint64_t one_write_ns(engine::SimDevice& d) {
  constexpr uint64_t k_now_ns = 1'000'000;
  return d.write(0, 4096, k_now_ns) - k_now_ns;
}

TEST(SimWriteCache, WithoutPowerLossProtectionADisabledCacheAcknowledgesWhenProgrammed) {
  engine::SimDevice cached(write_cache_model(false));
  EXPECT_TRUE(cached.write_cache_enabled());  // as made: the buffer acknowledges
  EXPECT_LT(one_write_ns(cached), 20'000u);   // command + transfer (~10 us), no program

  engine::SimDevice through(write_cache_model(false));
  through.set_write_cache(false);
  EXPECT_FALSE(through.write_cache_enabled());
  EXPECT_GE(one_write_ns(through), 200'000u);  // the unit's program time

  through.set_write_cache(true);  // enabled again: the buffer acknowledges again
  EXPECT_LT(through.write(8192, 4096, 50'000'000) - 50'000'000, 20'000u);
}

TEST(SimWriteCache, WithPowerLossProtectionTheBufferKeepsAcknowledging) {
  engine::SimDevice plp(write_cache_model(true));
  plp.set_write_cache(false);
  EXPECT_FALSE(plp.write_cache_enabled());  // the setting reads back as set
  engine::SimDevice cached(write_cache_model(true));
  EXPECT_EQ(one_write_ns(plp), one_write_ns(cached));
}

TEST(SimWriteCache, AFormatKeepsTheSetting) {
  engine::SimDevice d(write_cache_model(false));
  d.set_write_cache(false);
  d.format(5'000'000);
  EXPECT_FALSE(d.write_cache_enabled());
  EXPECT_GE(d.write(0, 4096, 6'000'000) - 6'000'000, 200'000u);
}

// The seed 004 drives have PLP (Kingston's data sheet), so their figures stay under WCD; the
// tlc-nvme model has it too (docs/sim.md says why).
TEST(SimWriteCache, TheModelsSayWhetherTheyHavePowerLossProtection) {
  EXPECT_TRUE(load_sim_model("dc500r").power_loss_protection);
  EXPECT_TRUE(load_sim_model("dc500m").power_loss_protection);
  EXPECT_TRUE(load_sim_model("tlc-nvme").power_loss_protection);
  EXPECT_FALSE(engine::SimModel{}.power_loss_protection);
}

TEST(SimWriteCache, TheExecutorRecordsTheSettingAfterEveryPurge) {
  SimExecutor exec(write_cache_model(false), SimRunParams{});
  StepRequest purge;
  purge.kind = StepKind::purge;
  purge.purge_method = "auto";
  // Never set: the purge record has no write-cache part (as a device without a cache record).
  EXPECT_FALSE(exec.execute(StepId{"t", "main", "purge"}, purge).contains("write_cache_after_purge"));

  exec.set_write_cache(false);
  const device::WriteCacheState state = exec.write_cache_state();
  EXPECT_TRUE(state.applicable);
  EXPECT_EQ(state.enabled, false);
  EXPECT_EQ(state.mechanism, k_simulated_write_cache_mechanism);
  EXPECT_NE(state.note.find("when its units are programmed"), std::string::npos) << state.note;
  const json record = exec.execute(StepId{"t", "main", "purge2"}, purge);
  const json& after = record.at("write_cache_after_purge");
  EXPECT_EQ(after.at("requested_enabled"), false);
  EXPECT_EQ(after.at("found_enabled"), false);
  EXPECT_EQ(after.at("read_back").at("enabled"), false);
  EXPECT_EQ(after.at("read_back").at("mechanism"), "simulated");
  EXPECT_FALSE(exec.device().write_cache_enabled());

  SimExecutor plp(write_cache_model(true), SimRunParams{});
  plp.set_write_cache(false);
  EXPECT_NE(plp.write_cache_state().note.find("power-loss protection"), std::string::npos);
}

}  // namespace
}  // namespace ptsuite::pts
