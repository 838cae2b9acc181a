// Contract: the per-thread stream of IO decisions (direction, size, offset) of a resolved
// workload. Pure and deterministic: IoGenerator(w, t) yields the same sequence for the same
// workload, seed and thread index, on any machine. One instance per worker thread; next() is
// allocation-free and noexcept (the tables are built by the constructor).
//
// Per IO, draws from the thread's io_decisions stream (rng.hpp) in this fixed order, each
// only when it can change the outcome:
//   1. direction: read when next() < read_pct/100 * 2^64   (skipped at 0 % and 100 %)
//   2. block size: the first i with next() < cumulative_probability[i] * 2^64 (skipped for
//      a single size)
//   3. random pattern: zone the same way (skipped for one zone), then the offset
//      first_offset + bounded(count) * align of that zone and size (OffsetSlots, resolve()).
//      Uniform without a random map: offsets may repeat, as in fio's norandommap.
// Sequential pattern: thread t owns slice t of the active range (SequentialLayout); each IO
// starts at the cursor, which then advances by the IO's size; an IO that would cross the end
// of the slice wraps to its start. The cursor (relative to the slice start) can be read and
// restored, so a later run continues where this one stopped.
// Multi-stream workload (ResolvedWorkload::streams): first the stream, drawn like a block size
// by the normalised weights (no draw for one stream), then the IO from that stream's own
// generator (seeded per stream by resolve(), thread `thread_index`, its own sequential cursor
// in its own slice). The multi-stream cursor is not restored (sequential_cursor_bytes() = 0).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <ptsuite/engine/io_types.hpp>
#include <ptsuite/workload/rng.hpp>
#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::workload {

struct IoDecision {
  engine::IoOp op = engine::IoOp::read;
  uint32_t length_bytes = 0;
  uint64_t offset_bytes = 0;  // absolute
  uint32_t stream = 0;        // index into ResolvedWorkload::streams (0 for one stream)
};

// p in [0, 1] as a threshold t with P(next() < t) = p for a uniform 64-bit draw; p = 1 maps
// to 2^64 - 1 (off by 2^-64, below any measurable bias).
uint64_t probability_threshold(double p) noexcept;

class IoGenerator {
 public:
  // `sequential_cursor_bytes` restores a sequential position (relative to the slice start);
  // a value at or past the slice end restarts at 0.
  IoGenerator(const ResolvedWorkload& workload, uint32_t thread_index, uint64_t sequential_cursor_bytes = 0);

  IoDecision next() noexcept {
    if (!m_streams.empty()) {
      const size_t s = pick(m_stream_thresholds);
      IoDecision io = m_streams[s].next();
      io.stream = static_cast<uint32_t>(s);
      ++m_sequence;
      return io;
    }
    IoDecision io;
    io.op = pick_direction();
    const size_t size_index = pick(m_size_thresholds);
    io.length_bytes = m_sizes[size_index];
    if (m_sequential) {
      if (m_cursor + io.length_bytes > m_slice_bytes) {
        m_cursor = 0;
        ++m_wraps;
      }
      io.offset_bytes = m_slice_start + m_cursor;
      m_cursor += io.length_bytes;
    } else {
      const size_t zone = pick(m_zone_thresholds);
      const Slot& s = m_slots[zone * m_sizes.size() + size_index];
      io.offset_bytes = s.first + (s.count > 1 ? m_rng.bounded(s.count) : 0) * s.align;
    }
    ++m_sequence;
    return io;
  }

  // IOs generated so far: the index the next IO will have (the data fill uses it).
  [[nodiscard]] uint64_t sequence() const noexcept { return m_sequence; }
  [[nodiscard]] uint64_t sequential_cursor_bytes() const noexcept { return m_cursor; }
  [[nodiscard]] uint64_t sequential_wraps() const noexcept { return m_wraps; }
  [[nodiscard]] uint64_t slice_start_bytes() const noexcept { return m_slice_start; }
  [[nodiscard]] uint64_t slice_bytes() const noexcept { return m_slice_bytes; }

 private:
  struct Slot {
    uint64_t first;
    uint64_t count;
    uint64_t align;
  };

  engine::IoOp pick_direction() noexcept {
    if (m_read_mode != Mix::mixed) {
      return m_read_mode == Mix::all_read ? engine::IoOp::read : engine::IoOp::write;
    }
    return m_rng.next() < m_read_threshold ? engine::IoOp::read : engine::IoOp::write;
  }
  // Index of the first cumulative threshold above a fresh draw (a binary search: AR segments
  // make thousands of zones); no draw for a single entry (an empty threshold list). The last
  // entry is implicit, so rounding can never lose it. Thresholds never decrease, so an entry
  // of probability 0 (an equal neighbour) is never returned.
  size_t pick(const std::vector<uint64_t>& thresholds) noexcept {
    if (thresholds.empty()) {
      return 0;
    }
    const uint64_t u = m_rng.next();
    return static_cast<size_t>(std::upper_bound(thresholds.begin(), thresholds.end(), u) - thresholds.begin());
  }

  enum class Mix { all_read, all_write, mixed };

  Xoshiro256StarStar m_rng;
  Mix m_read_mode = Mix::all_read;
  uint64_t m_read_threshold = 0;
  std::vector<uint32_t> m_sizes;
  std::vector<uint64_t> m_size_thresholds;  // cumulative, all but the last size
  std::vector<uint64_t> m_zone_thresholds;  // cumulative, all but the last zone
  std::vector<Slot> m_slots;
  bool m_sequential = false;
  uint64_t m_slice_start = 0;
  uint64_t m_slice_bytes = 0;
  uint64_t m_cursor = 0;
  uint64_t m_wraps = 0;
  uint64_t m_sequence = 0;
  std::vector<IoGenerator> m_streams;         // multi-stream: one generator per stream
  std::vector<uint64_t> m_stream_thresholds;  // cumulative, all but the last stream
};

}  // namespace ptsuite::workload
