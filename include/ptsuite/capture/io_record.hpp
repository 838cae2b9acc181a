// Contract: one block IO as a capture file stores it (docs/capture.md, "Record"): when it was
// queued, issued to the device and completed, where, how large, which operation and flags,
// which process, and the completion status. It is the unit every capture source maps onto:
// the kernel's block tracepoints (capture/perf_capture.hpp), and - issue 27 - blktrace binary
// files (Q/D/C events: queue_ns = D - Q, issue_ns = D, complete_ns = C) and fio iolog v2/v3
// traces (one time per IO: issue_ns, flag queue_time_only, no completion).
//
// Times are nanoseconds since the capture's start (the header's t0); k_unknown_ns marks a time
// the source did not see (a lost completion, an iolog without completions). encode()/decode()
// give the on-disk form: 48 bytes, little-endian, fixed layout (the table in docs/capture.md).
// Pure and thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ptsuite::capture {

inline constexpr uint64_t k_unknown_ns = UINT64_MAX;
inline constexpr uint32_t k_unknown_queue_ns = UINT32_MAX;  // also: more than 4.29 s (saturated)
inline constexpr size_t k_record_bytes = 48;

// The request's operation (REQ_OP_* families; blktrace's category bits; fio's actions).
enum class IoOp : uint8_t { read = 0, write = 1, discard = 2, flush = 3, write_zeroes = 4, other = 5 };

// Flag bits of IoRecord::flags.
namespace io_flag {
inline constexpr uint8_t sync = 1;              // REQ_SYNC ('S')
inline constexpr uint8_t fua = 2;               // REQ_FUA (a trailing 'F')
inline constexpr uint8_t meta = 4;              // REQ_META ('M')
inline constexpr uint8_t readahead = 8;         // REQ_RAHEAD ('A')
inline constexpr uint8_t preflush = 16;         // REQ_PREFLUSH (a leading 'F')
inline constexpr uint8_t queue_time_only = 32;  // issue_ns is the queue time: the device has no
                                                // issue stage (bio-based: zram, dm) or the
                                                // source has one time per IO (fio iolog)
inline constexpr uint8_t unmatched = 64;        // issued, but no completion was seen (lost event,
                                                // still in flight at the end of the capture)
}  // namespace io_flag

struct IoRecord {
  uint64_t issue_ns = 0;                   // D (or Q with queue_time_only)
  uint64_t complete_ns = k_unknown_ns;     // C
  uint64_t offset_bytes = 0;               // on the device (sector x 512)
  uint32_t length_bytes = 0;               // 0 for a flush
  uint32_t pid = 0;                        // the submitting process (0: unknown)
  uint32_t queue_ns = k_unknown_queue_ns;  // D - Q: time in the block layer before issue
  uint16_t device = 0;                     // index into the header's device list
  IoOp op = IoOp::read;
  uint8_t flags = 0;   // io_flag bits
  uint16_t error = 0;  // positive errno of the completion, 0 = success
  uint16_t cpu = 0;    // CPU of the issue event

  [[nodiscard]] bool completed() const noexcept { return complete_ns != k_unknown_ns; }
  // complete - issue; 0 when not completed.
  [[nodiscard]] uint64_t latency_ns() const noexcept {
    return completed() && complete_ns >= issue_ns ? complete_ns - issue_ns : 0;
  }
  friend bool operator==(const IoRecord&, const IoRecord&) = default;
};

void encode(const IoRecord& record, std::array<uint8_t, k_record_bytes>& out) noexcept;
IoRecord decode(const uint8_t* bytes) noexcept;  // reads k_record_bytes bytes

// "read", "write", "discard", "flush", "write_zeroes", "other".
std::string_view op_name(IoOp op) noexcept;
// The one-letter direction of a stream name: R, W, D (discard), F (flush), Z, O.
char op_letter(IoOp op) noexcept;

// The kernel's rwbs string ("WS", "FWFS", "RA", "D", "FF", "N"; blk_fill_rwbs()): the operation
// and the flag bits. A leading 'F' followed by an operation letter is a pre-flush; a trailing
// 'F' after the operation is FUA. Unknown letters are ignored.
struct RwbsDecoded {
  IoOp op = IoOp::other;
  uint8_t flags = 0;
};
RwbsDecoded decode_rwbs(std::string_view rwbs) noexcept;

}  // namespace ptsuite::capture
