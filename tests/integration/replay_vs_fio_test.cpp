// The same blktrace file through fio's `read_iolog` (the tool fio users replay blktraces with)
// and through `ptsuite replay`: both must replay the same reads and writes. The file is written
// here in blktrace's binary format (struct blk_io_trace v7: queue, issue and complete of each IO,
// as `blktrace` writes them; a real recording needs blktrace's debugfs files, which kernel
// lockdown refuses on the development VM, see replay_blktrace_test.cpp), 2000 IOs of three sizes,
// 30 % writes, 250 us apart, on an O_DIRECT file in /dev/shm (fio: `--replay_redirect` to it).
// Asserted: fio and ptsuite issue the same number of reads and writes, and ptsuite the trace's
// exact bytes. Skips with the reason when fio is not installed (apt-get install fio).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include <ptsuite/results/replay.hpp>

#include "integration/workload_process.hpp"
#include "support/blktrace_record.hpp"
#include "support/temp_dir.hpp"

namespace ptsuite::replay {
namespace {

constexpr const char* k_fio = "/usr/bin/fio";
constexpr uint64_t k_fio_target_bytes = 64ULL << 20;

struct TraceTotals {
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t bytes = 0;
};

void put_v7(std::ofstream& f, uint64_t time_ns, uint64_t sector, uint32_t bytes, uint32_t action) {
  f << test_support::blktrace_v7_record(time_ns, sector, bytes, action, (7U << 20) | 99, "", 1234);
}

TraceTotals write_trace(const std::string& path) {
  std::ofstream f(path, std::ios::binary);
  std::mt19937_64 rng(5);
  TraceTotals t;
  const uint32_t sizes[] = {4096, 8192, 65536};
  for (uint64_t i = 0; i < 2000; ++i) {
    const bool write = rng() % 10 < 3;
    const uint32_t size = sizes[rng() % 3];
    const uint64_t sector = (rng() % (k_fio_target_bytes / size)) * size / 512;
    const uint32_t category = (write ? 2U : 1U) << 16;  // BLK_TC_WRITE / BLK_TC_READ
    const uint64_t t0 = 1000 + i * 250'000;
    put_v7(f, t0, sector, size, 1 | category);           // queue
    put_v7(f, t0 + 2000, sector, size, 7 | category);    // issue
    put_v7(f, t0 + 50'000, sector, size, 8 | category);  // complete
    (write ? t.writes : t.reads) += 1;
    t.bytes += size;
  }
  return t;
}

TEST(ReplayVsFio, ABlktraceFileReplaysTheSameReadsAndWritesAsFioReadIolog) {
  if (::access(k_fio, X_OK) != 0) GTEST_SKIP() << "fio is not installed (apt-get install fio)";
  const test_support::ShmTempDir dir("ptsuite-replay-fio");
  const std::string trace = dir.file("t.blktrace.0");
  const TraceTotals want = write_trace(trace);
  const std::string target = dir.create_file("target.bin", k_fio_target_bytes);
  const std::string fio_json = dir.file("fio.json");
  const std::string cmd = std::string(k_fio) + " --name=replay --read_iolog=" + trace + " --replay_redirect=" + target +
                          " --ioengine=libaio --direct=1 --iodepth=16 --output-format=json --output=" + fio_json +
                          " > " + dir.file("fio.out") + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << workload::test::slurp(dir.file("fio.out"));
  const nlohmann::json job = nlohmann::json::parse(workload::test::slurp(fio_json))["jobs"][0];
  const std::string json = dir.file("replay.json");
  const auto r =
      workload::test::run_ptsuite({"replay", trace, "--target", target, "--allow-destructive", "--step", "100ms",
                                   "--quiet", "--json-out", json, "--out", dir.file("replay-out"), "--no-history"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const results::ReplayRecord rec = results::read_replay(nlohmann::json::parse(workload::test::slurp(json)));
  TraceTotals got;
  for (const results::ReplayStep& s : rec.steps) {
    got.reads += s.replayed.read_ios;
    got.writes += s.replayed.write_ios;
    got.bytes += s.replayed.bytes;
  }
  EXPECT_EQ(got.reads, want.reads);
  EXPECT_EQ(got.writes, want.writes);
  EXPECT_EQ(got.bytes, want.bytes);
  EXPECT_EQ(job["read"]["total_ios"].get<uint64_t>(), want.reads) << "fio's reads";
  EXPECT_EQ(job["write"]["total_ios"].get<uint64_t>(), want.writes) << "fio's writes";
}

}  // namespace
}  // namespace ptsuite::replay
