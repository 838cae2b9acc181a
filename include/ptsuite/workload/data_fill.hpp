// Contract: the bytes of every write. One instance per worker thread, for the buffers of that
// thread's IoQueue (buffer index = IoQueue slot); fill() and invalidate() are allocation-free
// and noexcept, the constructor builds the pool.
//
// Patterns (DataPattern in workload_spec.hpp):
//   random  Incompressible and never repeating, at a cost that does not grow with a pass over
//           the buffer per IO (fio's scramble idea, made exact). The thread owns a pool of P
//           random bytes (P = max(1 MiB, 2 * max_block_bytes) rounded up to a power of two,
//           from the thread's `data` stream, rng.hpp). Every buffer has a fixed BASE: buffer b
//           holds the pool, cyclically, from the 8-byte-aligned pool offset
//               8 * (mix64(k_offset ^ b) mod P/8)
//           copied in only when the buffer does not hold it yet (first use, or after a read
//           landed in it: invalidate()). Per IO, the first 16 bytes of every 512-byte sector
//           are overwritten by a tag
//               w0 = mix64(k_tag0 + (io_sequence << 17 | sector)),   w1 = w0 ^ thread_tag
//           (sector = index of the 512-byte sector inside the IO, < 2^17 since IOs are at most
//           64 MiB; thread_tag = mix64(k_run + thread) with k_run from the seed alone, so it is
//           the same function for every thread). mix64 is a bijection, so w0 differs for every
//           (io_sequence, sector) of a thread and w0 ^ w1 for every thread: no two 512-byte
//           sectors written in a run are equal, hence no two sector-aligned blocks of any size
//           (defeats deduplication); the other 496 bytes of each sector are random and the pool
//           never repeats inside one buffer (P >= 2 * length), so no block compresses. The
//           per-IO cost is 16 bytes and one hash per 512 bytes (a full copy only after a read).
//           Regenerable: sector s of the IO with sequence q written from buffer b is the tag
//           (q, s) followed by bytes 16..511 of buffer b's base at s * 512.
//   refill  Every byte fresh from a xoshiro256** seeded with mix64(k_refill ^ io_sequence): the
//           strictest option, a pure function of (seed, thread, io_sequence, length) whatever
//           the buffer (about 5-10x the CPU of a 4 KiB `random` write, 100x at 128 KiB).
//   zeros   All zero: an operator's choice the report must disclose (not PTS-compliant).
// io_sequence is IoGenerator::sequence() before that IO was generated. Keys k_* are derived
// from derive_seed(seed, thread, RngStream::data) (docs/workload.md). The same seed writes the
// same tags to the same offsets again: use a new seed for a run whose data a deduplicating
// device must not recognise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::workload {

class DataFiller {
 public:
  static constexpr uint64_t k_min_pool_bytes = 1ULL << 20;
  static constexpr uint64_t k_tag_interval_bytes = 512;  // one tag per 512-byte sector
  static constexpr uint64_t k_tag_bytes = 16;
  static constexpr unsigned k_sector_bits = 17;  // 64 MiB / 512 B = 2^17 sectors

  // `buffer_count` buffers, indexed 0 .. buffer_count - 1 (the IoQueue's slots).
  DataFiller(DataPattern pattern, uint64_t seed, uint32_t thread, uint64_t max_block_bytes, uint32_t buffer_count);

  // Writes the data of IO `io_sequence` into `buffer`, which is buffer `buffer_index` and keeps
  // its content between calls unless invalidate() says otherwise.
  // Precondition: buffer.size() is a multiple of 512 and <= max_block_bytes; buffer_index <
  // buffer_count.
  void fill(std::span<std::byte> buffer, uint64_t io_sequence, uint32_t buffer_index) noexcept;

  // Buffer `buffer_index` was overwritten by someone else (a read landed in it).
  void invalidate(uint32_t buffer_index) noexcept {
    if (!m_base_bytes.empty()) {
      m_base_bytes[buffer_index] = 0;
    }
  }

  [[nodiscard]] DataPattern pattern() const noexcept { return m_pattern; }
  [[nodiscard]] uint64_t pool_bytes() const noexcept { return m_pool.size() * sizeof(uint64_t); }

 private:
  void fill_random(std::span<std::byte> buffer, uint64_t io_sequence, uint32_t buffer_index) noexcept;
  void copy_base(std::span<std::byte> buffer, uint64_t from_bytes, uint32_t buffer_index) const noexcept;
  void fill_refill(std::span<std::byte> buffer, uint64_t io_sequence) const noexcept;

  DataPattern m_pattern;
  uint64_t m_thread_tag = 0;
  uint64_t m_offset_key = 0;
  uint64_t m_tag0_key = 0;
  uint64_t m_refill_key = 0;
  std::vector<uint64_t> m_pool;        // empty unless pattern == random
  std::vector<uint32_t> m_base_bytes;  // per buffer: leading bytes that hold its base (random only)
};

}  // namespace ptsuite::workload
