// run_workload() with real IO (libaio on O_DIRECT files in /dev/shm and on loop devices) and
// with the null engine: limits, stop flag, intervals, resume, pinning, the IO error path, and
// that the bytes written are exactly the seeded data (read back through a separate path).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/data_fill.hpp>
#include <ptsuite/workload/io_generator.hpp>
#include <ptsuite/workload/workload_json.hpp>
#include <ptsuite/workload/workload_runner.hpp>

#include "support/engines.hpp"
#include "support/loop_support.hpp"
#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"
#include "support/written_data.hpp"
#include "unit/workload/statistics.hpp"

namespace ptsuite::workload {
namespace {

using engine::Target;
using units::k_mib;

using test_support::libaio_available;

#define SKIP_WITHOUT_LIBAIO()                    \
  do {                                           \
    if (!libaio_available()) {                   \
      GTEST_SKIP() << "libaio unavailable here"; \
    }                                            \
  } while (false)

std::vector<std::byte> read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(raw.size());
  std::memcpy(out.data(), raw.data(), raw.size());
  return out;
}

// What a run of `w` writes with a pattern whose data is a pure function of the IO (refill,
// zeros): every thread's IOs from its generator, data from its filler, in order (later writes
// to the same offset win).
std::vector<std::byte> expected_image(const ResolvedWorkload& w, uint64_t ios_per_thread, uint64_t capacity,
                                      std::vector<std::byte> base) {
  base.resize(capacity);
  std::vector<std::byte> buf(w.max_block_bytes);
  for (uint32_t t = 0; t < w.spec.threads; ++t) {
    IoGenerator gen(w, t);
    DataFiller filler(w.spec.data, w.spec.seed, t, w.max_block_bytes, 1);
    for (uint64_t i = 0; i < ios_per_thread; ++i) {
      const uint64_t seq = gen.sequence();
      const IoDecision io = gen.next();
      if (io.op == engine::IoOp::write) {
        filler.fill({buf.data(), io.length_bytes}, seq, 0);
        std::memcpy(base.data() + io.offset_bytes, buf.data(), io.length_bytes);
      }
    }
  }
  return base;
}

WorkloadSpec sequential_write_spec(const std::string& engine_name, DataPattern data) {
  WorkloadSpec s;
  s.engine = engine_name;
  s.pattern = AccessPattern::sequential;
  s.read_pct = 0;
  s.block_sizes = {{64 * 1024, 1}};
  s.threads = 2;
  s.queue_depth = 8;
  s.limits.bytes_range_multiple = 1;  // every byte of the range exactly once
  s.data = data;
  s.seed = 20261121;
  return s;
}

void expect_written_as_seeded(const std::string& target_path, const std::string& readback_path, DataPattern data) {
  const WorkloadSpec spec = sequential_write_spec("libaio", data);
  const uint64_t capacity = std::filesystem::file_size(readback_path);
  WorkloadResult result;
  ResolvedWorkload w;
  {
    const Target target = Target::open(test_support::writable(target_path).writable());
    w = resolve(spec, target.geometry());
    result = run_workload(w, target, RunControl{});
  }
  ASSERT_EQ(result.stop_reason, StopReason::bytes);
  ASSERT_FALSE(result.first_error.has_value());
  EXPECT_EQ(result.stats.write.bytes, capacity);
  EXPECT_EQ(result.stats.read.ios, 0u);
  const uint64_t ios_per_thread = w.sequential.slice_bytes / (64 * 1024);
  EXPECT_EQ(result.stats.write.ios, 2 * ios_per_thread);
  const std::vector<std::byte> got = read_all(readback_path);
  if (data == DataPattern::random) {
    // Tags per IO, bodies per buffer: checked sector by sector (support/written_data.hpp).
    EXPECT_EQ(test_support::WrittenDataModel(w, ios_per_thread).check(got, std::vector<std::byte>(capacity)), "");
    return;
  }
  const std::vector<std::byte> want = expected_image(w, ios_per_thread, capacity, std::vector<std::byte>(capacity));
  ASSERT_EQ(got.size(), want.size());
  EXPECT_TRUE(got == want) << "the bytes on the target differ from the seeded data";
}

TEST(WorkloadRunner, SeededSequentialWriteLandsOnAnODirectFile) {
  SKIP_WITHOUT_LIBAIO();
  test_support::ShmTempDir dir;
  const std::string file = dir.create_file("target.img", 8 * k_mib);
  expect_written_as_seeded(file, file, DataPattern::random);
  expect_written_as_seeded(file, file, DataPattern::refill);
}

class WorkloadRunnerLoop : public test_support::LoopDeviceFixture {};

TEST_F(WorkloadRunnerLoop, SeededSequentialWriteLandsOnALoopDevice) {
  if (IsSkipped()) {
    return;
  }
  SKIP_WITHOUT_LIBAIO();
  auto& loop = attach_loop(16 * k_mib);
  // Written through /dev/loopN, read back from the backing file: a separate path.
  expect_written_as_seeded(loop.device.path(), loop.backing_path, DataPattern::random);
}

TEST(WorkloadRunner, MixedRandomWorkloadCountsArePlausible) {
  SKIP_WITHOUT_LIBAIO();
  test_support::ShmTempDir dir;
  const std::string file = dir.create_file("target.img", 32 * k_mib);
  const Target target = Target::open(test_support::writable(file).writable());
  WorkloadSpec s;
  s.read_pct = 70;
  s.threads = 2;
  s.queue_depth = 16;
  s.limits.ios = 40'000;
  s.seed = 5;
  const ResolvedWorkload w = resolve(s, target.geometry());
  const WorkloadResult r = run_workload(w, target, RunControl{});
  EXPECT_EQ(r.stop_reason, StopReason::ios);
  EXPECT_EQ(r.stats.read.ios + r.stats.write.ios, 40'000u);
  EXPECT_TRUE(test::within_5_sigma(r.stats.read.ios, 40'000, 0.7)) << r.stats.read.ios;
  EXPECT_EQ(r.stats.read.bytes, r.stats.read.ios * 4096);
  EXPECT_EQ(r.stats.write.bytes, r.stats.write.ios * 4096);
  EXPECT_EQ(r.stats.read.histogram.total_count(), r.stats.read.ios);
  EXPECT_EQ(r.stats.write.histogram.total_count(), r.stats.write.ios);
  EXPECT_GT(r.stats.read.latency.min_ns, 0u);
  EXPECT_GE(r.stats.read.latency.max_ns, r.stats.read.latency.min_ns);
  EXPECT_GT(r.elapsed_ns, 0u);
  EXPECT_GT(r.cpu.user_s + r.cpu.system_s, 0.0);
  EXPECT_EQ(r.error_count, 0u);
}

Target open_null_target(const test_support::ShmTempDir& dir, uint64_t bytes = 16 * k_mib) {
  return Target::open(test_support::writable(dir.create_file("null.img", bytes)).writable());
}

WorkloadSpec null_spec() {
  WorkloadSpec s;
  s.engine = "null";
  s.read_pct = 50;
  s.threads = 3;
  s.queue_depth = 4;
  return s;
}

TEST(WorkloadRunner, IoAndByteLimitsAreSplitExactlyAcrossThreads) {
  test_support::ShmTempDir dir;
  const Target target = open_null_target(dir);
  WorkloadSpec s = null_spec();
  s.limits.ios = 10'001;
  WorkloadResult r = run_workload(resolve(s, target.geometry()), target, RunControl{});
  EXPECT_EQ(r.stop_reason, StopReason::ios);
  EXPECT_EQ(r.stats.read.ios + r.stats.write.ios, 10'001u);

  s = null_spec();
  s.pattern = AccessPattern::sequential;
  s.limits.bytes = 3 * 4096 * 1000;  // 1000 IOs per thread exactly
  r = run_workload(resolve(s, target.geometry()), target, RunControl{});
  EXPECT_EQ(r.stop_reason, StopReason::bytes);
  EXPECT_EQ(r.stats.read.bytes + r.stats.write.bytes, 3u * 4096 * 1000);
}

TEST(WorkloadRunner, StopFlagEndsTheRunAndKeepsWhatWasMeasured) {
  test_support::ShmTempDir dir;
  const Target target = open_null_target(dir);
  WorkloadSpec s = null_spec();
  s.limits.duration_ns = 30ULL * 1'000'000'000;  // far longer than the stop takes
  std::atomic<bool> stop{false};
  RunControl control;
  control.stop_requested = &stop;
  control.progress_interval_ns = 10'000'000;
  int progress_calls = 0;
  control.on_progress = [&](const Progress& p) {
    ++progress_calls;
    EXPECT_EQ(p.expected_ns, s.limits.duration_ns);
    stop = true;  // as the SIGINT handler would
  };
  const WorkloadResult r = run_workload(resolve(s, target.geometry()), target, control);
  EXPECT_EQ(r.stop_reason, StopReason::interrupted);
  EXPECT_GE(progress_calls, 1);
  EXPECT_LT(r.elapsed_ns, s.limits.duration_ns);
  EXPECT_EQ(r.stats.read.histogram.total_count(), r.stats.read.ios);
}

// The interval series covers the run exactly: ordered, ending at elapsed_ns (nothing sampled
// while the workers retire their IO contexts), summing to the totals.
void expect_intervals_cover_the_run(const WorkloadResult& r) {
  ASSERT_FALSE(r.intervals.empty());
  uint64_t ios[2] = {0, 0};
  uint64_t bytes = 0;
  uint64_t previous_end = 0;
  for (const IntervalSample& sample : r.intervals) {
    EXPECT_GE(sample.end_offset_ns, previous_end);
    EXPECT_LE(sample.end_offset_ns, r.elapsed_ns);
    previous_end = sample.end_offset_ns;
    ios[0] += sample.ios[0];
    ios[1] += sample.ios[1];
    bytes += sample.bytes[0] + sample.bytes[1];
  }
  EXPECT_EQ(r.intervals.back().end_offset_ns, r.elapsed_ns);
  EXPECT_EQ(ios[0], r.stats.read.ios);
  EXPECT_EQ(ios[1], r.stats.write.ios);
  EXPECT_EQ(bytes, r.stats.read.bytes + r.stats.write.bytes);
}

TEST(WorkloadRunner, IntervalSeriesSumsToTheTotals) {
  test_support::ShmTempDir dir;
  const Target target = open_null_target(dir);
  WorkloadSpec s = null_spec();
  s.limits.duration_ns = 300'000'000;
  s.interval_ns = k_min_interval_ns;
  expect_intervals_cover_the_run(run_workload(resolve(s, target.geometry()), target, RunControl{}));
}

// 0.2 s of RND 4 KiB reads at TC 2 / QD 8 through libaio, with an interval series.
WorkloadSpec libaio_reads(uint64_t interval_ns) {
  WorkloadSpec s;
  s.engine = "libaio";
  s.pattern = AccessPattern::random;
  s.read_pct = 100;
  s.threads = 2;
  s.queue_depth = 8;
  s.limits.duration_ns = 200'000'000;
  s.interval_ns = interval_ns;
  return s;
}

// libaio: the workers retire their aio contexts after the last IO (io_destroy waits for an RCU
// grace period, tens of ms), while the sampler keeps sampling; those samples must not become
// empty intervals past the end of the run.
TEST(WorkloadRunner, IntervalSeriesOfALibaioRunEndsAtItsLastIo) {
  SKIP_WITHOUT_LIBAIO();
  test_support::ShmTempDir dir;
  const std::string path = dir.create_file("target.img", 16 * k_mib);
  const Target target = Target::open_read_only(path);
  WorkloadSpec s = libaio_reads(k_min_interval_ns);
  const WorkloadResult r = run_workload(resolve(s, target.geometry()), target, RunControl{});
  ASSERT_FALSE(r.first_error.has_value());
  expect_intervals_cover_the_run(r);
}

// Each interval carries its 99 % per direction, from the workers' own per-interval histograms:
// with one interval spanning the whole run it is exactly the run's 99 %; with several, every one
// lies within the run's range, and a direction without IO reads 0.
TEST(WorkloadRunner, IntervalsCarryTheirOwnNinetyNinthPercentile) {
  SKIP_WITHOUT_LIBAIO();
  test_support::ShmTempDir dir;
  const std::string path = dir.create_file("target.img", 16 * k_mib);
  const Target target = Target::open_read_only(path);
  WorkloadSpec s = libaio_reads(10'000'000'000);  // longer than the run: its one (tail) interval is the whole run
  const WorkloadResult whole = run_workload(resolve(s, target.geometry()), target, RunControl{});
  ASSERT_EQ(whole.intervals.size(), 1u);
  EXPECT_TRUE(whole.intervals[0].has_p99);
  EXPECT_EQ(whole.intervals[0].p99_ns[0], whole.stats.read.histogram.value_at_percentile_ns(99));
  EXPECT_EQ(whole.intervals[0].p99_ns[1], 0u) << "no writes";

  s.interval_ns = 50'000'000;
  const WorkloadResult r = run_workload(resolve(s, target.geometry()), target, RunControl{});
  ASSERT_GE(r.intervals.size(), 3u);
  for (const IntervalSample& i : r.intervals) {
    EXPECT_TRUE(i.has_p99);
    if (i.ios[0] == 0) continue;
    EXPECT_GE(i.p99_ns[0], r.stats.read.histogram.value_at_percentile_ns(0.0001) * 255 / 256) << i.end_offset_ns;
    EXPECT_LE(i.p99_ns[0], r.stats.read.latency.max_ns * 257 / 256) << i.end_offset_ns;
  }
}

// Each interval carries its exact largest response time and standard deviation per direction
// (issue 40 item 8: max and stddev in the over-time charts): with one interval spanning the run
// they are the run's own; with several, the largest of the intervals' maxima is the run's
// maximum (every completion falls in one interval), and no stddev exceeds its interval's max.
TEST(WorkloadRunner, IntervalsCarryTheirExactMaximumAndStandardDeviation) {
  SKIP_WITHOUT_LIBAIO();
  test_support::ShmTempDir dir;
  const std::string path = dir.create_file("target.img", 16 * k_mib);
  const Target target = Target::open_read_only(path);
  WorkloadSpec s = libaio_reads(10'000'000'000);
  const WorkloadResult whole = run_workload(resolve(s, target.geometry()), target, RunControl{});
  ASSERT_EQ(whole.intervals.size(), 1u);
  EXPECT_EQ(whole.intervals[0].max_ns[0], whole.stats.read.latency.max_ns);
  EXPECT_NEAR(whole.intervals[0].stddev_ns[0], whole.stats.read.latency.stddev_ns(),
              1e-9 * whole.stats.read.latency.stddev_ns());
  EXPECT_EQ(whole.intervals[0].max_ns[1], 0u) << "no writes";

  s.interval_ns = 50'000'000;
  const WorkloadResult r = run_workload(resolve(s, target.geometry()), target, RunControl{});
  ASSERT_GE(r.intervals.size(), 3u);
  uint64_t largest = 0;
  for (const IntervalSample& i : r.intervals) {
    largest = std::max(largest, i.max_ns[0]);
    if (i.ios[0] == 0) continue;
    EXPECT_GT(i.max_ns[0], 0u) << i.end_offset_ns;
    EXPECT_LE(i.stddev_ns[0], static_cast<double>(i.max_ns[0])) << i.end_offset_ns;
  }
  EXPECT_EQ(largest, r.stats.read.latency.max_ns);
  const nlohmann::json j = intervals_json(r.intervals);
  EXPECT_EQ(j.front().at("read_max_ns"), r.intervals.front().max_ns[0]);
  EXPECT_TRUE(j.front().contains("write_stddev_ns"));
}

TEST(WorkloadRunner, SequentialStateResumesWhereTheLastRunStopped) {
  test_support::ShmTempDir dir;
  const Target target = open_null_target(dir);
  WorkloadSpec s = null_spec();
  s.pattern = AccessPattern::sequential;
  s.threads = 2;
  s.limits.ios = 20;  // 10 IOs of 4 KiB per thread
  const ResolvedWorkload w = resolve(s, target.geometry());
  WorkloadState state;
  run_workload(w, target, RunControl{}, &state);
  EXPECT_EQ(state.sequential_cursor_bytes, (std::vector<uint64_t>{40960, 40960}));
  const WorkloadResult second = run_workload(w, target, RunControl{}, &state);
  EXPECT_EQ(second.end_state.sequential_cursor_bytes, (std::vector<uint64_t>{81920, 81920}));
  EXPECT_EQ(state.sequential_cursor_bytes, second.end_state.sequential_cursor_bytes);

  WorkloadState wrong;
  wrong.sequential_cursor_bytes = {0, 0, 0};
  try {
    run_workload(w, target, RunControl{}, &wrong);
    ADD_FAILURE() << "a state for 3 threads was accepted for 2";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::system);
  }
}

TEST(WorkloadRunner, RateLimitPacesTheIos) {
  test_support::ShmTempDir dir;
  const Target target = open_null_target(dir);
  WorkloadSpec s = null_spec();
  s.threads = 2;
  s.limits.ios = 200;
  s.rate.iops = 2000;  // 1000 per thread: IO 99 of each thread is due at 99 ms
  const WorkloadResult r = run_workload(resolve(s, target.geometry()), target, RunControl{});
  EXPECT_EQ(r.stats.read.ios + r.stats.write.ios, 200u);
  // A lower bound only: the schedule forbids finishing earlier (no upper time bound tested).
  EXPECT_GE(r.elapsed_ns, 99'000'000u);

  s.rate = {};
  s.rate.mb_per_s = 4.096;  // decimal: 2.048e6 B/s per thread, one 4 KiB IO per 2 ms
  s.limits.ios = 100;       // IO 49 of each thread is due at 49 * 4096 / 2.048e6 s = 98 ms
  const WorkloadResult by_bytes = run_workload(resolve(s, target.geometry()), target, RunControl{});
  EXPECT_EQ(by_bytes.stats.read.ios + by_bytes.stats.write.ios, 100u);
  EXPECT_GE(by_bytes.elapsed_ns, 98'000'000u);
}

TEST(WorkloadRunner, ProgressExtrapolatesTheEndOfIoLimitedRuns) {
  test_support::ShmTempDir dir;
  const Target target = open_null_target(dir);
  WorkloadSpec s = null_spec();
  s.limits.ios = 1'000'000'000;  // far more than the null engine does before the first report
  std::atomic<bool> stop{false};
  RunControl control;
  control.stop_requested = &stop;
  control.progress_interval_ns = 10'000'000;
  Progress seen;
  control.on_progress = [&](const Progress& p) {
    if (stop) {
      return;  // a later report while the workers stop (a loaded machine) has nothing new
    }
    seen = p;
    stop = true;
  };
  run_workload(resolve(s, target.geometry()), target, control);
  EXPECT_GT(seen.bytes_done, 0u);
  EXPECT_GT(seen.live_iops, 0.0);
  EXPECT_GT(seen.live_mb_per_s, 0.0);
  // expected = elapsed * limit / done: later than now, since the limit is not reached.
  EXPECT_GT(seen.expected_ns, seen.elapsed_ns);
}

TEST(WorkloadRunner, PinnedWorkersRunOnTheirCpus) {
  test_support::ShmTempDir dir;
  const Target target = open_null_target(dir);
  WorkloadSpec s = null_spec();
  s.threads = 2;
  s.cpus = {0};
  s.limits.duration_ns = 30ULL * 1'000'000'000;
  std::atomic<bool> stop{false};
  RunControl control;
  control.stop_requested = &stop;
  control.progress_interval_ns = 10'000'000;
  std::vector<std::string> worker_cpus;
  control.on_progress = [&](const Progress&) {
    // Only the first callback looks: another may come before the workers see `stop`.
    if (!worker_cpus.empty()) {
      return;
    }
    // Every thread but this one is a worker: read the CPUs each may run on.
    const auto self = std::to_string(::syscall(SYS_gettid));
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
      if (task.path().filename() == self) {
        continue;
      }
      std::ifstream status(task.path() / "status");
      std::string line;
      while (std::getline(status, line)) {
        if (line.rfind("Cpus_allowed_list:", 0) == 0) {
          worker_cpus.push_back(line.substr(line.find_first_not_of(" \t", 18)));
        }
      }
    }
    stop = true;
  };
  run_workload(resolve(s, target.geometry()), target, control);
  ASSERT_EQ(worker_cpus.size(), 2u);
  EXPECT_EQ(worker_cpus[0], "0");
  EXPECT_EQ(worker_cpus[1], "0");
}

TEST(WorkloadRunner, ReadPastTheEndIsRecordedAndStopsTheRun) {
  // The file shrinks after the target was opened: reads past the new end come back short,
  // which the queue records as an IO error; the run stops and reports the first one.
  for (const char* engine_name : {"libaio", "sync"}) {
    if (std::string(engine_name) == "libaio" && !libaio_available()) {
      continue;
    }
    test_support::ShmTempDir dir;
    const std::string file = dir.create_file("shrinking.img", 8 * k_mib);
    const Target target = Target::open_read_only(file);
    WorkloadSpec s;
    s.engine = engine_name;
    s.pattern = AccessPattern::sequential;
    s.block_sizes = {{64 * 1024, 1}};
    s.limits.bytes_range_multiple = 1;
    const ResolvedWorkload w = resolve(s, target.geometry());
    ASSERT_EQ(::truncate(file.c_str(), 4 * k_mib), 0);
    const WorkloadResult r = run_workload(w, target, RunControl{});
    EXPECT_EQ(r.stop_reason, StopReason::io_error) << engine_name;
    ASSERT_TRUE(r.first_error.has_value()) << engine_name;
    EXPECT_EQ(r.first_error->op, engine::IoOp::read);
    EXPECT_EQ(r.first_error->offset_bytes, 4 * k_mib) << engine_name;
    EXPECT_EQ(r.first_error->length_bytes, 64u * 1024);
    EXPECT_TRUE(r.first_error->short_transfer);
    EXPECT_GE(r.error_count, 1u);
    EXPECT_EQ(r.stats.read.bytes, 4 * k_mib) << engine_name;  // everything before the end counted
  }
}

TEST(WorkloadRunner, WritesNeedATargetOpenedForWriting) {
  test_support::ShmTempDir dir;
  const Target target = Target::open_read_only(dir.create_file("ro.img", k_mib));
  WorkloadSpec s = null_spec();
  s.limits.ios = 1;
  EXPECT_THROW(run_workload(resolve(s, target.geometry()), target, RunControl{}), SystemError);
}

}  // namespace
}  // namespace ptsuite::workload
