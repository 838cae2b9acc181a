// A real blktrace of a known workload on a loop device, recorded by the `blktrace` tool
// (package blktrace), imported and replayed: every IO of the workload is replayed once, with
// the workload's sizes. Skips with the reason when blktrace is not installed, without root or
// loop devices, or when the kernel refuses blktrace's relay files (kernel lockdown:
// "Operation not permitted", as on this project's development VM; docs/capture.md).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include <ptsuite/capture/trace_import.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/replay/replay_runner.hpp>
#include <ptsuite/workload/workload_runner.hpp>

#include "integration/workload_process.hpp"
#include "support/loop_support.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::replay {
namespace {

namespace fs = std::filesystem;

constexpr const char* k_blktrace = "/usr/sbin/blktrace";

class ReplayBlktrace : public test_support::LoopDeviceFixture {};

TEST_F(ReplayBlktrace, ARecordedBlktraceReplaysEveryIO) {
  if (::access(k_blktrace, X_OK) != 0) GTEST_SKIP() << "blktrace is not installed (apt-get install blktrace)";
  auto& loop = attach_loop(64ULL << 20);
  const std::string out_dir = temp_dir().file("bt");
  fs::create_directories(out_dir);
  const std::string log = out_dir + "/blktrace.out";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const std::string cmd = std::string(k_blktrace) + " -d " + loop.device.path() + " -D " + out_dir +
                            " -o trace -a queue -a issue -a complete -w 3 > " + log + " 2>&1";
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::usleep(700'000);  // blktrace sets up its relay channels before the workload starts
  workload::WorkloadSpec spec;
  spec.read_pct = 50;
  spec.block_sizes = {{4096, 0.5}, {65536, 0.5}};
  spec.queue_depth = 4;
  spec.limits.ios = 2000;
  spec.seed = 27;
  const engine::Target target = engine::Target::open(test_support::writable(loop.device.path()).writable());
  const workload::WorkloadResult done = workload::run_workload(workload::resolve(spec, target.geometry()), target, {});
  int status = 0;
  ::waitpid(child, &status, 0);
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(out_dir)) {
    if (e.path().filename().string().rfind("trace.blktrace.", 0) == 0 && fs::file_size(e.path()) > 0) {
      files.push_back(e.path().string());
    }
  }
  if (files.empty()) GTEST_SKIP() << "blktrace recorded nothing: " << workload::test::slurp(log);
  const std::string capture = temp_dir().file("bt.ptcap");
  capture::import_blktrace(files, test_support::output_path(capture));
  // Replayed on the loop device itself: a block device takes O_DIRECT on every kernel (tmpfs
  // only since 6.6; the VM guest's Debian 6.1 kernel refuses it).
  const engine::Target& t = target;
  ReplayOptions o;
  o.mode = ReplayMode::closed_loop;
  o.step_ns = 1'000'000'000;
  const results::ReplayRecord r = run_replay(capture, t, o);
  EXPECT_EQ(r.replayed_ios, done.stats.read.ios + done.stats.write.ios);
  uint64_t bytes = 0;
  for (const results::ReplayStep& s : r.steps) {
    bytes += s.replayed.bytes;
    for (const results::SizeCount& c : s.replayed.sizes) EXPECT_TRUE(c.size_bytes == 4096 || c.size_bytes == 65536);
  }
  EXPECT_EQ(bytes, done.stats.read.bytes + done.stats.write.bytes);
}

}  // namespace
}  // namespace ptsuite::replay
