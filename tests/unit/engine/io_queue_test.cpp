// IoQueue against a scripted engine: submission retries, error records, accounting, the
// queue-depth invariant, drain and the timing model, all without real IO.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <set>

#include <ptsuite/engine/io_queue.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"
#include "unit/engine/scripted_engine.hpp"

namespace ptsuite::engine {
namespace {

using units::k_ns_per_s;

using testing::EngineScript;
using testing::k_accept_all;
using testing::ScriptedEngine;

class IoQueueTest : public ::testing::Test {
 protected:
  IoQueueTest() : m_target(Target::open(test_support::writable(m_dir.create_file("target.img", 1 << 20)).writable())) {}

  IoQueue make_queue(uint32_t queue_depth, uint32_t max_block_bytes = 65536) {
    return IoQueue(std::make_unique<ScriptedEngine>(m_script), m_target, queue_depth, max_block_bytes);
  }

  // The one invariant every IoQueue state must satisfy.
  static void expect_slots_accounted(const IoQueue& q) {
    EXPECT_EQ(q.free_slots() + q.staged() + q.in_flight(), q.queue_depth());
    EXPECT_LE(q.in_flight(), q.queue_depth());
  }

  test_support::ShmTempDir m_dir;
  Target m_target;
  std::shared_ptr<EngineScript> m_script = std::make_shared<EngineScript>();
};

TEST_F(IoQueueTest, OpensTheEngineOnTheTargetWithItsQueueDepth) {
  IoQueue q = make_queue(8);
  EXPECT_EQ(m_script->opened_fd, m_target.fd());
  EXPECT_EQ(m_script->opened_queue_depth, 8u);
  EXPECT_EQ(q.queue_depth(), 8u);
  EXPECT_EQ(q.free_slots(), 8u);
  EXPECT_EQ(q.staged(), 0u);
  EXPECT_EQ(q.in_flight(), 0u);
  EXPECT_EQ(q.engine().name(), "scripted");
}

TEST_F(IoQueueTest, HandsTheEngineItsSlotBuffersAndTheIoThread) {
  // Engines that register memory (io_uring) get the arena: slot i's buffer at base + i * stride.
  IoQueue q = make_queue(4, 8192);
  ASSERT_NE(m_script->opened_buffer_base, nullptr);
  EXPECT_EQ(m_script->opened_buffer_stride_bytes, 8192u);
  for (uint32_t i = 0; i < 4; ++i) {
    const std::span<std::byte> buffer = q.stage(IoOp::read, 0, 4096);
    const uint32_t slot = q.last_staged_slot();
    EXPECT_EQ(slot, i);  // a fresh queue hands out slot 0 first
    EXPECT_EQ(buffer.data(), m_script->opened_buffer_base + uint64_t{slot} * 8192);
  }
  EXPECT_EQ(m_script->bind_calls, 0);
  q.bind_to_current_thread();
  EXPECT_EQ(m_script->bind_calls, 1);
}

TEST_F(IoQueueTest, RejectsBadConstructionArguments) {
  EXPECT_THROW(make_queue(0), UsageError);
  EXPECT_THROW(make_queue(4, 0), UsageError);
  EXPECT_THROW(make_queue(4, 4096 + 100), UsageError);  // not a multiple of the logical block
  m_script->max_queue_depth = 4;
  EXPECT_NO_THROW(make_queue(4));
  try {
    make_queue(5);
    ADD_FAILURE() << "accepted a queue depth above the engine's limit";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("queue_depth: "), std::string::npos) << e.what();
  }
}

TEST_F(IoQueueTest, StagedBuffersAreAlignedDistinctAndHandedToTheEngine) {
  IoQueue q = make_queue(16, 8192);
  std::set<const std::byte*> buffers;
  for (uint32_t i = 0; i < 16; ++i) {
    const std::span<std::byte> buffer = q.stage(IoOp::write, uint64_t{i} * 8192, 8192);
    ASSERT_EQ(buffer.size(), 8192u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer.data()) % 4096, 0u);
    std::memset(buffer.data(), static_cast<int>(i), buffer.size());  // must be writable
    buffers.insert(buffer.data());
  }
  EXPECT_EQ(buffers.size(), 16u);
  // No two buffers overlap: they are at least a block apart.
  for (auto it = std::next(buffers.begin()); it != buffers.end(); ++it) {
    EXPECT_GE(*it - *std::prev(it), 8192);
  }
  ASSERT_EQ(q.flush(), 0);
  ASSERT_EQ(m_script->accepted.size(), 16u);
  for (uint32_t i = 0; i < 16; ++i) {
    const IoRequest& r = m_script->accepted[i];
    EXPECT_EQ(r.op, IoOp::write);
    EXPECT_EQ(r.offset_bytes, uint64_t{i} * 8192);  // staging order is submission order
    EXPECT_EQ(r.length_bytes, 8192u);
    EXPECT_EQ(static_cast<const std::byte*>(r.buffer)[0], std::byte(i));
    EXPECT_TRUE(buffers.count(static_cast<const std::byte*>(r.buffer)));
  }
}

