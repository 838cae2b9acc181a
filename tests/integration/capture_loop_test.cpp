// The capture proven on a real block device: a known synthetic workload (run_workload, the
// code `ptsuite workload` runs) on a loop device, captured through the block tracepoints,
// characterizes back to that workload: every IO and byte seen, the stream shares within 1
// percentage point of the mix, the sizes exactly the configured ones, the queue depth reached
// exactly, and no completion paired wrongly. Skips without root, loop devices or perf events.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include <ptsuite/capture/block_capture.hpp>
#include <ptsuite/capture/characterize.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/workload_runner.hpp>

#include "support/loop_support.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::capture {
namespace {

using units::k_mib;

class CaptureLoop : public test_support::LoopDeviceFixture {
 protected:
  void SetUp() override {
    LoopDeviceFixture::SetUp();
    if (IsSkipped()) return;
    if (const std::string why = BlockCapture::unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};

workload::WorkloadSpec mix_spec() {
  workload::WorkloadSpec spec;
  spec.pattern = workload::AccessPattern::random;
  spec.read_pct = 70;
  spec.block_sizes = {{4096, 0.5}, {16384, 0.3}, {65536, 0.2}};
  spec.threads = 1;
  spec.queue_depth = 8;
  spec.submit_batch = 1;
  spec.limits.ios = 30000;
  spec.seed = 26;
  spec.engine = "libaio";
  return spec;
}

TEST_F(CaptureLoop, AKnownWorkloadCharacterizesBackToItsMix) {
  auto& loop = attach_loop(256 * k_mib);
  const std::string capture_path = temp_dir().file("mix.ptcap");
  CaptureOptions options;
  options.devices = {loop.device.path()};
  options.output = test_support::output_path(capture_path);
  // All 60,000 events (an issue and a completion per IO) fit the rings even when the reader
  // thread gets no CPU for the whole run (CI runs this beside the QEMU suite on 2 cores).
  options.ring_pages_per_cpu = 4096;
  auto capture = BlockCapture::start(options);
  const engine::Target target = engine::Target::open(test_support::writable(loop.device.path()).writable());
  const workload::ResolvedWorkload resolved = workload::resolve(mix_spec(), target.geometry());
  const workload::WorkloadResult result = workload::run_workload(resolved, target, {});
  const CaptureTrailer trailer = capture->stop();
  EXPECT_EQ(trailer.lost_events, 0u);
  // A kernel may drop a completion event silently (docs/capture.md: batches of up to a queue
  // depth, a few per 30,000 IOs on 6.18): such requests are reported, never paired wrongly.
  EXPECT_LE(trailer.unmatched_issues, 8u * 8u);
  EXPECT_EQ(trailer.unmatched_completions, 0u);

  CharacterizeOptions co;
  co.step_ns = 100'000'000;  // 100 ms steps
  const results::IoCharacterization c = characterize_file(capture_path, co);
  // What the capture saw, printed with any failure below (a failure on a loaded CI machine
  // must say which IO it did not expect).
  std::string seen;
  for (const results::IoStreamStats& s : c.streams) seen += fmt::format("{} {:.4f}; ", s.name, s.io_share);
  for (const auto& p : c.processes) seen += fmt::format("pid {} {} {:.4f}; ", p.pid, p.comm, p.io_share);
  SCOPED_TRACE(fmt::format("streams and processes: {}qd_max {} qd_mean {:.2f}", seen, c.qd_max, c.qd_mean));
  // Every IO and byte the workload did, nothing else (the loop device is ours alone).
  EXPECT_EQ(c.read_ios, result.stats.read.ios);
  EXPECT_EQ(c.write_ios, result.stats.write.ios);
  EXPECT_EQ(c.bytes, result.stats.read.bytes + result.stats.write.bytes);
  // Stream shares: RND x {4, 16, 64 KiB} x {R 70 %, W 30 %}; SEQ by chance only (a random
  // start equal to one of the last 8 ends: about 8 / 65536 per IO).
  const std::map<std::string, double> expected = {{"RND 4KiB R", 0.35}, {"RND 16KiB R", 0.21}, {"RND 64KiB R", 0.14},
                                                  {"RND 4KiB W", 0.15}, {"RND 16KiB W", 0.09}, {"RND 64KiB W", 0.06}};
  std::set<uint32_t> sizes;
  double random_share = 0;
  for (const results::IoStreamStats& s : c.streams) {
    sizes.insert(s.size_bytes);
    if (!s.sequential) random_share += s.io_share;
    if (const auto it = expected.find(s.name); it != expected.end()) {
      EXPECT_NEAR(s.io_share, it->second, 0.01) << s.name;
    }
  }
  EXPECT_EQ(sizes, (std::set<uint32_t>{4096, 16384, 65536}));
  EXPECT_GT(random_share, 0.99);
  // The queue depth: 8 in flight at the device (the most seen at an issue); the time-weighted
  // mean is lower by the time completed IOs spend in the application (docs/capture.md).
  EXPECT_EQ(c.qd_max, 8u);
  EXPECT_GT(c.qd_mean, 0.0);
  EXPECT_LE(c.qd_mean, 8.0);
  ASSERT_FALSE(c.processes.empty());
  EXPECT_GT(c.processes.front().io_share, 0.99);  // this test process submitted them all
}

// A capture only sees its own device: IO to another loop device is filtered in the kernel.
TEST_F(CaptureLoop, SeesOnlyTheCapturedDevice) {
  auto& captured = attach_loop(16 * k_mib);
  auto& other = attach_loop(16 * k_mib);
  const std::string capture_path = temp_dir().file("one.ptcap");
  CaptureOptions options;
  options.devices = {captured.device.path()};
  options.output = test_support::output_path(capture_path);
  auto capture = BlockCapture::start(options);
  workload::WorkloadSpec spec = mix_spec();
  spec.limits.ios = 500;
  const engine::Target target = engine::Target::open(test_support::writable(other.device.path()).writable());
  workload::run_workload(workload::resolve(spec, target.geometry()), target, {});
  capture->stop();
  CaptureReader reader(capture_path);
  EXPECT_EQ(reader.record_count(), 0u);
  EXPECT_EQ(reader.header().devices.at(0).path, captured.device.path());
}

}  // namespace
}  // namespace ptsuite::capture
