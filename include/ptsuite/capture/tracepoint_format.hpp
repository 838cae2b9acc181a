// Contract: the layout of a kernel tracepoint's raw record, read from its tracefs `format` file
// (/sys/kernel/tracing/events/block/block_rq_issue/format). Field offsets differ between
// kernels (Debian 12's 6.1 has `char rwbs[8]` and no ioprio; 6.18 has `rwbs[10]` after an
// ioprio), so the capture reads them at run time instead of assuming a struct. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptsuite::capture {

struct TracepointField {
  std::string name;  // "rwbs" for "char rwbs[10]"
  uint32_t offset = 0;
  uint32_t size = 0;
  bool is_signed = false;
};

struct TracepointFormat {
  std::string name;  // "block_rq_issue"
  uint32_t id = 0;   // the perf_event_attr.config of PERF_TYPE_TRACEPOINT
  std::vector<TracepointField> fields;

  [[nodiscard]] const TracepointField* field(std::string_view name) const;
};

// The text of a `format` file; nullopt when it has no "ID:" line or no fields.
std::optional<TracepointFormat> parse_tracepoint_format(std::string_view text);

// An unsigned little-endian (host-endian: the raw record is the host's) integer field of a raw
// record, 0 when the field lies outside it.
uint64_t read_unsigned(const uint8_t* raw, size_t raw_size, const TracepointField& field);
// A char[] field up to its first NUL.
std::string_view read_chars(const uint8_t* raw, size_t raw_size, const TracepointField& field);

}  // namespace ptsuite::capture
