// Private: bounds-checked little- and big-endian field readers for parsing device responses.
// Out-of-range reads return 0 (callers check the buffer size once, up front).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace ptsuite::device::bytes {

inline uint64_t le(std::span<const uint8_t> d, size_t offset, size_t count) {
  uint64_t v = 0;
  for (size_t i = 0; i < count; ++i) {
    if (offset + i < d.size()) v |= static_cast<uint64_t>(d[offset + i]) << (8 * i);
  }
  return v;
}
inline uint64_t be(std::span<const uint8_t> d, size_t offset, size_t count) {
  uint64_t v = 0;
  for (size_t i = 0; i < count; ++i) {
    v = (v << 8) | (offset + i < d.size() ? d[offset + i] : 0);
  }
  return v;
}
inline uint16_t le16(std::span<const uint8_t> d, size_t o) { return static_cast<uint16_t>(le(d, o, 2)); }
inline uint32_t le32(std::span<const uint8_t> d, size_t o) { return static_cast<uint32_t>(le(d, o, 4)); }
inline uint64_t le64(std::span<const uint8_t> d, size_t o) { return le(d, o, 8); }
inline uint16_t be16(std::span<const uint8_t> d, size_t o) { return static_cast<uint16_t>(be(d, o, 2)); }
inline uint32_t be32(std::span<const uint8_t> d, size_t o) { return static_cast<uint32_t>(be(d, o, 4)); }
inline uint64_t be64(std::span<const uint8_t> d, size_t o) { return be(d, o, 8); }

}  // namespace ptsuite::device::bytes
