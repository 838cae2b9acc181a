// The 48-byte on-disk record (docs/capture.md, "Record") and the kernel's rwbs letters.
#include <ptsuite/capture/io_record.hpp>

#include <cstring>

namespace ptsuite::capture {

namespace {

// Little-endian stores and loads, byte by byte: the file is the same on every host.
template <typename T>
void put(uint8_t* out, T value) noexcept {
  for (size_t i = 0; i < sizeof(T); ++i) {
    out[i] = static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * i));
  }
}

template <typename T>
T get(const uint8_t* in) noexcept {
  uint64_t v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) {
    v |= static_cast<uint64_t>(in[i]) << (8 * i);
  }
  return static_cast<T>(v);
}

// Byte offsets of the fields (docs/capture.md keeps the same table).
constexpr size_t k_issue = 0;
constexpr size_t k_complete = 8;
constexpr size_t k_offset = 16;
constexpr size_t k_length = 24;
constexpr size_t k_pid = 28;
constexpr size_t k_queue = 32;
constexpr size_t k_device = 36;
constexpr size_t k_op = 38;
constexpr size_t k_flags = 39;
constexpr size_t k_error = 40;
constexpr size_t k_cpu = 42;
// 44..47 reserved, written as zero.

bool is_op_letter(char c) noexcept { return c == 'R' || c == 'W' || c == 'D' || c == 'F' || c == 'N'; }

}  // namespace

void encode(const IoRecord& r, std::array<uint8_t, k_record_bytes>& out) noexcept {
  out.fill(0);
  uint8_t* p = out.data();
  put(p + k_issue, r.issue_ns);
  put(p + k_complete, r.complete_ns);
  put(p + k_offset, r.offset_bytes);
  put(p + k_length, r.length_bytes);
  put(p + k_pid, r.pid);
  put(p + k_queue, r.queue_ns);
  put(p + k_device, r.device);
  p[k_op] = static_cast<uint8_t>(r.op);
  p[k_flags] = r.flags;
  put(p + k_error, r.error);
  put(p + k_cpu, r.cpu);
}

IoRecord decode(const uint8_t* p) noexcept {
  IoRecord r;
  r.issue_ns = get<uint64_t>(p + k_issue);
  r.complete_ns = get<uint64_t>(p + k_complete);
  r.offset_bytes = get<uint64_t>(p + k_offset);
  r.length_bytes = get<uint32_t>(p + k_length);
  r.pid = get<uint32_t>(p + k_pid);
  r.queue_ns = get<uint32_t>(p + k_queue);
  r.device = get<uint16_t>(p + k_device);
  r.op = p[k_op] <= static_cast<uint8_t>(IoOp::other) ? static_cast<IoOp>(p[k_op]) : IoOp::other;
  r.flags = p[k_flags];
  r.error = get<uint16_t>(p + k_error);
  r.cpu = get<uint16_t>(p + k_cpu);
  return r;
}

std::string_view op_name(IoOp op) noexcept {
  switch (op) {
    case IoOp::read:
      return "read";
    case IoOp::write:
      return "write";
    case IoOp::discard:
      return "discard";
    case IoOp::flush:
      return "flush";
    case IoOp::write_zeroes:
      return "write_zeroes";
    case IoOp::other:
      break;
  }
  return "other";
}

char op_letter(IoOp op) noexcept {
  switch (op) {
    case IoOp::read:
      return 'R';
    case IoOp::write:
      return 'W';
    case IoOp::discard:
      return 'D';
    case IoOp::flush:
      return 'F';
    case IoOp::write_zeroes:
      return 'Z';
    case IoOp::other:
      break;
  }
  return 'O';
}

RwbsDecoded decode_rwbs(std::string_view rwbs) noexcept {
  RwbsDecoded d;
  size_t i = 0;
  if (rwbs.size() > 1 && rwbs[0] == 'F' && is_op_letter(rwbs[1])) {
    d.flags |= io_flag::preflush;
    i = 1;
  }
  if (i < rwbs.size()) {
    switch (rwbs[i]) {
      case 'R':
        d.op = IoOp::read;
        break;
      case 'W':
        d.op = IoOp::write;
        break;
      case 'D':
        d.op = IoOp::discard;
        break;
      case 'F':
        d.op = IoOp::flush;
        break;
      default:
        d.op = IoOp::other;  // 'N': no data (write-zeroes and driver-private requests)
        break;
    }
    ++i;
  }
  for (; i < rwbs.size() && rwbs[i] != '\0'; ++i) {
    switch (rwbs[i]) {
      case 'F':
        d.flags |= io_flag::fua;
        break;
      case 'A':
        d.flags |= io_flag::readahead;
        break;
      case 'S':
        d.flags |= io_flag::sync;
        break;
      case 'M':
        d.flags |= io_flag::meta;
        break;
      default:
        break;  // 'E' (secure erase) and letters of future kernels
    }
  }
  return d;
}

}  // namespace ptsuite::capture
