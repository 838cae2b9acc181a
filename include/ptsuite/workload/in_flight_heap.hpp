// Contract: the simulated run's IOs in flight (workload::run_simulated_workload), earliest
// completion first, for docs/performance.md "Simulated drive".
// InFlightHeap is the binary heap of std::priority_queue<InFlight, std::vector, std::greater> on
// done_ns, step for step as libstdc++'s push_heap / pop_heap do it, so IOs that complete at the
// same virtual time come out in the same order as from that queue (a seed gives the same times
// it gave before the heap replaced it: tests/unit/workload/in_flight_heap_test.cpp compares the
// two). Its nodes are 16 bytes (completion time + the slot of the IO's details) instead of 32,
// and the child to follow is chosen without a branch (a random one: mispredicted half the time).
// Capacity is fixed at construction (threads x QD); no allocation after it, nothing thrown.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <ptsuite/engine/io_types.hpp>

namespace ptsuite::workload {

// One IO in flight: submitted at submit_ns, completes at done_ns (virtual time).
struct InFlight {
  uint64_t done_ns;
  uint64_t submit_ns;
  uint32_t thread;
  uint32_t length_bytes;
  engine::IoOp op;
};

class InFlightHeap {
 public:
  explicit InFlightHeap(size_t capacity) : m_ios(capacity) {
    m_nodes.reserve(capacity);
    m_free.reserve(capacity);
    for (size_t i = capacity; i-- > 0;) {
      m_free.push_back(static_cast<uint32_t>(i));
    }
  }
  [[nodiscard]] bool empty() const noexcept { return m_nodes.empty(); }
  // Precondition: fewer than `capacity` IOs in flight.
  void push(const InFlight& io) noexcept {
    const uint32_t slot = m_free.back();
    m_free.pop_back();
    m_ios[slot] = io;
    m_nodes.push_back(Node{io.done_ns, slot});
    sift_up(static_cast<ptrdiff_t>(m_nodes.size()) - 1, 0, Node{io.done_ns, slot});
  }
  InFlight pop() noexcept {
    const Node top = m_nodes.front();
    m_free.push_back(top.slot);
    const auto len = static_cast<ptrdiff_t>(m_nodes.size()) - 1;
    if (len > 0) {
      adjust(len, m_nodes.back());
    }
    m_nodes.pop_back();
    return m_ios[top.slot];
  }

 private:
  struct Node {
    uint64_t done_ns;
    uint32_t slot;
  };
  // std::__push_heap: the hole moves up while its parent completes later than `value`.
  void sift_up(ptrdiff_t hole, ptrdiff_t top, Node value) noexcept {
    Node* n = m_nodes.data();
    ptrdiff_t parent = (hole - 1) / 2;
    while (hole > top && n[parent].done_ns > value.done_ns) {
      n[hole] = n[parent];
      hole = parent;
      parent = (hole - 1) / 2;
    }
    n[hole] = value;
  }
  // std::__adjust_heap from the root over the first `len` nodes: the hole goes down to a leaf
  // along the earlier child (the left one among equals), then `value` moves up from there.
  void adjust(ptrdiff_t len, Node value) noexcept {
    Node* n = m_nodes.data();
    ptrdiff_t hole = 0;
    ptrdiff_t child = 0;
    while (child < (len - 1) / 2) {
      child = 2 * (child + 1);
      child -= static_cast<ptrdiff_t>(n[child].done_ns > n[child - 1].done_ns);
      n[hole] = n[child];
      hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
      child = 2 * (child + 1);
      n[hole] = n[child - 1];
      hole = child - 1;
    }
    sift_up(hole, 0, value);
  }
  std::vector<Node> m_nodes;
  std::vector<InFlight> m_ios;  // per slot
  std::vector<uint32_t> m_free;
};

}  // namespace ptsuite::workload
