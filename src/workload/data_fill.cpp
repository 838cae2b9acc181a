#include <ptsuite/workload/data_fill.hpp>

#include <algorithm>
#include <bit>
#include <cstring>

#include <ptsuite/workload/rng.hpp>

namespace ptsuite::workload {

DataFiller::DataFiller(DataPattern pattern, uint64_t seed, uint32_t thread, uint64_t max_block_bytes)
    : m_pattern(pattern), m_thread(thread) {
  SplitMix64 keys(derive_seed(seed, thread, RngStream::data));
  m_offset_key = keys.next();
  m_tag0_key = keys.next();
  m_tag1_key = keys.next();
  m_refill_key = keys.next();
  if (pattern != DataPattern::random) {
    return;
  }
  const uint64_t pool_bytes = std::bit_ceil(std::max(k_min_pool_bytes, 2 * max_block_bytes));
  m_pool.resize(pool_bytes / sizeof(uint64_t));
  Xoshiro256StarStar pool_rng(keys.next());
  for (uint64_t& word : m_pool) {
    word = pool_rng.next();
  }
}

void DataFiller::fill(std::span<std::byte> buffer, uint64_t io_sequence) const noexcept {
  switch (m_pattern) {
    case DataPattern::random:
      fill_random(buffer, io_sequence);
      return;
    case DataPattern::refill:
      fill_refill(buffer, io_sequence);
      return;
    case DataPattern::zeros:
      std::memset(buffer.data(), 0, buffer.size());
      return;
  }
}

void DataFiller::fill_random(std::span<std::byte> buffer, uint64_t io_sequence) const noexcept {
  const size_t pool_words = m_pool.size();  // a power of two
  size_t word = static_cast<size_t>(mix64(m_offset_key ^ io_sequence)) & (pool_words - 1);
  std::byte* out = buffer.data();
  size_t left = buffer.size();
  while (left > 0) {  // at most two copies: the pool is at least twice the IO size
    const size_t chunk = std::min(left, (pool_words - word) * sizeof(uint64_t));
    std::memcpy(out, m_pool.data() + word, chunk);
    out += chunk;
    left -= chunk;
    word = 0;
  }
  const uint64_t sectors = buffer.size() / k_tag_interval_bytes;
  const uint64_t io_base = io_sequence << k_sector_bits;
  const uint64_t thread_base = m_thread << k_sector_bits;
  for (uint64_t s = 0; s < sectors; ++s) {
    const uint64_t w0 = mix64(m_tag0_key + (io_base | s));
    const uint64_t w1 = w0 ^ mix64(m_tag1_key + (thread_base | s));
    std::byte* sector = buffer.data() + s * k_tag_interval_bytes;
    std::memcpy(sector, &w0, sizeof(uint64_t));
    std::memcpy(sector + sizeof(uint64_t), &w1, sizeof(uint64_t));
  }
}

void DataFiller::fill_refill(std::span<std::byte> buffer, uint64_t io_sequence) const noexcept {
  Xoshiro256StarStar rng(mix64(m_refill_key ^ io_sequence));
  std::byte* out = buffer.data();
  const size_t words = buffer.size() / sizeof(uint64_t);
  for (size_t i = 0; i < words; ++i) {
    const uint64_t v = rng.next();
    std::memcpy(out + i * sizeof(uint64_t), &v, sizeof(v));
  }
}

}  // namespace ptsuite::workload