TEST_F(IoQueueTest, CountsIosAndBytesExactlyPerDirection) {
  IoQueue q = make_queue(4);
  q.stage(IoOp::read, 0, 4096);
  q.stage(IoOp::read, 4096, 8192);
  q.stage(IoOp::write, 65536, 16384);
  ASSERT_EQ(q.flush(), 0);
  EXPECT_EQ(q.in_flight(), 3u);
  EXPECT_EQ(q.reap(3, k_ns_per_s), 3);
  q.stage(IoOp::write, 0, 512);
  ASSERT_EQ(q.flush(), 0);
  EXPECT_EQ(q.reap(1, k_ns_per_s), 1);

  const stats::IoStats& s = q.stats();
  EXPECT_EQ(s.read.ios, 2u);
  EXPECT_EQ(s.read.bytes, 12288u);
  EXPECT_EQ(s.read.latency.count, 2u);
  EXPECT_EQ(s.read.histogram.total_count(), 2u);
  EXPECT_EQ(s.write.ios, 2u);
  EXPECT_EQ(s.write.bytes, 16896u);
  EXPECT_EQ(s.write.histogram.total_count(), 2u);
  EXPECT_FALSE(q.has_error());

  const stats::LiveTotals live = q.live_totals();
  EXPECT_EQ(live.ios[0], 2u);
  EXPECT_EQ(live.ios[1], 2u);
  EXPECT_EQ(live.bytes[0], 12288u);
  EXPECT_EQ(live.bytes[1], 16896u);
  EXPECT_EQ(live.latency_sum_ns[0], static_cast<uint64_t>(s.read.latency.sum_ns));
  EXPECT_EQ(live.latency_sum_ns[1], static_cast<uint64_t>(s.write.latency.sum_ns));
  expect_slots_accounted(q);
}

TEST_F(IoQueueTest, ResubmitsTheRestAfterAPartialSubmit) {
  m_script->submit_returns = {3, 2, k_accept_all};
  IoQueue q = make_queue(8);
  for (uint32_t i = 0; i < 8; ++i) {
    q.stage(IoOp::read, uint64_t{i} * 4096, 4096);
  }
  ASSERT_EQ(q.flush(), 0);
  EXPECT_EQ(m_script->submit_calls, 3);
  EXPECT_EQ(m_script->submit_sizes, (std::vector<size_t>{8, 5, 3}));
  ASSERT_EQ(m_script->accepted.size(), 8u);
  for (uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(m_script->accepted[i].offset_bytes, uint64_t{i} * 4096) << "order lost at " << i;
  }
  EXPECT_EQ(q.in_flight(), 8u);
  EXPECT_EQ(q.staged(), 0u);
  expect_slots_accounted(q);
}

TEST_F(IoQueueTest, RetriesAfterEintrWithoutLosingOrDuplicatingRequests) {
  m_script->submit_returns = {-EINTR, 1, -EINTR, k_accept_all};
  IoQueue q = make_queue(4);
  for (uint32_t i = 0; i < 4; ++i) {
    q.stage(IoOp::write, uint64_t{i} * 4096, 4096);
  }
  ASSERT_EQ(q.flush(), 0);
  EXPECT_EQ(m_script->submit_calls, 4);
  EXPECT_EQ(m_script->accepted.size(), 4u);
  EXPECT_EQ(m_script->reap_calls, 0);  // EINTR needs no reap
  EXPECT_EQ(q.in_flight(), 4u);
}

TEST_F(IoQueueTest, EagainWithIoInFlightReapsOneCompletionBeforeRetrying) {
  IoQueue q = make_queue(8);
  for (uint32_t i = 0; i < 4; ++i) {
    q.stage(IoOp::read, uint64_t{i} * 4096, 4096);
  }
  ASSERT_EQ(q.flush(), 0);
  m_script->submit_returns = {-EAGAIN, k_accept_all};
  for (uint32_t i = 4; i < 8; ++i) {
    q.stage(IoOp::read, uint64_t{i} * 4096, 4096);
  }
  ASSERT_EQ(q.flush(), 0);
  EXPECT_EQ(m_script->reap_calls, 1);
  EXPECT_EQ(m_script->reap_min_args, (std::vector<uint32_t>{1}));
  EXPECT_EQ(q.stats().read.ios, 4u);  // the scripted device finished all four
  EXPECT_EQ(q.in_flight(), 4u);
  EXPECT_EQ(m_script->accepted.size(), 8u);
  expect_slots_accounted(q);
}

