// Contract: test convenience only: the small simulated drive the engine's and the write cache's
// unit tests share (tests/unit/engine/sim_device_test.cpp, tests/unit/pts/sim_write_cache_test.cpp):
// 64 MiB, 25 % OP, 2 channels x 2 dies, 64-unit blocks, 50 / 200 / 2,000 us read / program /
// erase, 500 MB/s, 2 us commands, a 16-unit write buffer, no power-loss protection, no noise.
// Its figures are pinned by SimDevice.AShortStreamKeepsItsPinnedTimes: change them there too.
#pragma once

#include <ptsuite/engine/sim_device.hpp>

namespace ptsuite::test_support {

inline engine::SimModel small_sim_model() {
  engine::SimModel m;
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

}  // namespace ptsuite::test_support
