#include "support/written_data.hpp"

#include <fmt/format.h>
#include <cstring>

#include <ptsuite/workload/data_fill.hpp>
#include <ptsuite/workload/io_generator.hpp>

namespace ptsuite::test_support {

namespace {

constexpr uint64_t k_sector_bytes = 512;
constexpr uint64_t k_tag_bytes = 16;

std::pair<uint64_t, uint64_t> tag_of(const std::byte* sector) {
  std::pair<uint64_t, uint64_t> tag;
  std::memcpy(&tag.first, sector, 8);
  std::memcpy(&tag.second, sector + 8, 8);
  return tag;
}

}  // namespace

WrittenDataModel::WrittenDataModel(const workload::ResolvedWorkload& w, uint64_t ios_per_thread)
    : m_targeted(w.geometry.capacity_bytes / k_sector_bytes, false), m_bases(w.spec.threads) {
  const uint32_t buffers = w.spec.queue_depth;
  std::vector<std::byte> io_buffer(w.max_block_bytes);
  for (uint32_t t = 0; t < w.spec.threads; ++t) {
    // Each buffer's base, from a filler of its own (tags of IO 0 included; only bodies are used).
    workload::DataFiller base_filler(w.spec.data, w.spec.seed, t, w.max_block_bytes, buffers);
    for (uint32_t b = 0; b < buffers; ++b) {
      m_bases[t].emplace_back(w.max_block_bytes);
      base_filler.fill(m_bases[t][b], 0, b);
    }
    // The tags: filling one buffer again and again rewrites only them.
    workload::DataFiller tag_filler(w.spec.data, w.spec.seed, t, w.max_block_bytes, buffers);
    workload::IoGenerator gen(w, t);
    for (uint64_t i = 0; i < ios_per_thread; ++i) {
      const uint64_t seq = gen.sequence();
      const workload::IoDecision io = gen.next();
      if (io.op == engine::IoOp::read) {
        ++m_read_ios;
        continue;
      }
      ++m_write_ios;
      m_write_bytes += io.length_bytes;
      tag_filler.fill({io_buffer.data(), io.length_bytes}, seq, 0);
      for (uint32_t s = 0; s < io.length_bytes / k_sector_bytes; ++s) {
        const uint64_t position = io.offset_bytes / k_sector_bytes + s;
        m_tags[tag_of(io_buffer.data() + s * k_sector_bytes)] = {position, t, s};
        m_targeted[position] = true;
      }
    }
  }
}

std::string WrittenDataModel::check_written(std::span<const std::byte> sector, uint64_t position) const {
  const auto found = m_tags.find(tag_of(sector.data()));
  if (found == m_tags.end()) {
    return fmt::format("sector {} carries no tag of any write of the run", position);
  }
  const SectorOrigin& origin = found->second;
  if (origin.position != position) {
    return fmt::format("sector {} carries the tag of a write addressed to sector {}", position, origin.position);
  }
  const size_t body_offset = origin.sector_in_io * k_sector_bytes + k_tag_bytes;
  for (const std::vector<std::byte>& base : m_bases[origin.thread]) {
    if (std::memcmp(sector.data() + k_tag_bytes, base.data() + body_offset, k_sector_bytes - k_tag_bytes) == 0) {
      return {};
    }
  }
  return fmt::format("sector {}: the body matches no buffer base of thread {}", position, origin.thread);
}

std::string WrittenDataModel::check(std::span<const std::byte> image, std::span<const std::byte> before) const {
  if (image.size() != m_targeted.size() * k_sector_bytes || before.size() != image.size()) {
    return fmt::format("image of {} bytes, expected {}", image.size(), m_targeted.size() * k_sector_bytes);
  }
  for (uint64_t p = 0; p < m_targeted.size(); ++p) {
    const std::span<const std::byte> sector = image.subspan(p * k_sector_bytes, k_sector_bytes);
    if (m_targeted[p]) {
      const std::string problem = check_written(sector, p);
      if (!problem.empty()) {
        return problem;
      }
    } else if (std::memcmp(sector.data(), before.data() + p * k_sector_bytes, k_sector_bytes) != 0) {
      return fmt::format("sector {} changed although no write addressed it", p);
    }
  }
  return {};
}

}  // namespace ptsuite::test_support
