// `ptsuite scenario run` with a replay phase, end to end with the built binary: a capture of a
// known workload (support/synthetic_capture.hpp: 700 reads and writes in three 200 ms steps)
// replayed on two O_DIRECT files in /dev/shm at once; every captured read and write replayed on
// each target, each target's record a valid ptsuite.replay record, and the replay rows in
// report.html, summary.txt and scenario.csv. And `ptsuite replay` taking a built-in capture by
// its name (replay/replay_source.hpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "integration/workload_process.hpp"
#include "support/json_schema.hpp"
#include "support/synthetic_capture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"

namespace ptsuite {
namespace {

using nlohmann::json;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;

using test_support::file_text;

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ScenarioCli, AReplayPhaseReplaysEveryCapturedIoOnEachTarget) {
  test_support::ShmTempDir dir;
  const std::string capture = dir.file("known.ptcap");
  test_support::write_synthetic_capture(capture);
  const std::string a = dir.create_file("a.img", test_support::k_synthetic_capacity_bytes);
  const std::string b = dir.create_file("b.img", test_support::k_synthetic_capacity_bytes);
  const json scenario{{"format", "ptsuite-scenario/1"},
                      {"name", "replay-two"},
                      {"title", "a capture on two targets"},
                      {"phases", {{{"name", "db"}, {"kind", "replay"}, {"capture", capture}, {"step", "200ms"}}}}};
  const std::string file = dir.file("replay.json");
  std::ofstream(file) << scenario.dump(2);
  const std::string plan = run_ptsuite({"scenario", "plan", file}).out;
  EXPECT_NE(plan.find("(open loop, speed 1)"), std::string::npos) << plan;
  const std::string out = dir.file("run");
  const ProcessResult r = run_ptsuite({"scenario", "run", file, "--target", a, "--target", b, "--quiet", "--out", out,
                                       "--no-history", "--format", "html,csv,text"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(file_text(out + "/results.json"));
  EXPECT_TRUE(validate_json(doc, embedded_schema("scenario-results")).empty());
  EXPECT_EQ(doc.at("status"), "complete");
  const json& phase = doc.at("phases").at(0);
  EXPECT_EQ(phase.at("kind"), "replay");
  ASSERT_EQ(phase.at("replays").size(), 2u) << "each target its own replay";
  const json replay_schema = embedded_schema("replay");
  for (size_t t = 0; t < 2; ++t) {
    SCOPED_TRACE(t);
    const json& entry = phase.at("replays").at(t);
    EXPECT_EQ(entry.at("target"), t);
    const json& rec = entry.at("replay");
    const std::vector<std::string> errors = validate_json(rec, replay_schema);
    EXPECT_TRUE(errors.empty()) << (errors.empty() ? "" : errors.front());
    EXPECT_EQ(rec.at("target").at("path"), t == 0 ? a : b);
    EXPECT_EQ(rec.at("stop_reason"), "complete");
    EXPECT_EQ(rec.at("replayed_ios"), test_support::k_synthetic_replayable_ios);
    uint64_t captured_reads = 0;
    uint64_t replayed_reads = 0;
    uint64_t captured_writes = 0;
    uint64_t replayed_writes = 0;
    for (const json& step : rec.at("steps")) {
      captured_reads += step.at("captured").at("read_ios").get<uint64_t>();
      captured_writes += step.at("captured").at("write_ios").get<uint64_t>();
      replayed_reads += step.at("replayed").at("read_ios").get<uint64_t>();
      replayed_writes += step.at("replayed").at("write_ios").get<uint64_t>();
    }
    EXPECT_EQ(captured_reads + captured_writes, test_support::k_synthetic_replayable_ios);
    EXPECT_EQ(replayed_reads, captured_reads) << "every captured read replayed";
    EXPECT_EQ(replayed_writes, captured_writes) << "every captured write replayed";
  }
  EXPECT_NE(phase.at("replays")[0].at("replay").at("seed"), phase.at("replays")[1].at("replay").at("seed"))
      << "each target its own write data";
  const std::string html = file_text(out + "/report.html");
  EXPECT_NE(html.find("IOs replayed"), std::string::npos);
  EXPECT_NE(html.find("Issue error p50"), std::string::npos);
  EXPECT_EQ(count(html, "<td>open, speed 1</td>"), 2u) << "one replay row per target";
  EXPECT_NE(html.find("Replay steps of db per target"), std::string::npos) << "the steps kept up or not";
  // Each target's third 200 ms step: in the steps table and in the response times of the drives.
  EXPECT_EQ(count(html, "<td>3 (0.4 s)</td>"), 4u);
  EXPECT_NE(html.find("Response times of the replayed IOs of db per target"), std::string::npos);
  const std::string text = file_text(out + "/summary.txt");
  EXPECT_EQ(count(text, "700 of 700 IOs replayed"), 2u) << text;
  EXPECT_NE(text.find("issue-time error p50"), std::string::npos);
  EXPECT_EQ(count(text, "(700 IOs)"), 2u) << "each target's response times: " << text;
  const std::string csv = file_text(out + "/scenario.csv");
  EXPECT_NE(csv.find(",issue_error_p50_ns,issue_error_p99_ns,issue_error_max_ns,fell_behind\r\n"), std::string::npos);
  EXPECT_EQ(count(csv, "db,replay,all,"), 4u) << "per target a captured and a replayed total row";
  EXPECT_NE(csv.find(",replay,replayed,1,combined,,,700,"), std::string::npos) << csv;
  // The replayed rows carry the replayed IOs' response times (a mean after the rates), the
  // captured rows none.
  const size_t replayed_total = csv.find(",replay,replayed,1,combined,,,700,");
  const std::string row = csv.substr(replayed_total, csv.find('\r', replayed_total) - replayed_total);
  EXPECT_EQ(row.find(",,,,,,,,,,,,,,,"), std::string::npos) << "latency columns filled: " << row;
  EXPECT_NE(csv.find(",replay,captured,1,combined,,,700,"), std::string::npos);
}

TEST(ReplayCli, ABuiltInCaptureReplaysByItsName) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("t.img", 64ULL << 20);
  const std::string record = dir.file("r.json");
  const ProcessResult r = run_ptsuite({"replay", "pgbench", "--target", target, "--mode", "closed", "--quiet",
                                       "--json-out", record, "--out", dir.file("run"), "--no-history"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json rec = json::parse(file_text(record));
  EXPECT_TRUE(validate_json(rec, embedded_schema("replay")).empty());
  EXPECT_EQ(rec.at("capture").at("file"), "captures/pgbench.ptcap");
  EXPECT_EQ(rec.at("replayed_ios").get<uint64_t>() + rec.at("skipped_ios").get<uint64_t>(),
            rec.at("capture_ios").get<uint64_t>())
      << "every IO of the embedded capture replayed or counted";
  EXPECT_GT(rec.at("replayed_ios").get<uint64_t>(), 5000u) << "pts/captures/README.md: 6,391 IOs";
  const ProcessResult unknown = run_ptsuite({"replay", "no-such-capture", "--target", target, "--quiet"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("pgbench, sysbench"), std::string::npos) << unknown.err;
}

// A replay phase whose capture is no capture is refused before the first write, even when a
// writing phase comes first: exit 2, and both targets hash the same before and after.
TEST(ScenarioCli, ABadReplayCaptureIsRefusedBeforeAnyPhaseWrites) {
  test_support::ShmTempDir dir;
  const std::string junk = dir.file("junk.ptcap");
  std::ofstream(junk) << "not a capture\n";
  std::vector<std::string> targets;
  for (const char* name : {"a.img", "b.img"}) {
    targets.push_back(dir.file(name));
    std::ofstream out(targets.back(), std::ios::binary);
    for (uint32_t i = 0; i < (16U << 20) / 4; ++i) out.write(reinterpret_cast<const char*>(&i), 4);  // not zeros
  }
  const auto digest = [](const std::string& path) { return std::hash<std::string>{}(file_text(path)); };
  const std::vector<size_t> before = {digest(targets[0]), digest(targets[1])};
  const json scenario{
      {"format", "ptsuite-scenario/1"},
      {"name", "bad-replay"},
      {"title", "a fill, then a replay of a text file"},
      {"phases", {{{"name", "fill"}, {"kind", "fill"}}, {{"name", "db"}, {"kind", "replay"}, {"capture", junk}}}}};
  const std::string file = dir.file("bad.json");
  std::ofstream(file) << scenario.dump(2);
  const ProcessResult r = run_ptsuite({"scenario", "run", file, "--target", targets[0], "--target", targets[1],
                                       "--allow-destructive", "--quiet", "--out", dir.file("run"), "--no-history"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("phase db: capture"), std::string::npos) << r.err;
  EXPECT_EQ(digest(targets[0]), before[0]) << "target a was written";
  EXPECT_EQ(digest(targets[1]), before[1]) << "target b was written";
}

}  // namespace
}  // namespace ptsuite
