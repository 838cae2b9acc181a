// Contract: the bytes of every write. Deterministic: the data of IO number `io_sequence` of
// thread `thread` (IoGenerator::sequence() before that IO was generated) depends only on
// (pattern, seed, thread, max_block_bytes, io_sequence, length), so a test or a verifier can
// regenerate exactly what was written. One instance per worker thread; fill() is
// allocation-free and noexcept; the constructor builds the pool.
//
// Patterns (DataPattern in workload_spec.hpp):
//   random  Incompressible and unique without paying for a PRNG per byte. The thread owns a
//           pool of P random bytes (P = max(1 MiB, 2 * max_block_bytes) rounded up to a power
//           of two, generated from the thread's `data` stream, rng.hpp). An IO copies
//           `length` bytes of the pool, cyclically, from the 8-byte-aligned pool offset
//           8 * (mix64(k_offset ^ io_sequence) mod P/8). Then the first 16 bytes of every
//           512-byte sector are overwritten by a tag
//               w0 = mix64(k_tag0 + (io_sequence << 17 | sector))
//               w1 = w0 ^ mix64(k_tag1 + (thread << 17 | sector))
//           (sector = index of the 512-byte sector inside the IO, < 2^17 since IOs are at
//           most 64 MiB). mix64 is a bijection, so (w0, w1) differs for every (thread,
//           io_sequence, sector) of a run: no two sectors written are equal, which defeats
//           deduplication; the rest of each sector is random, which defeats compression.
//           Because P >= 2 * length, the pool never repeats inside one IO.
//   refill  Every byte fresh from a xoshiro256** seeded with mix64(k_refill ^ io_sequence):
//           the strictest option (about 5-10x the CPU of `random`).
//   zeros   All zero: an operator's choice the report must disclose (not PTS-compliant).
// Keys k_* are derived from derive_seed(seed, thread, RngStream::data) (docs/workload.md).
// The same seed writes the same data to the same offsets again: use a new seed for a run
// whose data a deduplicating device must not recognise.
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

  DataFiller(DataPattern pattern, uint64_t seed, uint32_t thread, uint64_t max_block_bytes);

  // Precondition: buffer.size() is a multiple of 512 and <= max_block_bytes.
  void fill(std::span<std::byte> buffer, uint64_t io_sequence) const noexcept;

  [[nodiscard]] DataPattern pattern() const noexcept { return m_pattern; }
  [[nodiscard]] uint64_t pool_bytes() const noexcept { return m_pool.size() * sizeof(uint64_t); }

 private:
  void fill_random(std::span<std::byte> buffer, uint64_t io_sequence) const noexcept;
  void fill_refill(std::span<std::byte> buffer, uint64_t io_sequence) const noexcept;

  DataPattern m_pattern;
  uint64_t m_thread = 0;
  uint64_t m_offset_key = 0;
  uint64_t m_tag0_key = 0;
  uint64_t m_tag1_key = 0;
  uint64_t m_refill_key = 0;
  std::vector<uint64_t> m_pool;  // empty unless pattern == random
};

}  // namespace ptsuite::workload
