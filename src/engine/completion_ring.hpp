// Private: a fixed-capacity FIFO of completions for engines that finish IO inside submit()
// (sync, null): submit() pushes, reap() pops. Capacity is set once in open(); push/pop never
// allocate. Not thread-safe (one engine per worker thread).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include <ptsuite/engine/io_types.hpp>

namespace ptsuite::engine {

class CompletionRing {
 public:
  void reset(uint32_t capacity) {
    m_entries.assign(capacity, IoCompletion{});
    m_head = 0;
    m_size = 0;
  }

  [[nodiscard]] uint32_t size() const noexcept { return m_size; }
  [[nodiscard]] uint32_t room() const noexcept { return static_cast<uint32_t>(m_entries.size()) - m_size; }

  // Precondition: room() > 0.
  void push(IoCompletion completion) noexcept {
    uint32_t tail = m_head + m_size;
    if (tail >= m_entries.size()) {
      tail -= static_cast<uint32_t>(m_entries.size());
    }
    m_entries[tail] = completion;
    ++m_size;
  }

  // Moves the oldest min(size(), out.size()) completions into `out`; returns how many.
  uint32_t pop_into(std::span<IoCompletion> out) noexcept {
    const uint32_t count = std::min<uint32_t>(m_size, static_cast<uint32_t>(out.size()));
    const auto capacity = static_cast<uint32_t>(m_entries.size());
    for (uint32_t i = 0; i < count; ++i) {
      out[i] = m_entries[m_head];
      m_head = m_head + 1 == capacity ? 0 : m_head + 1;
    }
    m_size -= count;
    return count;
  }

 private:
  std::vector<IoCompletion> m_entries;
  uint32_t m_head = 0;
  uint32_t m_size = 0;
};

}  // namespace ptsuite::engine
