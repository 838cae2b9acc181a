// Capture files built byte by byte for the hostile-input tests (docs/capture.md, "File format"):
// every part - the preamble's header length, the header JSON, the records, the trailer's length
// and JSON, the footer's offset - can be set to anything, so a test can write exactly the file
// a hostile or damaged source would. Also a long, sparse capture of a known shape (the replay's
// memory bound). Pure apart from write_sparse_capture(); for tests only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <ptsuite/capture/io_record.hpp>

namespace ptsuite::test_support {

struct CaptureParts {
  std::string header;                      // JSON text (valid_capture_header() by default)
  std::optional<uint32_t> header_bytes;    // the preamble's length field; default header.size()
  std::string records;                     // raw record bytes (capture_record_bytes(), or anything)
  std::optional<std::string> trailer;      // JSON text; nullopt: no trailer and no footer (killed writer)
  std::optional<uint64_t> trailer_bytes;   // the trailer's length field; default trailer->size()
  std::optional<uint64_t> trailer_offset;  // the footer's offset; default where the trailer starts
};

// A valid header: one device "/dev/hostile" of `capacity_bytes`.
std::string valid_capture_header(uint64_t capacity_bytes = 64ULL << 20);
// A valid trailer counting `records`.
std::string valid_capture_trailer(uint64_t records);
// One record's 48 bytes.
std::string capture_record_bytes(const capture::IoRecord& record);
// `n` 4 KiB reads and writes, one every `spacing_ns` from 0, completed 50 us after issue.
std::string spaced_records(uint64_t n, uint64_t spacing_ns);
// The file: preamble, header (padded), records, then trailer and footer when given.
std::string capture_bytes(CaptureParts parts);

// A 64 MiB device's capture of `records` 4 KiB IOs spread evenly from 0 to `last_issue_ns`
// (complete, with its trailer): ~48 bytes a record, so 6,250 records are a 300 KB file.
void write_sparse_capture(const std::string& path, uint64_t records, uint64_t last_issue_ns);

}  // namespace ptsuite::test_support
