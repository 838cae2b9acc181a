#include <ptsuite/workload/data_fill.hpp>

#include <algorithm>
#include <bit>
#include <cstring>

#include <ptsuite/workload/rng.hpp>

namespace ptsuite::workload {

namespace {

// k_run, the key of the per-thread tags, is derived from the seed alone ("tag-thrd" in ASCII as
// the salt), so thread_tag = mix64(k_run + thread) is one bijection for every thread of a run.
constexpr uint64_t k_thread_tag_salt = 0x7461672d74687264ULL;

}  // namespace

DataFiller::DataFiller(DataPattern pattern, uint64_t seed, uint32_t thread, uint64_t max_block_bytes,
                       uint32_t buffer_count)
    : m_pattern(pattern), m_thread_tag(mix64(mix64(seed ^ k_thread_tag_salt) + thread)) {
  SplitMix64 keys(derive_seed(seed, thread, RngStream::data));
  m_offset_key = keys.next();
  m_tag0_key = keys.next();
  keys.next();  // reserved: keeps the refill key and the pool seed where they always were (same `refill` data)
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
  m_base_bytes.assign(buffer_count, 0);
}

void DataFiller::fill(std::span<std::byte> buffer, uint64_t io_sequence, uint32_t buffer_index) noexcept {
  switch (m_pattern) {
    case DataPattern::random:
      fill_random(buffer, io_sequence, buffer_index);
      return;
    case DataPattern::refill:
      fill_refill(buffer, io_sequence);
      return;
    case DataPattern::zeros:
      std::memset(buffer.data(), 0, buffer.size());
      return;
  }
}

void DataFiller::fill_random(std::span<std::byte> buffer, uint64_t io_sequence, uint32_t buffer_index) noexcept {
  uint32_t& base_bytes = m_base_bytes[buffer_index];
  if (base_bytes < buffer.size()) {
    copy_base(buffer, base_bytes, buffer_index);
    base_bytes = static_cast<uint32_t>(buffer.size());
  }
  const uint64_t sectors = buffer.size() / k_tag_interval_bytes;
  const uint64_t io_base = io_sequence << k_sector_bits;
  std::byte* sector = buffer.data();
  for (uint64_t s = 0; s < sectors; ++s, sector += k_tag_interval_bytes) {
    const uint64_t w0 = mix64(m_tag0_key + (io_base | s));
    const uint64_t w1 = w0 ^ m_thread_tag;
    std::memcpy(sector, &w0, sizeof(uint64_t));
    std::memcpy(sector + sizeof(uint64_t), &w1, sizeof(uint64_t));
  }
}

// Bytes [from_bytes, buffer.size()) of the buffer's base: the pool, cyclically, from the
// buffer's own pool offset. At most two copies: the pool is at least twice the largest block.
void DataFiller::copy_base(std::span<std::byte> buffer, uint64_t from_bytes, uint32_t buffer_index) const noexcept {
  const size_t pool_words = m_pool.size();  // a power of two
  const size_t first_word = static_cast<size_t>(mix64(m_offset_key ^ buffer_index)) & (pool_words - 1);
  size_t word = (first_word + from_bytes / sizeof(uint64_t)) & (pool_words - 1);
  std::byte* out = buffer.data() + from_bytes;
  size_t left = buffer.size() - from_bytes;
  while (left > 0) {
    const size_t chunk = std::min(left, (pool_words - word) * sizeof(uint64_t));
    std::memcpy(out, m_pool.data() + word, chunk);
    out += chunk;
    left -= chunk;
    word = 0;
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
