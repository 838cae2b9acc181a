// The capture record, rwbs letters, tracefs format files and the capture file (capture/).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/capture/io_record.hpp>
#include <ptsuite/capture/tracepoint_format.hpp>
#include <ptsuite/util/error.hpp>

#include "support/capture_bytes.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::capture {
namespace {

IoRecord sample_record(uint64_t i) {
  IoRecord r;
  r.issue_ns = 1000 + i * 10;
  r.complete_ns = 5000 + i * 10;
  r.offset_bytes = (1ULL << 40) + i * 4096;
  r.length_bytes = 131072;
  r.pid = 4242;
  r.queue_ns = 77;
  r.device = 3;
  r.op = IoOp::write;
  r.flags = io_flag::sync | io_flag::fua;
  r.error = 5;
  r.cpu = 17;
  return r;
}

TEST(CaptureRecord, EncodesToTheDocumentedLittleEndianLayout) {
  std::array<uint8_t, k_record_bytes> bytes{};
  encode(sample_record(0), bytes);
  // issue_ns = 1000 = 0x3e8 at offset 0; length 131072 = 0x20000 at 24; op write (1) at 38.
  EXPECT_EQ(bytes[0], 0xe8);
  EXPECT_EQ(bytes[1], 0x03);
  EXPECT_EQ(bytes[24], 0x00);
  EXPECT_EQ(bytes[26], 0x02);
  EXPECT_EQ(bytes[38], 1);
  EXPECT_EQ(bytes[39], io_flag::sync | io_flag::fua);
  EXPECT_EQ(bytes[36], 3);   // device
  EXPECT_EQ(bytes[42], 17);  // cpu
  for (size_t i = 44; i < k_record_bytes; ++i) EXPECT_EQ(bytes[i], 0) << i;
  EXPECT_EQ(decode(bytes.data()), sample_record(0));
}

TEST(CaptureRecord, DecodesTheKernelsRwbsLetters) {
  EXPECT_EQ(decode_rwbs("R").op, IoOp::read);
  EXPECT_EQ(decode_rwbs("RA").flags, io_flag::readahead);
  const RwbsDecoded fws = decode_rwbs("FWFS");  // pre-flush, write, FUA, sync
  EXPECT_EQ(fws.op, IoOp::write);
  EXPECT_EQ(fws.flags, io_flag::preflush | io_flag::fua | io_flag::sync);
  EXPECT_EQ(decode_rwbs("F").op, IoOp::flush);
  const RwbsDecoded ff = decode_rwbs("FF");  // the flush machinery's request: pre-flush + flush
  EXPECT_EQ(ff.op, IoOp::flush);
  EXPECT_EQ(ff.flags, io_flag::preflush);
  EXPECT_EQ(decode_rwbs("DS").op, IoOp::discard);
  EXPECT_EQ(decode_rwbs("WM").flags, io_flag::meta);
  EXPECT_EQ(decode_rwbs("N").op, IoOp::other);
  EXPECT_EQ(decode_rwbs("").op, IoOp::other);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(TracepointFormat, ReadsTheFieldsOfThisKernelsBlockRqIssue) {
  const auto f = parse_tracepoint_format(read_text(PTSUITE_TEST_DATA_DIR "/capture/block_rq_issue-6.18.format"));
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->name, "block_rq_issue");
  EXPECT_EQ(f->id, 2104u);
  ASSERT_NE(f->field("rwbs"), nullptr);
  EXPECT_EQ(f->field("rwbs")->offset, 34u);
  EXPECT_EQ(f->field("rwbs")->size, 10u);
  EXPECT_EQ(f->field("sector")->offset, 16u);
  EXPECT_EQ(f->field("bytes")->offset, 28u);
  EXPECT_EQ(f->field("comm")->offset, 44u);
  EXPECT_TRUE(f->field("common_pid")->is_signed);
  EXPECT_EQ(f->field("cmd"), nullptr);  // __data_loc: not read
}

// Linux 6.1 (Debian 12) has no ioprio and an 8-byte rwbs, so the offsets move.
TEST(TracepointFormat, ReadsTheOlderLayoutWithoutIoprio) {
  const char* text =
      "name: block_rq_issue\nID: 1187\nformat:\n"
      "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
      "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
      "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
      "\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
      "\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
      "\tfield:unsigned int bytes;\toffset:28;\tsize:4;\tsigned:0;\n"
      "\tfield:char rwbs[8];\toffset:32;\tsize:8;\tsigned:0;\n"
      "\tfield:char comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
      "\tfield:__data_loc char[] cmd;\toffset:56;\tsize:4;\tsigned:0;\n";
  const auto f = parse_tracepoint_format(text);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->id, 1187u);
  EXPECT_EQ(f->field("rwbs")->offset, 32u);
  EXPECT_EQ(f->field("comm")->offset, 40u);
  uint8_t raw[64] = {};
  raw[16] = 0x10;  // sector 16
  std::memcpy(raw + 32, "WS", 2);
  EXPECT_EQ(read_unsigned(raw, sizeof(raw), *f->field("sector")), 16u);
  EXPECT_EQ(read_chars(raw, sizeof(raw), *f->field("rwbs")), "WS");
  EXPECT_EQ(read_unsigned(raw, 20, *f->field("sector")), 0u);  // outside the record: 0, not a read past it
  EXPECT_FALSE(parse_tracepoint_format("name: x\nformat:\n").has_value());
}

