// Imports of other tools' traces into the capture format: fio iolog v2 (waits) and v3
// (timestamps in us), and blktrace binary v7 / v8 records (Q, D, C paired into IOs through the
// Assembler; notify records and other actions skipped), from small generated files.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/capture/trace_import.hpp>
#include <ptsuite/util/error.hpp>

#include "support/blktrace_record.hpp"
#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::capture {
namespace {

void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(FioIologImport, VersionTwoTimesComeFromTheWaits) {
  const test_support::ShmTempDir dir("ptsuite-import");
  const std::string log = dir.file("v2.log");
  write_text(log,
             "fio version 2 iolog\n/dev/a add\n/dev/b add\n/dev/a open\n/dev/a read 4096 8192\n"
             "/dev/a wait 1500 0\n/dev/b write 0 4096\n/dev/a trim 65536 4096\n/dev/a sync 0 0\n/dev/a close\n");
  ASSERT_EQ(detect_trace_format(log), TraceFormat::fio_iolog);
  const std::string out = dir.file("v2.ptcap");
  const ImportSummary s = import_fio_iolog(log, test_support::output_path(out));
  EXPECT_EQ(s.records, 4u);
  EXPECT_EQ(s.skipped, 5u);  // 2 add, open, wait, close
  CaptureReader reader(out);
  EXPECT_EQ(reader.header().source, "fio-iolog v2");
  ASSERT_EQ(reader.header().devices.size(), 2u);
  EXPECT_EQ(reader.header().devices[0].path, "/dev/a");
  EXPECT_EQ(reader.header().devices[0].capacity_bytes, 65536u + 4096);
  const std::vector<IoRecord> r = read_all_records(out);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].op, IoOp::read);
  EXPECT_EQ(r[0].offset_bytes, 4096u);
  EXPECT_EQ(r[0].length_bytes, 8192u);
  EXPECT_EQ(r[0].issue_ns, 0u);
  EXPECT_EQ(r[1].op, IoOp::write);
  EXPECT_EQ(r[1].device, 1u);
  EXPECT_EQ(r[1].issue_ns, 1'500'000u);  // after the 1500 us wait
  EXPECT_EQ(r[2].op, IoOp::discard);
  EXPECT_EQ(r[3].op, IoOp::flush);
  EXPECT_TRUE((r[0].flags & io_flag::queue_time_only) != 0);
  EXPECT_FALSE(r[0].completed());
}

TEST(FioIologImport, VersionThreeTimestampsAreMicroseconds) {
  const test_support::ShmTempDir dir("ptsuite-import");
  const std::string log = dir.file("v3.log");
  // As fio 3.33 writes it (write_iolog): "timestamp file action [offset length]".
  write_text(log,
             "fio version 3 iolog\n15 f.bin add\n106 f.bin open\n110 f.bin read 249856 4096\n"
             "5110117 f.bin write 1589248 4096\n5110178 f.bin close\n");
  const std::string out = dir.file("v3.ptcap");
  EXPECT_EQ(import_fio_iolog(log, test_support::output_path(out)).records, 2u);
  const std::vector<IoRecord> r = read_all_records(out);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].issue_ns, 110'000u);
  EXPECT_EQ(r[1].issue_ns, 5'110'117'000u);
  write_text(log, "fio version 3 iolog\n10 f.bin read 0 4096\n");  // never added
  EXPECT_THROW(import_fio_iolog(log, test_support::output_path(out)), UsageError);
  write_text(log, "fio version 3 iolog\n10 f.bin add\nxx f.bin read 0 4096\n");
  EXPECT_THROW(import_fio_iolog(log, test_support::output_path(out)), UsageError);
}

// One v7 record (support/blktrace_record.hpp) appended to the file.
void put_v7(std::ofstream& f, uint64_t time, uint64_t sector, uint32_t bytes, uint32_t action, uint32_t device,
            const std::string& pdu = "") {
  f << test_support::blktrace_v7_record(time, sector, bytes, action, device, pdu);
}

constexpr uint32_t k_read = 1U << 16;
constexpr uint32_t k_write = 2U << 16;
constexpr uint32_t k_notify = 1U << 26;
constexpr uint32_t k_dev = (259U << 20) | 3;

TEST(BlktraceImport, QueueIssueCompletePairIntoIOsAcrossPerCpuFiles) {
  const test_support::ShmTempDir dir("ptsuite-import");
  const std::string cpu0 = dir.file("loop0.blktrace.0");
  const std::string cpu1 = dir.file("loop0.blktrace.1");
  {
    std::ofstream f(cpu0, std::ios::binary);
    put_v7(f, 1000, 0, 0, k_notify, k_dev, std::string("fio\0\0\0\0\0", 8));  // process name
    put_v7(f, 1000, 8, 4096, 1 | k_read, k_dev);                              // Q read
    put_v7(f, 1500, 8, 4096, 7 | k_read, k_dev);                              // D
    put_v7(f, 9000, 8, 4096, 8 | k_read, k_dev);                              // C
  }
  {
    std::ofstream f(cpu1, std::ios::binary);
    put_v7(f, 2000, 2048, 65536, 1 | k_write, k_dev);
    put_v7(f, 2100, 2048, 65536, 2 | k_write, k_dev);  // a back-merge: not an IO
    put_v7(f, 2200, 2048, 65536, 7 | k_write, k_dev);
    put_v7(f, 5200, 2048, 65536, 8 | k_write, k_dev);
  }
  ASSERT_EQ(detect_trace_format(cpu0), TraceFormat::blktrace);
  const std::string out = dir.file("bt.ptcap");
  const ImportSummary s = import_blktrace({cpu0, cpu1}, test_support::output_path(out));
  EXPECT_EQ(s.records, 2u);
  EXPECT_EQ(s.skipped, 2u);  // the notify and the merge
  CaptureReader reader(out);
  ASSERT_EQ(reader.header().devices.size(), 1u);
  EXPECT_EQ(reader.header().devices[0].major, 259u);
  EXPECT_EQ(reader.header().devices[0].minor, 3u);
  const std::vector<IoRecord> r = read_all_records(out);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].op, IoOp::read);
  EXPECT_EQ(r[0].issue_ns, 500u);  // times from the first event (1000)
  EXPECT_EQ(r[0].latency_ns(), 7500u);
  EXPECT_EQ(r[0].queue_ns, 500u);
  EXPECT_EQ(r[0].offset_bytes, 8u * 512);
  EXPECT_EQ(r[1].op, IoOp::write);
  EXPECT_EQ(r[1].length_bytes, 65536u);
  EXPECT_EQ(r[1].issue_ns, 1200u);
  EXPECT_EQ(r[1].latency_ns(), 3000u);
}

