// Test support: one blktrace binary record (struct blk_io_trace, version 7, 48 bytes, native
// endian, as the `blktrace` tool writes it) followed by its pdu payload, for the tests that
// write blktrace-format files (trace imports, the fuzz corpus, the fio comparison).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace ptsuite::test_support {

// magic, sequence, time, sector, bytes, action, pid, device, cpu, error, pdu_len; then the pdu.
inline std::string blktrace_v7_record(uint64_t time_ns, uint64_t sector, uint32_t bytes, uint32_t action,
                                      uint32_t device, const std::string& pdu = "", uint32_t pid = 42) {
  char b[48] = {};
  const uint32_t magic = 0x65617407;
  const auto pdu_len = static_cast<uint16_t>(pdu.size());
  std::memcpy(b, &magic, 4);
  std::memcpy(b + 8, &time_ns, 8);
  std::memcpy(b + 16, &sector, 8);
  std::memcpy(b + 24, &bytes, 4);
  std::memcpy(b + 28, &action, 4);
  std::memcpy(b + 32, &pid, 4);
  std::memcpy(b + 36, &device, 4);
  std::memcpy(b + 46, &pdu_len, 2);
  return std::string(b, sizeof b) + pdu;
}

}  // namespace ptsuite::test_support