TEST_F(IoQueueTest, EagainWithNothingInFlightPausesAndRetries) {
  m_script->submit_returns = {-EAGAIN, 0, -EAGAIN, k_accept_all};
  IoQueue q = make_queue(2);
  q.stage(IoOp::read, 0, 4096);
  ASSERT_EQ(q.flush(), 0);
  EXPECT_EQ(m_script->submit_calls, 4);
  EXPECT_EQ(m_script->reap_calls, 0);
  EXPECT_EQ(q.in_flight(), 1u);
}

TEST_F(IoQueueTest, AnEngineThatNeverAcceptsEndsInARecordedError) {
  m_script->submit_default = -EAGAIN;
  IoQueue q = make_queue(2);
  q.stage(IoOp::write, 8192, 4096);
  q.stage(IoOp::write, 12288, 4096);
  EXPECT_EQ(q.flush(), -EAGAIN);
  ASSERT_TRUE(q.has_error());
  EXPECT_EQ(q.first_error()->errnum, EAGAIN);
  EXPECT_EQ(q.first_error()->offset_bytes, 8192u);
  EXPECT_EQ(q.staged(), 1u);  // the request behind the failed one stays staged
  expect_slots_accounted(q);
}

TEST_F(IoQueueTest, AnEngineThatAlwaysAcceptsZeroEndsInEagainToo) {
  m_script->submit_default = 0;
  IoQueue q = make_queue(1);
  q.stage(IoOp::read, 4096, 4096);
  EXPECT_EQ(q.flush(), -EAGAIN);
  ASSERT_TRUE(q.has_error());
  EXPECT_EQ(q.first_error()->errnum, EAGAIN);
  EXPECT_FALSE(q.first_error()->short_transfer);
  EXPECT_EQ(q.free_slots(), 1u);
}

TEST_F(IoQueueTest, HardSubmitFailureIsRecordedForTheFirstRemainingRequest) {
  m_script->submit_returns = {2, -EBADF};
  IoQueue q = make_queue(8);
  for (uint32_t i = 0; i < 5; ++i) {
    q.stage(IoOp::write, uint64_t{i} * 4096, 4096);
  }
  EXPECT_EQ(q.flush(), -EBADF);
  ASSERT_TRUE(q.has_error());
  const IoErrorRecord& e = *q.first_error();
  EXPECT_EQ(e.errnum, EBADF);
  EXPECT_EQ(e.op, IoOp::write);
  EXPECT_EQ(e.offset_bytes, 2u * 4096);
  EXPECT_EQ(e.length_bytes, 4096u);
  EXPECT_EQ(e.result, -EBADF);
  EXPECT_FALSE(e.short_transfer);
  EXPECT_EQ(q.error_count(), 1u);
  EXPECT_EQ(q.in_flight(), 2u);
  EXPECT_EQ(q.staged(), 2u);
  expect_slots_accounted(q);

  q.drain();  // discards the two still staged, reaps the two in flight
  EXPECT_EQ(q.in_flight(), 0u);
  EXPECT_EQ(q.staged(), 0u);
  EXPECT_EQ(q.free_slots(), 8u);
  EXPECT_EQ(m_script->accepted.size(), 2u);
  EXPECT_EQ(q.stats().write.ios, 2u);
}

TEST_F(IoQueueTest, ShortTransfersAndFailedCompletionsBecomeErrorRecordsNotStatistics) {
  m_script->result_by_offset = {{4096, 2048}, {8192, -EIO}, {12288, -ENOSPC}};
  IoQueue q = make_queue(4);
  q.stage(IoOp::read, 0, 4096);
  q.stage(IoOp::read, 4096, 4096);
  q.stage(IoOp::write, 8192, 4096);
  q.stage(IoOp::write, 12288, 4096);
  ASSERT_EQ(q.flush(), 0);
  EXPECT_EQ(q.reap(4, k_ns_per_s), 4);  // failed IOs are still reaped and their slots freed

  EXPECT_EQ(q.error_count(), 3u);
  const IoErrorRecord& first = *q.first_error();  // the first one kept
  EXPECT_TRUE(first.short_transfer);
  EXPECT_EQ(first.errnum, EIO);
  EXPECT_EQ(first.result, 2048);
  EXPECT_EQ(first.offset_bytes, 4096u);
  EXPECT_EQ(first.op, IoOp::read);
  EXPECT_EQ(q.stats().read.ios, 1u);
  EXPECT_EQ(q.stats().read.bytes, 4096u);
  EXPECT_EQ(q.stats().write.ios, 0u);
  EXPECT_EQ(q.stats().write.histogram.total_count(), 0u);
  EXPECT_EQ(q.free_slots(), 4u);
}

