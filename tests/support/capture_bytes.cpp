// Capture files byte by byte (support/capture_bytes.hpp).
#include "support/capture_bytes.hpp"

#include <array>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/test_files.hpp"

namespace ptsuite::test_support {

namespace {

void append_le(std::string& out, uint64_t value, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) out.push_back(static_cast<char>(value >> (8 * i)));
}

}  // namespace

std::string valid_capture_header(uint64_t capacity_bytes) {
  const nlohmann::json h = {{"format", "ptsuite-capture/1"},
                            {"source", "hostile test"},
                            {"started_utc", "2026-11-27T10:00:00Z"},
                            {"t0_monotonic_ns", 1},
                            {"kernel", "6.1.0"},
                            {"host", "test"},
                            {"events", {"block:block_rq_issue"}},
                            {"devices",
                             {{{"path", "/dev/hostile"},
                               {"major", 7},
                               {"minor", 99},
                               {"capacity_bytes", capacity_bytes},
                               {"logical_block_bytes", 512},
                               {"request_based", true},
                               {"model", ""},
                               {"serial", ""}}}},
                            {"command", "tests"},
                            {"record_bytes", capture::k_record_bytes}};
  return h.dump();
}

std::string valid_capture_trailer(uint64_t records) {
  const nlohmann::json t = {{"duration_ns", 0},           {"records", records},
                            {"lost_events", 0},           {"unmatched_issues", 0},
                            {"unmatched_completions", 0}, {"processes", nlohmann::json::array()},
                            {"stop_reason", "duration"}};
  return t.dump();
}

std::string capture_record_bytes(const capture::IoRecord& record) {
  std::array<uint8_t, capture::k_record_bytes> bytes{};
  capture::encode(record, bytes);
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::string spaced_records(uint64_t n, uint64_t spacing_ns) {
  std::string out;
  out.reserve(n * capture::k_record_bytes);
  for (uint64_t i = 0; i < n; ++i) {
    capture::IoRecord r;
    r.issue_ns = i * spacing_ns;
    r.complete_ns = r.issue_ns + 50'000;
    r.offset_bytes = (i * 0x9E3779B97F4A7C15ULL >> 40) % 16384 * 4096;  // a fixed scatter over 64 MiB
    r.length_bytes = 4096;
    r.op = i % 3 == 0 ? capture::IoOp::write : capture::IoOp::read;
    out += capture_record_bytes(r);
  }
  return out;
}

std::string capture_bytes(CaptureParts parts) {
  if (parts.header.empty()) parts.header = valid_capture_header();
  std::string out = "PTSCAPT1";
  append_le(out, capture::k_record_bytes, 4);
  append_le(out, parts.header_bytes.value_or(static_cast<uint32_t>(parts.header.size())), 4);
  append_le(out, 0, 8);
  out += parts.header;
  out.resize(out.size() + (8 - parts.header.size() % 8) % 8, '\0');
  out += parts.records;
  if (!parts.trailer) return out;
  const uint64_t offset = out.size();
  out += "PTSCTRL1";
  append_le(out, parts.trailer_bytes.value_or(parts.trailer->size()), 8);
  out += *parts.trailer;
  append_le(out, parts.trailer_offset.value_or(offset), 8);
  out += "PTSCEND1";
  return out;
}

void write_sparse_capture(const std::string& path, uint64_t records, uint64_t last_issue_ns) {
  CaptureParts parts;
  parts.records = spaced_records(records, records > 1 ? last_issue_ns / (records - 1) : 0);
  parts.trailer = valid_capture_trailer(records);
  write_file(path, capture_bytes(parts));
}

}  // namespace ptsuite::test_support
