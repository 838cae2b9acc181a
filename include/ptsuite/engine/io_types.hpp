// Contract: the plain records that cross the engine boundary. No behaviour, no allocation.
#pragma once

#include <cstdint>

namespace ptsuite::engine {

enum class IoOp : uint8_t { read = 0, write = 1 };

inline constexpr const char* to_string(IoOp op) noexcept { return op == IoOp::read ? "read" : "write"; }

// One IO handed to an engine. `slot` identifies the queue slot that owns the buffer and the
// submission timestamp; engines must echo it back in the IoCompletion unchanged.
struct IoRequest {
  IoOp op = IoOp::read;
  uint32_t slot = 0;
  uint32_t length_bytes = 0;
  uint64_t offset_bytes = 0;
  void* buffer = nullptr;  // aligned for O_DIRECT, at least length_bytes long
};

// A finished IO: `result` is the number of bytes transferred, or a negative errno.
struct IoCompletion {
  uint32_t slot = 0;
  int64_t result = 0;
};

}  // namespace ptsuite::engine