CaptureHeader sample_header() {
  CaptureHeader h;
  h.source = "test";
  h.started_utc = "2026-11-26T18:00:00Z";
  h.t0_monotonic_ns = 123;
  h.kernel = "6.1.0";
  h.events = {"block:block_rq_issue"};
  h.devices.push_back({"/dev/loop9", 7, 9, 1ULL << 30, 512, true, "", ""});
  return h;
}

TEST(CaptureFile, WritesAndStreamsRecordsHeaderAndTrailer) {
  test_support::ShmTempDir dir;
  const std::string path = dir.file("c.ptcap");
  {
    CaptureWriter w(test_support::output_path(path), sample_header());
    for (uint64_t i = 0; i < 10000; ++i) w.append(sample_record(i));
    CaptureTrailer t;
    t.duration_ns = 99;
    t.lost_events = 7;
    t.processes = {{4242, "postgres"}};
    t.stop_reason = "duration";
    w.finish(t);
  }
  CaptureReader r(path);
  EXPECT_EQ(r.header().devices.at(0).path, "/dev/loop9");
  EXPECT_EQ(r.header().format, k_format);
  ASSERT_TRUE(r.complete());
  EXPECT_EQ(r.trailer()->records, 10000u);
  EXPECT_EQ(r.trailer()->lost_events, 7u);
  EXPECT_EQ(r.trailer()->processes.at(0).comm, "postgres");
  EXPECT_EQ(r.record_count(), 10000u);
  std::vector<IoRecord> batch(777);
  uint64_t seen = 0;
  while (const size_t n = r.read(batch)) {
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(batch[i], sample_record(seen + i));
    seen += n;
  }
  EXPECT_EQ(seen, 10000u);
  r.rewind();
  EXPECT_EQ(r.read(batch), 777u);
  EXPECT_EQ(batch[0], sample_record(0));
}

// A writer killed mid-capture leaves no trailer: every whole record is still read.
TEST(CaptureFile, ReadsTheWholeRecordsOfACaptureWithoutTrailer) {
  test_support::ShmTempDir dir;
  const std::string path = dir.file("c.ptcap");
  {
    CaptureWriter w(test_support::output_path(path), sample_header());
    for (uint64_t i = 0; i < 100; ++i) w.append(sample_record(i));
  }  // no finish(): the destructor flushes the records only
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 20);  // a torn last record
  CaptureReader r(path);
  EXPECT_FALSE(r.complete());
  EXPECT_EQ(r.record_count(), 99u);
  EXPECT_EQ(read_all_records(path).back(), sample_record(98));
}

TEST(CaptureFile, RefusesAFileThatIsNotACapture) {
  test_support::ShmTempDir dir;
  const std::string path = dir.file("x");
  std::ofstream(path) << "hello, this is not a capture file";
  EXPECT_THROW(CaptureReader{path}, UsageError);
  EXPECT_THROW(CaptureReader{dir.file("missing")}, UsageError);
}

