// Untimed completion waits and the runner's way of ending them: an engine waiting with
// k_no_timeout returns -EINTR when the WaitInterrupter signals its thread (stop requested,
// deadline passed), and the interrupter's schedule (at the deadline, then every 50 ms).
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <thread>
#include <vector>

#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/util/clock.hpp>

#include "support/temp_dir.hpp"
#include "workload/wake_signal.hpp"

namespace ptsuite::workload::detail {
namespace {

constexpr uint64_t k_ms = 1'000'000;

std::string unavailable_reason(const std::string& name) {
  for (const engine::EngineInfo& info : engine::list_engines()) {
    if (info.name == name) {
      return info.unavailable_reason;
    }
  }
  return "not registered";
}

class UntimedWait : public ::testing::TestWithParam<std::string> {};

TEST_P(UntimedWait, EndsWithEintrWhenTheInterrupterSignalsTheThread) {
  const std::string why_not = unavailable_reason(GetParam());
  if (!why_not.empty()) {
    GTEST_SKIP() << GetParam() << " unavailable here: " << why_not;
  }
  install_wake_handler();
  test_support::ShmTempDir dir;
  const engine::Target target = engine::Target::open_read_only(dir.create_file("t.img", 1 << 20));
  const auto engine = engine::create_engine(GetParam());
  engine->open({.fd = target.fd(), .queue_depth = 4});

  // Nothing is in flight, so only a signal can end this wait.
  std::atomic<int> result{1};
  std::vector<std::thread> threads;
  threads.emplace_back([&] {
    engine->bind_to_current_thread();
    std::vector<engine::IoCompletion> out(4);
    result = engine->reap(1, out, engine::k_no_timeout);
  });
  std::atomic<bool> stop{false};
  StopFlags flags;
  flags.requested = &stop;
  const uint64_t start = monotonic_ns();
  WaitInterrupter interrupter(start, 0, flags, threads);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(result.load(), 1) << "the untimed wait returned by itself";
  stop = true;
  // Checked as the runner does, until the thread has left its wait: a signal that came just
  // before the wait started is repeated at the next check.
  for (uint64_t now = interrupter.next_check_ns(); result.load() == 1; now += WaitInterrupter::k_check_interval_ns) {
    EXPECT_TRUE(interrupter.check(now));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  threads[0].join();
  EXPECT_EQ(result.load(), -EINTR);
  engine->close();
}

INSTANTIATE_TEST_SUITE_P(AsyncEngines, UntimedWait, ::testing::Values("libaio", "io_uring"),
                         [](const auto& param_info) { return param_info.param; });

TEST(WaitInterrupter, ChecksAtTheDeadlineThenEveryFiftyMilliseconds) {
  StopFlags flags;
  std::vector<std::thread> none;
  const uint64_t start = 1000 * k_ms;
  WaitInterrupter with_deadline(start, 120 * k_ms, flags, none);
  EXPECT_EQ(with_deadline.next_check_ns(), start + 50 * k_ms);
  EXPECT_FALSE(with_deadline.check(start + 10 * k_ms));  // not due yet
  EXPECT_FALSE(with_deadline.check(start + 50 * k_ms));  // due, nothing to end
  EXPECT_EQ(with_deadline.next_check_ns(), start + 100 * k_ms);
  EXPECT_FALSE(with_deadline.check(start + 100 * k_ms));
  EXPECT_EQ(with_deadline.next_check_ns(), start + 120 * k_ms);  // the deadline itself
  EXPECT_TRUE(with_deadline.check(start + 120 * k_ms));
  EXPECT_EQ(with_deadline.next_check_ns(), start + 170 * k_ms);
  EXPECT_TRUE(with_deadline.check(start + 170 * k_ms));  // again until the workers are gone

  WaitInterrupter without_deadline(start, 0, flags, none);
  EXPECT_FALSE(without_deadline.check(start + 50 * k_ms));
  flags.abort = true;  // another worker failed
  EXPECT_TRUE(without_deadline.check(start + 100 * k_ms));
}

}  // namespace
}  // namespace ptsuite::workload::detail