TEST_F(IoQueueTest, NegativeCompletionKeepsItsErrno) {
  m_script->result_by_offset = {{0, -ENOSPC}};
  IoQueue q = make_queue(1);
  q.stage(IoOp::write, 0, 4096);
  ASSERT_EQ(q.flush(), 0);
  ASSERT_EQ(q.reap(1, k_ns_per_s), 1);
  EXPECT_EQ(q.first_error()->errnum, ENOSPC);
  EXPECT_FALSE(q.first_error()->short_transfer);
}

TEST_F(IoQueueTest, ReapEintrLosesNothing) {
  IoQueue q = make_queue(4);
  q.stage(IoOp::read, 0, 4096);
  q.stage(IoOp::read, 4096, 4096);
  ASSERT_EQ(q.flush(), 0);
  m_script->reap_errors = {-EINTR};
  EXPECT_EQ(q.reap(2, k_ns_per_s), -EINTR);
  EXPECT_EQ(q.in_flight(), 2u);
  EXPECT_EQ(q.reap(2, k_ns_per_s), 2);
  EXPECT_EQ(q.stats().read.ios, 2u);
  EXPECT_FALSE(q.has_error());
}

TEST_F(IoQueueTest, ReapAsksForAtMostWhatIsInFlight) {
  IoQueue q = make_queue(8);
  EXPECT_EQ(q.reap(5, k_ns_per_s), 0);  // nothing in flight: the engine is not even asked
  EXPECT_EQ(m_script->reap_calls, 0);
  q.stage(IoOp::read, 0, 4096);
  q.stage(IoOp::read, 4096, 4096);
  ASSERT_EQ(q.flush(), 0);
  EXPECT_EQ(q.reap(5, k_ns_per_s), 2);
  EXPECT_EQ(m_script->reap_min_args, (std::vector<uint32_t>{2}));
}

TEST_F(IoQueueTest, DrainWaitsForEverythingInFlightAndDiscardsStagedIos) {
  IoQueue q = make_queue(8);
  for (uint32_t i = 0; i < 5; ++i) {
    q.stage(IoOp::write, uint64_t{i} * 4096, 4096);
  }
  ASSERT_EQ(q.flush(), 0);
  q.stage(IoOp::write, 65536, 4096);
  q.stage(IoOp::write, 69632, 4096);
  m_script->reap_errors = {-EINTR};  // drain must ride over an interrupted wait
  q.drain();
  EXPECT_EQ(q.in_flight(), 0u);
  EXPECT_EQ(q.staged(), 0u);
  EXPECT_EQ(q.free_slots(), 8u);
  EXPECT_EQ(q.stats().write.ios, 5u);
  EXPECT_EQ(m_script->accepted.size(), 5u);  // the staged two never reached the engine
  EXPECT_FALSE(q.has_error());
  EXPECT_EQ(m_script->close_calls, 0);
}

TEST_F(IoQueueTest, DrainAfterAFailingReapClosesTheEngineAndCountsTheLostIos) {
  IoQueue q = make_queue(8);
  for (uint32_t i = 0; i < 3; ++i) {
    q.stage(IoOp::read, uint64_t{i} * 4096, 4096);
  }
  ASSERT_EQ(q.flush(), 0);
  m_script->reap_default_error = -EFAULT;
  q.drain();
  EXPECT_EQ(m_script->close_calls, 1);  // close() waits for the kernel to let go of buffers
  EXPECT_EQ(q.in_flight(), 0u);
  EXPECT_EQ(q.free_slots(), 8u);
  EXPECT_EQ(q.error_count(), 3u);
  EXPECT_EQ(q.first_error()->errnum, EFAULT);
  EXPECT_EQ(q.stats().read.ios, 0u);
}

