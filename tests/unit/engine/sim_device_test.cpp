// The simulated drive's FTL and timing (engine/sim_device.hpp), IO by IO.
#include <gtest/gtest.h>

#include <ptsuite/engine/sim_device.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::engine {
namespace {

SimModel small_model() {
  SimModel m;
  m.name = "test";
  m.capacity_bytes = 64ULL << 20;
  m.over_provisioning = 0.25;
  m.channels = 2;
  m.dies_per_channel = 2;
  m.block_units = 64;
  m.read_ns = 50'000;
  m.program_ns = 200'000;
  m.erase_ns = 2'000'000;
  m.interface_mb_per_s = 500;
  m.command_ns = 2'000;
  m.write_command_ns = 2'000;
  m.write_buffer_units = 16;
  return m;
}

uint64_t lcg(uint64_t& s) {
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return s >> 33;
}

TEST(SimDevice, AnUnmappedReadCostsOnlyTheInterfaceAndAMappedOneItsDie) {
  SimDevice d(small_model());
  const uint64_t transfer = 4096ULL * 1000 / 500;
  EXPECT_EQ(d.read(0, 4096, 1'000), 1'000 + 2'000 + transfer);
  const uint64_t written = d.write(0, 4096, 1'000'000);
  EXPECT_EQ(written, 1'000'000 + 2'000 + transfer);  // acknowledged from the write buffer
  const uint64_t read_at = 10'000'000;               // long after the program finished
  EXPECT_EQ(d.read(0, 4096, read_at), read_at + 50'000 + 2'000 + transfer);
}

TEST(SimDevice, AFullWriteBufferWaitsForTheFlash) {
  SimDevice d(small_model());
  uint64_t done = 0;
  for (uint64_t i = 0; i < 16; ++i) {
    done = d.write(i * 4096, 4096, 0);
  }
  EXPECT_LT(done, 200'000u);  // 16 units fit the buffer
  done = d.write(16 * 4096, 4096, 0);
  EXPECT_GE(done, 200'000u);  // the 17th waits for the first program
}

TEST(SimDevice, RandomOverwritesAmplifyAndTrimAndFormatUndoIt) {
  SimDevice d(small_model());
  const uint64_t units = d.capacity_bytes() / 4096;
  uint64_t t = 0;
  for (uint64_t u = 0; u < units; ++u) {
    t = d.write(u * 4096, 4096, t);
  }
  EXPECT_DOUBLE_EQ(d.counters().write_amplification(), 1.0);  // sequential fill: no GC
  uint64_t seed = 1;
  for (uint64_t i = 0; i < 4 * units; ++i) {
    t = d.write(lcg(seed) % units * 4096, 4096, t);
  }
  const double wa = d.counters().write_amplification();
  EXPECT_GT(wa, 1.3);
  d.trim(0, d.capacity_bytes());
  EXPECT_EQ(d.counters().units_trimmed, units);
  const uint64_t host_before = d.counters().host_units_written;
  const uint64_t flash_before = d.counters().flash_units_written;
  for (uint64_t i = 0; i < units / 2; ++i) {
    t = d.write(lcg(seed) % units * 4096, 4096, t);
  }
  // After TRIM the GC finds blocks with nothing valid: no relocation.
  EXPECT_EQ(d.counters().flash_units_written - flash_before, d.counters().host_units_written - host_before);
  d.format(t);
  EXPECT_EQ(d.read(0, 4096, t), t + 2'000 + 4096ULL * 1000 / 500);  // unmapped again
}

TEST(SimDevice, TheSameSeedGivesTheSameTimesAndNoiseSpreadsThem) {
  SimModel m = small_model();
  m.noise_pct = 10;
  SimDevice a(m);
  SimDevice b(m);
  m.seed = 2;
  SimDevice c(m);
  uint64_t ta = 0, tb = 0, tc = 0;
  for (uint64_t i = 0; i < 5000; ++i) {
    ta = a.write(i % 1000 * 4096, 4096, ta);
    tb = b.write(i % 1000 * 4096, 4096, tb);
    tc = c.write(i % 1000 * 4096, 4096, tc);
  }
  EXPECT_EQ(ta, tb);
  EXPECT_NE(ta, tc);
}

TEST(SimDevice, DilationKeepsTheCourseAndScalesTheRate) {
  const SimModel m = small_model();
  const SimModel k = dilated(m, 4);
  EXPECT_EQ(k.program_ns, 4 * m.program_ns);
  EXPECT_DOUBLE_EQ(k.interface_mb_per_s, m.interface_mb_per_s / 4);
  EXPECT_EQ(k.capacity_bytes, m.capacity_bytes / 4);
  EXPECT_THROW((void)dilated(m, 0.5), UsageError);
}

TEST(SimDevice, AModelThatCannotBeADriveIsRefusedNamingTheField) {
  SimModel m = small_model();
  m.gc_free_blocks = 1;
  try {
    SimDevice d(m);
    FAIL() << "accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("gc_free_blocks"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ptsuite::engine
