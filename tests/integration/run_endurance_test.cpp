// Endurance of the tool itself (issue 29): an accelerated long run - thousands of 10 ms samples
// of the endurance-write extension on a file target, each a journaled step - sampled while it
// runs for open file descriptors, journal size and step count. Over a real 3-day run nothing
// may grow per step but the journal, and the journal only by a bounded record per step. RSS and
// per-step time are printed (docs/performance.md records the slopes) but not asserted: no timed
// or machine-dependent assertion in a test.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "integration/workload_process.hpp"
#include "support/temp_dir.hpp"

namespace ptsuite::pts {
namespace {

namespace fs = std::filesystem;
using workload::test::Child;

struct Sample {
  size_t steps = 0;
  uint64_t journal_bytes = 0;
  size_t open_fds = 0;
  uint64_t rss_kib = 0;
};

Sample sample(pid_t pid, const fs::path& steps_dir) {
  Sample s;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(steps_dir, ec)) {
    ++s.steps;
    s.journal_bytes += e.file_size(ec);
  }
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
    ++s.open_fds;
  }
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) s.rss_kib = std::stoull(line.substr(6));
  }
  return s;
}

TEST(RunEndurance, ThousandsOfStepsLeakNoDescriptorAndJournalABoundedRecordEach) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 64ull << 20);
  const std::string out = dir.file("run");
  Child child({"run", "endurance-write", "--target", target, "--out", out, "--allow-destructive", "--quiet", "--format",
               "none", "--no-history", "--set", "endurance-write.sample_duration=10ms", "--set",
               "endurance-write.time_limit=20s", "--set", "endurance-write.threads=1", "--set",
               "endurance-write.queue_depth=4"});
  const fs::path steps_dir = fs::path(out) / "journal" / "steps";
  std::vector<Sample> samples;
  while (!child.exited()) {
    const Sample s = sample(child.pid(), steps_dir);
    if (s.open_fds > 0) samples.push_back(s);
    ::usleep(200'000);
  }
  const workload::test::ProcessResult r = child.wait();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_GE(samples.size(), 10u);
  const Sample& last = samples.back();
  ASSERT_GE(last.steps, 1000u) << "the run was meant to journal thousands of steps";

  // Descriptors: what is open a tenth of the way in is what is open at the end.
  const auto warm =
      std::find_if(samples.begin(), samples.end(), [&](const Sample& s) { return s.steps >= last.steps / 10; });
  ASSERT_NE(warm, samples.end());
  size_t most = 0;
  for (auto it = warm; it != samples.end(); ++it) most = std::max(most, it->open_fds);
  EXPECT_LE(most, warm->open_fds + 2) << "file descriptors grow with the steps";

  // Journal: a bounded record per step (a sample: its summary, histograms as runs, its health
  // snapshot), the same in the second half as in the first.
  const Sample& mid =
      *std::find_if(samples.begin(), samples.end(), [&](const Sample& s) { return s.steps >= last.steps / 2; });
  const double first_half = static_cast<double>(mid.journal_bytes) / static_cast<double>(mid.steps);
  const double second_half = static_cast<double>(last.journal_bytes - mid.journal_bytes) /
                             static_cast<double>(std::max<size_t>(1, last.steps - mid.steps));
  EXPECT_LE(first_half, 64.0 * 1024) << "bytes per journaled step";
  EXPECT_LE(second_half, 1.5 * first_half) << "the journal record per step grows with the run";
  std::printf(
      "endurance: %zu steps, journal %.0f / %.0f bytes per step (first / second half), fds %zu, RSS %llu -> "
      "%llu KiB (%.1f KiB per 1000 steps)\n",
      last.steps, first_half, second_half, last.open_fds, static_cast<unsigned long long>(warm->rss_kib),
      static_cast<unsigned long long>(last.rss_kib),
      static_cast<double>(last.rss_kib - std::min(last.rss_kib, warm->rss_kib)) * 1000.0 /
          static_cast<double>(std::max<size_t>(1, last.steps - warm->steps)));
}

}  // namespace
}  // namespace ptsuite::pts