TEST_F(IoQueueTest, DestructorDrainsAndClosesTheEngine) {
  {
    IoQueue q = make_queue(4);
    q.stage(IoOp::read, 0, 4096);
    q.stage(IoOp::read, 4096, 4096);
    ASSERT_EQ(q.flush(), 0);
  }
  EXPECT_TRUE(m_script->in_flight.empty());
  EXPECT_GE(m_script->reap_calls, 1);  // reaped, not just abandoned to close()
  EXPECT_EQ(m_script->close_calls, 1);
}

// A long random sequence of partial submits, EAGAIN, EINTR and reaps: the engine never sees
// more than queue_depth requests in flight and every slot is always accounted for.
TEST_F(IoQueueTest, QueueDepthInvariantHoldsUnderScriptedChaos) {
  constexpr uint32_t k_depth = 6;
  IoQueue q = make_queue(k_depth);
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  uint64_t staged_total = 0;
  for (int round = 0; round < 2000; ++round) {
    const uint32_t to_stage = next() % (q.free_slots() + 1);
    for (uint32_t i = 0; i < to_stage; ++i) {
      q.stage(next() % 2 ? IoOp::read : IoOp::write, uint64_t{next() % 256} * 4096, 4096);
      ++staged_total;
    }
    const int choices[] = {1, 2, 3, -EAGAIN, -EINTR, k_accept_all};
    m_script->submit_returns = {choices[next() % 6], choices[next() % 6], k_accept_all};
    ASSERT_EQ(q.flush(), 0);
    expect_slots_accounted(q);
    ASSERT_LE(m_script->max_in_flight, k_depth);
    if (next() % 3 == 0) {
      ASSERT_GE(q.reap(1, k_ns_per_s), 0);
    }
    expect_slots_accounted(q);
  }
  q.drain();
  EXPECT_EQ(m_script->max_in_flight, k_depth);  // the queue did fill up at times
  EXPECT_EQ(q.stats().read.ios + q.stats().write.ios, staged_total);
  EXPECT_EQ(q.free_slots(), k_depth);
}

// Timing model: one stamp per submit call, one per reap call. IOs accepted by the same submit
// call and returned by the same reap call therefore have identical latencies, and the stamps
// lie between clock readings taken around the calls.
TEST_F(IoQueueTest, OneStampPerSubmitCallAndPerReapCall) {
  IoQueue q = make_queue(8);
  for (uint32_t i = 0; i < 8; ++i) {
    q.stage(IoOp::read, uint64_t{i} * 4096, 4096);
  }
  const uint64_t before_ns = monotonic_ns();
  ASSERT_EQ(q.flush(), 0);
  ASSERT_EQ(q.reap(8, k_ns_per_s), 8);
  const uint64_t after_ns = monotonic_ns();

  const stats::LatencyMoments& lat = q.stats().read.latency;
  EXPECT_EQ(lat.count, 8u);
  EXPECT_EQ(lat.min_ns, lat.max_ns);
  EXPECT_LE(lat.max_ns, after_ns - before_ns);
  EXPECT_GE(q.last_reap_ns(), before_ns);
  EXPECT_LE(q.last_reap_ns(), after_ns);
}

TEST_F(IoQueueTest, PartialSubmitsGetTheirOwnLaterStamps) {
  m_script->submit_returns = {3, k_accept_all};
  IoQueue q = make_queue(8);
  for (uint32_t i = 0; i < 8; ++i) {
    q.stage(IoOp::write, uint64_t{i} * 4096, 4096);
  }
  ASSERT_EQ(q.flush(), 0);
  ASSERT_EQ(q.reap(8, k_ns_per_s), 8);
  // Two submit stamps, one reap stamp: at most two distinct latencies; the first three IOs
  // (stamped earlier) have the larger one.
  const stats::LatencyMoments& lat = q.stats().write.latency;
  EXPECT_EQ(lat.count, 8u);
  EXPECT_EQ(static_cast<uint64_t>(lat.sum_ns), 3 * lat.max_ns + 5 * lat.min_ns);
}

TEST_F(IoQueueTest, ReapStampsNeverGoBackwards) {
  IoQueue q = make_queue(2);
  uint64_t previous_ns = 0;
  for (int i = 0; i < 100; ++i) {
    q.stage(IoOp::read, 0, 4096);
    ASSERT_EQ(q.flush(), 0);
    ASSERT_EQ(q.reap(1, k_ns_per_s), 1);
    EXPECT_GE(q.last_reap_ns(), previous_ns);
    previous_ns = q.last_reap_ns();
  }
  EXPECT_EQ(q.stats().read.latency.count, 100u);
  EXPECT_LE(q.stats().read.latency.max_ns, q.last_reap_ns());
}

}  // namespace
}  // namespace ptsuite::engine
