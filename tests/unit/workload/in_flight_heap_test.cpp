#include <ptsuite/workload/in_flight_heap.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <vector>

namespace ptsuite::workload {
namespace {

struct ByDone {
  bool operator()(const InFlight& a, const InFlight& b) const noexcept { return a.done_ns > b.done_ns; }
};

// The simulated runner's pattern (fill to TC x QD, then pop one and push its successor, the
// queue draining at the end) with completion times from a narrow range, so most pops choose
// among IOs that complete at the same time: the heap must give them in the order
// std::priority_queue gave them (the order the simulated drive's times were pinned with).
TEST(InFlightHeap, TiesComeOutInTheOrderOfStdPriorityQueue) {
  for (const size_t capacity : {size_t{1}, size_t{2}, size_t{3}, size_t{7}, size_t{128}, size_t{129}}) {
    std::mt19937_64 rng(capacity);
    InFlightHeap heap(capacity);
    std::priority_queue<InFlight, std::vector<InFlight>, ByDone> reference;
    uint64_t sequence = 0;
    auto make = [&](uint64_t now_ns) {
      InFlight io{now_ns + rng() % 4, sequence, static_cast<uint32_t>(sequence % 5), 4096,
                  sequence % 3 == 0 ? engine::IoOp::read : engine::IoOp::write};
      ++sequence;
      return io;
    };
    for (size_t i = 0; i < capacity; ++i) {
      const InFlight io = make(0);
      heap.push(io);
      reference.push(io);
    }
    size_t popped = 0;
    while (!reference.empty()) {
      ASSERT_FALSE(heap.empty());
      const InFlight want = reference.top();
      reference.pop();
      const InFlight got = heap.pop();
      ASSERT_EQ(got.done_ns, want.done_ns) << "capacity " << capacity << ", pop " << popped;
      ASSERT_EQ(got.submit_ns, want.submit_ns) << "capacity " << capacity << ", pop " << popped;
      ASSERT_EQ(got.thread, want.thread);
      ASSERT_EQ(got.op, want.op);
      ++popped;
      if (sequence < 20'000) {
        const InFlight next = make(want.done_ns);
        heap.push(next);
        reference.push(next);
      }
    }
    EXPECT_TRUE(heap.empty());
    EXPECT_EQ(popped, sequence);
  }
}

}  // namespace
}  // namespace ptsuite::workload