// The header is in the file when the writer's constructor returns (a capture enables its events
// only then), and flush() puts the appended records there too: a writer killed after a flush
// leaves a file that reads back as incomplete with every flushed record.
TEST(CaptureFile, TheHeaderAndEveryFlushedRecordAreInTheFileAtOnce) {
  test_support::ShmTempDir dir;
  const std::string path = dir.file("c.ptcap");
  CaptureWriter w(test_support::output_path(path), sample_header());
  {
    CaptureReader r(path);  // a second open of the file while it is being written
    EXPECT_EQ(r.header().devices.at(0).path, "/dev/loop9");
    EXPECT_EQ(r.record_count(), 0u);
    EXPECT_FALSE(r.complete());
  }
  for (uint64_t i = 0; i < 10; ++i) w.append(sample_record(i));
  w.flush();
  CaptureReader r(path);
  EXPECT_EQ(r.record_count(), 10u);
  EXPECT_FALSE(r.complete());
}

// Hostile or damaged files are refused with a message naming the file and the part, before any
// length from the file is allocated: never bad_alloc, never "characterized as if valid".
TEST(CaptureFile, HostileLengthsAndPartsAreRefusedNamingThem) {
  test_support::ShmTempDir dir;
  const std::string records = test_support::spaced_records(4, 1000);
  const std::string trailer = test_support::valid_capture_trailer(4);
  std::string deep;
  for (int i = 0; i < 100'000; ++i) deep += "[";
  struct Case {
    const char* name;
    test_support::CaptureParts parts;
    const char* message;
  };
  const auto with = [&](auto change) {
    test_support::CaptureParts p;
    p.records = records;
    p.trailer = trailer;
    change(p);
    return p;
  };
  std::string header_v2 = test_support::valid_capture_header();
  header_v2.replace(header_v2.find("capture/1"), 9, "capture/2");
  std::string no_devices = R"({"format": "ptsuite-capture/1", "source": "x"})";
  std::string typed = test_support::valid_capture_header();
  typed.replace(typed.find("\"capacity_bytes\":"), 17, "\"capacity_bytes\":\"1\",\"x\":");
  const std::vector<Case> cases = {
      {"header length 0xFFFFFFFF", with([](auto& p) { p.header_bytes = 0xFFFFFFFFU; }), "header length 4294967295"},
      {"header length 0", with([](auto& p) { p.header_bytes = 0; }), "header length 0 is empty"},
      {"header not JSON", with([](auto& p) { p.header = "this is not JSON at all"; }), "header: not valid JSON"},
      {"header 100,000 levels deep", with([&](auto& p) { p.header = deep; }), "nesting deeper than 64"},
      {"header an array", with([](auto& p) { p.header = "[1,2]"; }), "expected a JSON object"},
      {"unknown format version", with([&](auto& p) { p.header = header_v2; }), "\"ptsuite-capture/2\" is not one"},
      {"no devices", with([&](auto& p) { p.header = no_devices; }), "no \"devices\" list"},
      {"a member of the wrong type", with([&](auto& p) { p.header = typed; }), "\"capacity_bytes\" is not a whole"},
      {"trailer length 2^63", with([](auto& p) { p.trailer_bytes = 1ULL << 63; }), "the trailer is damaged"},
      {"trailer offset inside a record", with([](auto& p) { p.trailer_offset = 100; }), "not after a whole record"},
      {"trailer not JSON", with([&](auto& p) { p.trailer = std::string(trailer.size(), 'x'); }), "not valid JSON"},
      {"trailer counts other records", with([](auto& p) { p.trailer = test_support::valid_capture_trailer(5); }),
       "it counts 5 records, the file holds 4"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = dir.file("hostile.ptcap");
    test_support::write_file(path, test_support::capture_bytes(c.parts));
    try {
      CaptureReader r(path);
      ADD_FAILURE() << "accepted";
    } catch (const UsageError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(path), std::string::npos) << what;
      EXPECT_NE(what.find(c.message), std::string::npos) << what;
    }
  }
  // The same parts, untouched, read back; without trailer (a killed writer): incomplete.
  test_support::write_file(dir.file("ok.ptcap"), test_support::capture_bytes(with([](auto&) {})));
  EXPECT_TRUE(CaptureReader(dir.file("ok.ptcap")).complete());
  EXPECT_EQ(CaptureReader(dir.file("ok.ptcap")).record_count(), 4u);
  test_support::write_file(dir.file("killed.ptcap"),
                           test_support::capture_bytes(with([](auto& p) { p.trailer.reset(); })));
  EXPECT_FALSE(CaptureReader(dir.file("killed.ptcap")).complete());
  EXPECT_EQ(CaptureReader(dir.file("killed.ptcap")).record_count(), 4u);
}

}  // namespace
}  // namespace ptsuite::capture