TEST(BlktraceImport, QueueOnlyTracesBecomeOneIOPerQueueEvent) {
  const test_support::ShmTempDir dir("ptsuite-import");
  const std::string path = dir.file("q.blktrace.0");
  {
    std::ofstream f(path, std::ios::binary);
    put_v7(f, 100, 0, 4096, 1 | k_write, k_dev);
    put_v7(f, 300, 8, 4096, 1 | k_write, k_dev);
  }
  const std::string out = dir.file("q.ptcap");
  EXPECT_EQ(import_blktrace({path}, test_support::output_path(out)).records, 2u);
  const std::vector<IoRecord> r = read_all_records(out);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].issue_ns, 200u);
  EXPECT_TRUE((r[1].flags & io_flag::queue_time_only) != 0);
}

TEST(BlktraceImport, RefusesWhatIsNotABlktraceRecord) {
  const test_support::ShmTempDir dir("ptsuite-import");
  const std::string path = dir.file("junk");
  write_text(path, std::string(96, 'x'));
  EXPECT_EQ(detect_trace_format(path), TraceFormat::unknown);
  EXPECT_THROW(import_blktrace({path}, test_support::output_path(dir.file("j.ptcap"))), UsageError);
}

TEST(BlktraceImport, ATruncatedLastRecordIsIgnoredAndSaid) {
  const test_support::ShmTempDir dir("ptsuite-import");
  const std::string path = dir.file("cut.blktrace.0");
  {
    std::ofstream f(path, std::ios::binary);
    put_v7(f, 100, 0, 4096, 1 | k_write, k_dev);
    put_v7(f, 300, 8, 4096, 1 | k_write, k_dev);
    put_v7(f, 400, 16, 4096, 1 | k_write, k_dev, std::string(20, 'p'));
  }
  std::filesystem::resize_file(path, 2 * 48 + 48 + 7);  // the third record's payload cut short
  ImportSummary s = import_blktrace({path}, test_support::output_path(dir.file("cut.ptcap")));
  EXPECT_EQ(s.records, 2u);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("the last 55 bytes of " + path + " are a partial record"), std::string::npos)
      << s.warnings[0];
  std::filesystem::resize_file(path, 2 * 48 + 30);  // inside the third record's 48 bytes
  s = import_blktrace({path}, test_support::output_path(dir.file("cut.ptcap")));
  EXPECT_EQ(s.records, 2u);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("the last 30 bytes"), std::string::npos) << s.warnings[0];
}

TEST(BlktraceImport, ManyRecordsAcrossReadChunksAndAJunkRecordNamedByItsOffset) {
  const test_support::ShmTempDir dir("ptsuite-import");
  const std::string path = dir.file("big.blktrace.0");
  constexpr uint64_t k_ios = 50'000;  // 2.4 MB: more than two 1 MiB reads
  {
    std::ofstream f(path, std::ios::binary);
    for (uint64_t i = 0; i < k_ios; ++i) put_v7(f, 100 + i, i * 8, 4096, 1 | k_write, k_dev);
  }
  const ImportSummary s = import_blktrace({path}, test_support::output_path(dir.file("big.ptcap")));
  EXPECT_EQ(s.records, k_ios);
  EXPECT_TRUE(s.warnings.empty());
  {
    std::ofstream f(path, std::ios::binary | std::ios::app);
    f << std::string(48, 'x');
  }
  try {
    import_blktrace({path}, test_support::output_path(dir.file("big.ptcap")));
    ADD_FAILURE() << "junk after the records was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(fmt::format("byte {}: not a blktrace", k_ios * 48)), std::string::npos)
        << e.what();
  }
}

TEST(TraceImport, PipesAndLongLinesAreRefusedBeforeMemoryGrows) {
  const test_support::ShmTempDir dir("ptsuite-import");
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THROW(detect_trace_format(fifo), UsageError);
  EXPECT_THROW(import_fio_iolog(fifo, test_support::output_path(dir.file("p.ptcap"))), UsageError);
  EXPECT_THROW(import_blktrace({fifo}, test_support::output_path(dir.file("p.ptcap"))), UsageError);
  const std::string log = dir.file("long.log");
  write_text(log, "fio version 3 iolog\n10 f.bin add\n" + std::string(50'000'000, '7') + " f.bin read 0 4096\n");
  try {
    import_fio_iolog(log, test_support::output_path(dir.file("l.ptcap")));
    ADD_FAILURE() << "a 50 MB line was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(log + ":3: a line longer than 8 KiB"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ptsuite::capture
