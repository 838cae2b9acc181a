// A weighted multi-stream workload run for real (libaio on an O_DIRECT file in /dev/shm): the
// run issues exactly the reads and writes, with exactly the bytes, that its threads' seeded
// generators give for their IO shares, so the engine runs the streams the generator draws.
#include <gtest/gtest.h>

#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/io_generator.hpp>
#include <ptsuite/workload/workload_runner.hpp>

#include "support/engines.hpp"
#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::workload {
namespace {

using units::k_mib;

using test_support::libaio_available;

TEST(MultiStreamRun, AnODirectFileGetsExactlyTheGeneratorsReadsAndWrites) {
  if (!libaio_available()) GTEST_SKIP() << "libaio unavailable here";
  test_support::ShmTempDir dir;
  const std::string file = dir.create_file("target.img", 32 * k_mib);
  const engine::Target target = engine::Target::open(test_support::writable(file).writable());
  WorkloadSpec s;
  s.threads = 2;
  s.queue_depth = 4;
  s.limits.ios = 6'000;
  s.seed = 27;
  s.streams = {{.name = "RND 8KiB R", .weight = 50, .read_pct = 100, .block_sizes = {{8192, 1.0}}},
               {.name = "RND 8KiB W", .weight = 30, .read_pct = 0, .block_sizes = {{8192, 1.0}}},
               {.name = "SEQ 64KiB W",
                .weight = 20,
                .pattern = AccessPattern::sequential,
                .read_pct = 0,
                .block_sizes = {{65536, 1.0}}}};
  s.streams[2].range_start_pct = 50;
  s.streams[2].range_pct = 50;
  const ResolvedWorkload w = resolve(s, target.geometry());
  const WorkloadResult r = run_workload(w, target, {});
  uint64_t reads = 0, writes = 0, read_bytes = 0, write_bytes = 0;
  for (uint32_t t = 0; t < s.threads; ++t) {
    IoGenerator gen(w, t);
    for (uint64_t i = 0; i < thread_share(s.limits.ios, s.threads, t); ++i) {
      const IoDecision io = gen.next();
      (io.op == engine::IoOp::read ? reads : writes) += 1;
      (io.op == engine::IoOp::read ? read_bytes : write_bytes) += io.length_bytes;
    }
  }
  EXPECT_EQ(r.stats.read.ios, reads);
  EXPECT_EQ(r.stats.write.ios, writes);
  EXPECT_EQ(r.stats.read.bytes, read_bytes);
  EXPECT_EQ(r.stats.write.bytes, write_bytes);
  EXPECT_GT(write_bytes, writes * 8192);  // the 64 KiB sequential stream ran
}

}  // namespace
}  // namespace ptsuite::workload
