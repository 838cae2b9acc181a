// End-to-end `ptsuite run` / `ptsuite resume` with the built binary, on a scratch target (a
// loop device over /dev/shm when root, else an O_DIRECT file) or on a /dev/shm file target,
// with durations cut to fractions of a second. Checks the structure and plausibility of
// results.json: loop orders and cell counts, that every recorded verdict follows from the
// recorded values, TGBW equals the bytes written, CBW operating points follow their rules, the
// journal holds every step once, and a run killed (SIGKILL) or interrupted (SIGINT) and then
// resumed takes exactly the steps `ptsuite plan` lists.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/steady_state.hpp>
#include <ptsuite/results/run_draft.hpp>

#include "integration/workload_process.hpp"
#include "support/loop_support.hpp"
#include "support/plan_bound.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"

namespace ptsuite {
namespace {

using nlohmann::json;
using workload::test::Child;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;
using workload::test::slurp;
namespace fs = std::filesystem;

// Short enough for CI, long enough that every segment does real IO.
const std::vector<std::string> k_settings = {"--quick",
                                             "--set",
                                             "max_rounds=5",
                                             "--set",
                                             "iops.segment_duration=0.05s",
                                             "--set",
                                             "throughput.segment_duration=0.1s",
                                             "--set",
                                             "latency.segment_duration=0.05s",
                                             "--set",
                                             "latency.capture_duration=0.5s",
                                             "--set",
                                             "wsat.sample_duration=0.25s",
                                             "--set",
                                             "wsat.time_limit=3s",
                                             "--set",
                                             "wsat.capture_duration=0.5s",
                                             "--set",
                                             "cbw.segment_duration=0.05s",
                                             "--set",
                                             "cbw.precondition_round_duration=0.1s",
                                             "--set",
                                             "cbw.inter_round_prewrite_duration=0.1s",
                                             "--set",
                                             "cbw.histogram_prewrite_duration=0.2s",
                                             "--set",
                                             "cbw.histogram_capture_duration=0.3s",
                                             "--set",
                                             "dirth.segment_duration=0.05s",
                                             "--set",
                                             "dirth.precondition_round_duration=0.1s",
                                             "--set",
                                             "dirth.inter_round_prewrite_duration=0.1s",
                                             "--set",
                                             "dirth.histogram_prewrite_duration=0.2s",
                                             "--set",
                                             "dirth.histogram_capture_duration=0.3s"};

std::vector<std::string> fast_run_flags() {
  std::vector<std::string> flags{"--quiet", "--format", "none"};
  flags.insert(flags.end(), k_settings.begin(), k_settings.end());
  return flags;
}
const std::vector<std::string> k_fast = fast_run_flags();

using test_support::load_json;

std::vector<std::string> args(std::vector<std::string> head, const std::vector<std::string>& tail = k_fast) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

// A finished run: its results.json and the process's monotonic span (test_support/plan_bound.hpp).
struct FinishedRun {
  json results;
  uint64_t wall_ns = 0;
};

FinishedRun run_test(const std::string& test, const test_support::ShmTempDir& dir) {
  const std::string out = dir.file("run");
  const ProcessResult r = run_ptsuite(args({"run", test, "--out", out, "--scratch-size", "128MiB"}));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return {load_json(out + "/results.json"), r.wall_ns};
}

size_t journal_steps(const std::string& run_dir) {
  const fs::path steps = fs::path(run_dir) / "journal" / "steps";
  if (!fs::exists(steps)) {
    return 0;
  }
  return static_cast<size_t>(
      std::count_if(fs::directory_iterator(steps), fs::directory_iterator{},
                    [](const fs::directory_entry& e) { return e.path().extension() == ".json"; }));
}

std::vector<std::string> journal_ids(const std::string& run_dir) {
  std::vector<fs::path> files;
  for (const fs::directory_entry& e : fs::directory_iterator(fs::path(run_dir) / "journal" / "steps")) {
    if (e.path().extension() == ".json") {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> ids;
  for (const fs::path& f : files) {
    ids.push_back(load_json(f.string()).at("id").get<std::string>());
  }
  return ids;
}

// Journal entry `seq` (1-based) of the run in `run_dir`, as its file holds it.
json journal_entry(const std::string& run_dir, size_t seq) {
  std::string name = std::to_string(seq);
  name.insert(0, 8 - std::min<size_t>(8, name.size()), '0');
  return load_json((fs::path(run_dir) / "journal" / "steps" / (name + ".json")).string());
}

// Every phase's recorded verdict is what the steady-state rule gives for its recorded values.
void expect_verdicts_follow_from_values(const json& test) {
  for (const json& phase : test.at("phases")) {
    std::vector<pts::TrackingSeries> series;
    for (const json& t : phase.at("tracking")) {
      series.push_back(
          {t.at("name"), t.at("rounds").get<std::vector<uint32_t>>(), t.at("values").get<std::vector<double>>()});
      // The tracked values are the recorded per-round values of that segment.
      const size_t index = t.at("segment_index").get<size_t>();
      for (size_t r = 0; r < phase.at("rounds").size(); ++r) {
        const json& seg = phase.at("rounds")[r].at("segments")[index].at("summary");
        const std::string metric = t.at("metric");
        const double recorded = metric == "iops" ? seg.at("combined").at("iops").get<double>()
                                : metric == "write_mb_per_s"
                                    ? seg.at("write").at("mb_per_s").get<double>()
                                    : seg.at("combined").at("latency_ns").at("mean").get<double>();
        EXPECT_DOUBLE_EQ(t.at("values")[r].get<double>(), recorded);
      }
    }
    const pts::SteadyStateResult recomputed =
        pts::evaluate_all(series, phase.at("steady_state").at("criteria").get<pts::SteadyStateCriteria>());
    EXPECT_EQ(json(recomputed), phase.at("steady_state").at("verdicts"));
    EXPECT_EQ(recomputed.attained, phase.at("steady_state").at("attained").get<bool>());
    for (const json& round : phase.at("rounds")) {
      EXPECT_EQ(round.at("segments").size(), phase.at("round_template").size());
    }
  }
}

void expect_common(const json& results, const std::string& id, uint64_t process_wall_ns) {
  EXPECT_EQ(results.at("schema_version"), 1);
  EXPECT_EQ(results.at("run").at("status"), "complete");
  EXPECT_EQ(results.at("compliance").at("summary"), "not compliant: shortened");
  ASSERT_EQ(results.at("tests").size(), 1u);
  const json& t = results.at("tests")[0];
  EXPECT_EQ(t.at("id"), id);
  EXPECT_EQ(t.at("status"), "complete");
  EXPECT_FALSE(t.at("purges").empty());
  EXPECT_FALSE(t.at("purges")[0].at("pts_compliant").get<bool>());  // discard / zero-fill
  EXPECT_FALSE(t.at("compliance").at("compliant").get<bool>());
  EXPECT_EQ(results.at("run").at("journal").at("steps"), results.at("run").at("journal").at("executed_this_session"));
  expect_verdicts_follow_from_values(t);
  test_support::expect_within_worst_case(results, process_wall_ns);
  // A real run's document (preflight, write cache, plan assumptions) reads into the typed draft
  // pts builds it from and writes back byte for byte: what `ptsuite resume` continues.
  EXPECT_TRUE(results.contains("preflight"));
  EXPECT_EQ(json(results::read_run_draft(results)).dump(), results.dump());
}

TEST(RunCli, IopsFiftySixCellsInSpecOrder) {
  test_support::ShmTempDir dir;
  const FinishedRun finished = run_test("iops", dir);
  const json& results = finished.results;
  expect_common(results, "iops", finished.wall_ns);
  const json& t = results.at("tests")[0];
  const json& phase = t.at("phases")[0];
  ASSERT_EQ(phase.at("round_template").size(), 56u);
  const std::vector<std::string> mixes{"100/0", "95/5", "65/35", "50/50", "35/65", "5/95", "0/100"};
  const std::vector<std::string> sizes{"1MiB", "128KiB", "64KiB", "32KiB", "16KiB", "8KiB", "4KiB", "0.5KiB"};
  for (size_t m = 0; m < mixes.size(); ++m) {
    for (size_t b = 0; b < sizes.size(); ++b) {
      EXPECT_EQ(phase.at("round_template")[m * sizes.size() + b].at("label"), "RND " + sizes[b] + " " + mixes[m]);
    }
  }
  EXPECT_EQ(phase.at("tracking").size(), 3u);
  EXPECT_EQ(phase.at("rounds").size(), 5u);  // max_rounds = 5: checked once, at Round 5
  // Mixed cells did both reads and writes in roughly their proportion.
  const json& mixed = phase.at("rounds")[0].at("segments")[2 * 8 + 6].at("summary");  // 65/35 4KiB
  const double reads = mixed.at("read").at("ios").get<double>();
  const double writes = mixed.at("write").at("ios").get<double>();
  EXPECT_NEAR(reads / (reads + writes), 0.65, 0.1);
  // The matrix shows the window averages of the cells.
  EXPECT_DOUBLE_EQ(
      t.at("matrix").at("iops")[6][2].get<double>(),
      phase.at("measurement_window").at("cells")[2 * 8 + 6].at("summary").at("combined").at("iops").get<double>());
  // The bundle verifies.
  EXPECT_EQ(run_ptsuite({"verify", dir.file("run")}).exit_code, 0);
}

TEST(RunCli, ThroughputPhasesPerBlockSize) {
  test_support::ShmTempDir dir;
  const FinishedRun finished = run_test("throughput", dir);
  const json& results = finished.results;
  expect_common(results, "throughput", finished.wall_ns);
  const json& t = results.at("tests")[0];
  ASSERT_EQ(t.at("phases").size(), 2u);
  EXPECT_EQ(t.at("purges").size(), 2u);
  ASSERT_EQ(t.at("preconditioning").size(), 2u);
  for (const json& w : t.at("preconditioning")) {
    // WIPC wrote exactly its target, sequentially, with the phase's block size.
    EXPECT_EQ(w.at("result").at("summary").at("write").at("bytes"), w.at("bytes_target"));
    EXPECT_EQ(w.at("result").at("stop_reason"), "bytes");
  }
  EXPECT_EQ(t.at("phases")[0].at("tracking")[0].at("metric"), "write_mb_per_s");
  // Each direction's sequential cursor moved on between Rounds.
  const json& rounds = t.at("phases")[0].at("rounds");
  EXPECT_NE(rounds[0].at("segments")[1].at("end_cursor_bytes"), rounds[1].at("segments")[1].at("end_cursor_bytes"));
}

TEST(RunCli, LatencyNineCellsAndCapture) {
  test_support::ShmTempDir dir;
  const FinishedRun finished = run_test("latency", dir);
  const json& results = finished.results;
  expect_common(results, "latency", finished.wall_ns);
  const json& t = results.at("tests")[0];
  EXPECT_EQ(t.at("phases")[0].at("round_template").size(), 9u);
  EXPECT_EQ(t.at("phases")[0].at("round_template")[0].at("queue_depth"), 1);
  ASSERT_EQ(t.at("captures").size(), 1u);
  const json& cap = t.at("captures")[0].at("result");
  uint64_t bucket_total = 0;
  for (const json& run : cap.at("histograms").at("combined").at("buckets")) {
    for (size_t k = 1; k < run.size(); ++k) {  // [lower_ns, count, count, ...]
      bucket_total += run[k].get<uint64_t>();
    }
  }
  EXPECT_EQ(bucket_total, cap.at("summary").at("combined").at("ios").get<uint64_t>());
  EXPECT_GT(bucket_total, 100u);
}

TEST(RunCli, WsatTgbwEqualsBytesWritten) {
  test_support::ShmTempDir dir;
  const FinishedRun finished = run_test("wsat", dir);
  const json& results = finished.results;
  expect_common(results, "wsat", finished.wall_ns);
  const json& w = results.at("tests")[0].at("wsat");
  uint64_t written = 0;
  for (const json& s : w.at("samples")) {
    written += s.at("result").at("summary").at("write").at("bytes").get<uint64_t>();
    EXPECT_EQ(s.at("tgbw_bytes").get<uint64_t>(), written);
    EXPECT_DOUBLE_EQ(s.at("drive_fills").get<double>(),
                     static_cast<double>(written) / w.at("capacity_bytes").get<double>());
  }
  EXPECT_EQ(w.at("written_bytes").get<uint64_t>(), written);
  const bool by_capacity = written >= w.at("target_bytes").get<uint64_t>();
  EXPECT_EQ(w.at("stop_reason"), by_capacity ? "capacity" : "time_limit");
}

TEST(RunCli, CbwGridAndOperatingPoints) {
  test_support::ShmTempDir dir;
  const FinishedRun finished = run_test("cbw", dir);
  const json& results = finished.results;
  expect_common(results, "cbw", finished.wall_ns);
  const json& t = results.at("tests")[0];
  const json& demand = t.at("phases")[1];
  ASSERT_EQ(demand.at("round_template").size(), 49u);
  const json& final_round = demand.at("rounds").back().at("segments");
  const double ceiling = t.at("cbw").at("art_ceiling_ns").get<double>();
  const json& op = t.at("cbw").at("operating_points");
  const json& max = op[0];
  // MaxIOPS: no segment under the ART ceiling has more IOPS than the chosen one.
  if (max.at("latency_mean_ns").get<double>() < ceiling) {
    for (const json& s : final_round) {
      if (s.at("summary").at("combined").at("latency_ns").at("mean").get<double>() < ceiling) {
        EXPECT_LE(s.at("summary").at("combined").at("iops").get<double>(), max.at("iops").get<double>());
      }
    }
  }
  EXPECT_EQ(op[2].at("threads"), 1);
  EXPECT_EQ(op[2].at("queue_depth"), 1);
  EXPECT_EQ(t.at("captures").size(), 3u);
  // The histogram captures ran at their operating points with the CBW mix and zones.
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(t.at("captures")[i].at("spec").at("threads"), op[i].at("threads"));
    EXPECT_EQ(t.at("captures")[i].at("spec").at("zones").size(), 3u);
  }
}

// DIRTH's quick form end to end (the CBW machinery over RND 8 KiB 65/35): the three operating
// points with their captures, and the run within its planned worst case (expect_common).
TEST(RunCli, DirthOperatingPointsEndToEnd) {
  test_support::ShmTempDir dir;
  const FinishedRun finished = run_test("dirth", dir);
  const json& results = finished.results;
  expect_common(results, "dirth", finished.wall_ns);
  const json& t = results.at("tests")[0];
  EXPECT_EQ(t.at("phases")[1].at("round_template").size(), 49u);
  EXPECT_EQ(t.at("dirth").at("operating_points").size(), 3u);
  EXPECT_EQ(t.at("captures").size(), 3u);
}

// PTS-E 1.1 runs ECW in place of CBW: `run cbw --revision e1.1` runs the ECW procedure (the 7 x 7
// sweep, no histograms) and titles its pages ECW.
TEST(RunCli, CbwUnderE11RunsEcw) {
  test_support::ShmTempDir dir;
  const std::string out = dir.file("run");
  const ProcessResult r =
      run_ptsuite(args({"run", "cbw", "--revision", "e1.1", "--out", out, "--scratch-size", "128MiB", "--format",
                        "html,text", "--quiet", "--set", "ecw.segment_duration=0.05s", "--set",
                        "ecw.precondition_round_duration=0.1s", "--set", "ecw.inter_round_prewrite_duration=0.1s"},
                       k_settings));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json results = load_json(out + "/results.json");
  test_support::expect_within_worst_case(results, r.wall_ns);
  ASSERT_EQ(results.at("tests").size(), 1u);
  const json& t = results.at("tests")[0];
  EXPECT_EQ(t.at("id"), "ecw");
  EXPECT_EQ(results.at("config").at("tests"), json::array({"ecw"}));
  EXPECT_EQ(t.at("phases")[1].at("round_template").size(), 49u);
  EXPECT_TRUE(t.at("captures").empty());
  std::ifstream html(out + "/report.html");
  const std::string page((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("ECW \u2013 "), std::string::npos);
  EXPECT_NE(page.find("Enterprise Composite Workload Test \u2013 Report Page"), std::string::npos);
}

// endurance-write end to end: writes for its time limit on a scratch loop device, with the
// percentile page and the per-sample CSV rows.
TEST(RunCli, EnduranceWriteEndToEnd) {
  test_support::ShmTempDir dir;
  const std::string out = dir.file("run");
  const ProcessResult r = run_ptsuite(
      args({"run", "endurance-write", "--out", out, "--scratch-size", "128MiB", "--format", "html,csv", "--quiet",
            "--set", "endurance-write.sample_duration=0.25s", "--set", "endurance-write.time_limit=1s"},
           k_settings));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json results = load_json(out + "/results.json");
  test_support::expect_within_worst_case(results, r.wall_ns);
  const json& e = results.at("tests")[0].at("endurance");
  EXPECT_EQ(e.at("stop_reason"), "time_limit");
  EXPECT_EQ(e.at("samples").size(), 4u);
  EXPECT_GT(e.at("samples")[0].at("latency_p99_9_ns").get<uint64_t>(), 0u);
  std::ifstream html(out + "/report.html");
  const std::string page((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("Endurance \u2013 Latency Percentiles vs Time (99, 99.9, 99.99 %, MRT)"), std::string::npos);
  EXPECT_TRUE(fs::exists(out + "/endurance-write.csv"));
}

// The PTS-C client options end to end: the AR Amount confines random IO to its segments (the
// record and the header say so), the random WIPC pass runs after the SEQ pass, and both are
// disclosed; segments too small for a 1 MiB block are refused before anything is written.
TEST(RunCli, ClientOptionsEndToEnd) {
  test_support::ShmTempDir dir;
  const std::string out = dir.file("run");
  const ProcessResult r = run_ptsuite(args(
      {"run", "latency", "--profile", "client", "--out", out, "--scratch-size", "128MiB", "--format", "html", "--quiet",
       "--set", "active_range.amount=16MiB", "--set", "active_range.segments=8", "--set", "wipc.random=true"},
      k_settings));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json results = load_json(out + "/results.json");
  test_support::expect_within_worst_case(results, r.wall_ns);
  const json& t = results.at("tests")[0];
  EXPECT_EQ(t.at("ar_segments").at("count"), 8);
  EXPECT_EQ(t.at("ar_segments").at("amount_bytes"), 16u << 20);
  const json& pass = t.at("preconditioning")[0].at("random_pass");
  EXPECT_EQ(pass.at("result").at("summary").at("write").at("bytes"), pass.at("bytes_target"));
  bool ar_disclosed = false;
  for (const json& c : t.at("compliance").at("clauses")) {
    ar_disclosed |= c.at("clause") == "active_range" && c.at("status") == "disclosed";
  }
  EXPECT_TRUE(ar_disclosed);
  std::ifstream html(out + "/report.html");
  const std::string page((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("8 equal segments holding 16MiB of the ActiveRange"), std::string::npos);
  EXPECT_NE(page.find("PTS-C random WIPC"), std::string::npos);

  const std::string refused_out = dir.file("refused");
  const ProcessResult refused =
      run_ptsuite(args({"run", "latency", "--profile", "client", "--out", refused_out, "--scratch-size", "128MiB",
                        "--quiet", "--set", "active_range.amount=4MiB", "--set", "active_range.segments=16"},
                       k_settings));
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("active_range.amount/segments"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(refused_out)) << "refused before the run directory was created";
}

// latency-sweep end to end on a small grid: every cell measured, the pages per mix written.
TEST(RunCli, LatencySweepEndToEnd) {
  test_support::ShmTempDir dir;
  const std::string out = dir.file("run");
  const ProcessResult r =
      run_ptsuite(args({"run", "latency-sweep", "--out", out, "--scratch-size", "128MiB", "--format", "html,csv,text",
                        "--quiet", "--set", "latency-sweep.segment_duration=0.05s", "--set",
                        "latency-sweep.thread_counts=1,2", "--set", "latency-sweep.queue_depths=1,4"},
                       k_settings));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json results = load_json(out + "/results.json");
  test_support::expect_within_worst_case(results, r.wall_ns);
  const json& cells = results.at("tests")[0].at("sweep").at("cells");
  ASSERT_EQ(cells.size(), 12u);  // 3 mixes x 2 TC x 2 QD
  for (const json& c : cells) {
    EXPECT_GT(c.at("iops").get<double>(), 0) << c.at("label");
    // Under the default window.mrt=round-mean the MRT is the mean of the Rounds' maxima, which a
    // percentile of every IO of the window may exceed; the window's own maximum never is.
    EXPECT_LE(c.at("latency_p99_999_ns").get<uint64_t>(), c.at("latency_window_max_ns").get<uint64_t>())
        << c.at("label");
    EXPECT_LE(c.at("latency_max_ns").get<uint64_t>(), c.at("latency_window_max_ns").get<uint64_t>()) << c.at("label");
  }
  std::ifstream html(out + "/report.html");
  const std::string page((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("Latency Sweep RND 4 KiB 65/35 \u2013 ART and 99 % vs IOPS per TC"), std::string::npos);
  EXPECT_NE(page.find("Latency Sweep RND 4 KiB 65/35 \u2013 99.9 % and 99.99 % vs IOPS per TC"), std::string::npos)
      << "the PTS 2.0.1 lab report's 99 % and 99.9 %, and 99.99 % still";
  EXPECT_TRUE(fs::exists(out + "/latency-sweep.csv"));
}

// XSR end to end on a scratch loop device: three access groups in samples, the stimulus of
// each, TC 1 / QD 32 throughout, and the recovery recorded; its pages, text and CSV written.
TEST(RunCli, XsrThreeAccessGroupsEndToEnd) {
  test_support::ShmTempDir dir;
  const std::string out = dir.file("run");
  const ProcessResult r =
      run_ptsuite({"run", "xsr", "--out", out, "--scratch-size", "128MiB", "--quiet", "--quick", "--format",
                   "html,csv,text", "--set", "xsr.access_1_duration=2s", "--set", "xsr.access_2_duration=1s", "--set",
                   "xsr.access_3_duration=2s", "--set", "xsr.sample_duration=0.5s"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json results = load_json(out + "/results.json");
  expect_common(results, "xsr", r.wall_ns);
  const json& x = results.at("tests")[0].at("xsr");
  ASSERT_EQ(x.at("groups").size(), 3u);
  EXPECT_EQ(x.at("groups")[0].at("label"), "SEQ 1MiB 0/100");
  EXPECT_EQ(x.at("groups")[1].at("label"), "RND 8KiB 0/100");
  EXPECT_EQ(x.at("samples").size(), 4u + 2u + 4u);
  for (const json& s : x.at("samples")) {
    EXPECT_GT(s.at("mb_per_s").get<double>(), 0.0);
    EXPECT_EQ(s.at("result").at("summary").at("read").at("ios"), 0);
  }
  EXPECT_TRUE(x.at("recovery").contains("recovered"));
  EXPECT_NE(slurp(out + "/report.html").find("XSR \u2013 Access Groups and Recovery"), std::string::npos);
  EXPECT_NE(slurp(out + "/summary.txt").find("XSR access groups"), std::string::npos);
  EXPECT_NE(slurp(out + "/xsr.csv").find("xsr_group"), std::string::npos);
}

// HIR end to end on a scratch loop device: preconditioning Rounds, then per wait state the
// write periods with real host idle between them and a baseline; its pages, text and CSV.
TEST(RunCli, HirWaitStatesEndToEnd) {
  test_support::ShmTempDir dir;
  const std::string out = dir.file("run");
  const ProcessResult r = run_ptsuite({"run",
                                       "hir",
                                       "--out",
                                       out,
                                       "--scratch-size",
                                       "128MiB",
                                       "--quiet",
                                       "--quick",
                                       "--format",
                                       "html,csv,text",
                                       "--set",
                                       "hir.precondition_segments=1",
                                       "--set",
                                       "hir.precondition_segment_duration=0.25s",
                                       "--set",
                                       "hir.write_period=0.25s",
                                       "--set",
                                       "hir.wait_unit=0.1s",
                                       "--set",
                                       "hir.repetitions=2",
                                       "--set",
                                       "hir.baseline_periods=2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json results = load_json(out + "/results.json");
  expect_common(results, "hir", r.wall_ns);
  const json& h = results.at("tests")[0].at("hir");
  ASSERT_EQ(h.at("wait_states").size(), 5u);
  for (const json& ws : h.at("wait_states")) {
    EXPECT_GT(ws.at("average_iops").get<double>(), 0.0);
    for (const json& p : ws.at("periods")) {
      // Measured wall time of the idle: at least what was asked (WS x 0.1 s).
      EXPECT_GE(p.at("idle_ns").get<uint64_t>(), ws.at("idle_ns").get<uint64_t>());
    }
    EXPECT_EQ(ws.at("baseline").at("series").at("iops").size(), 2u);  // 2 periods, no drain tail
  }
  EXPECT_NE(slurp(out + "/run.log").find("start hir/wait-10/idle-0002"), std::string::npos);
  EXPECT_NE(slurp(out + "/report.html").find("HIR \u2013 IOPS per Wait State"), std::string::npos);
  EXPECT_NE(slurp(out + "/summary.txt").find("HIR (RND 4KiB"), std::string::npos);
  EXPECT_NE(slurp(out + "/hir.csv").find("hir_wait_state"), std::string::npos);
}

// Starts ptsuite with `argv`, sends SIGINT once `ready()` holds (and the child handles SIGINT),
// and returns how it ended; fails the test if the child exited before that.
ProcessResult interrupt_when(const std::vector<std::string>& argv, const std::function<bool()>& ready,
                             int signal = SIGINT) {
  Child child(argv);
  while ((!ready() || !child.catches(signal)) && !child.exited()) {
    ::usleep(20'000);
  }
  EXPECT_FALSE(child.exited()) << "the run ended before it could be interrupted";
  ::kill(child.pid(), signal);
  return child.wait();
}

// A closed SSH session (SIGHUP) and a scheduler's SIGTERM end a run the way Ctrl-C does:
// results written, status interrupted, exit 130, resumable.
TEST(RunCli, SighupAndSigtermAreTreatedAsSigint) {
  for (const int signal : {SIGHUP, SIGTERM}) {
    test_support::ShmTempDir dir;
    const std::string target = dir.create_file("target.img", 64ull << 20);
    const std::string out = dir.file("run");
    const ProcessResult stopped = interrupt_when(
        args({"run", "latency", "--target", target, "--out", out, "--allow-destructive"}),
        [&] { return journal_steps(out) >= 5; }, signal);
    EXPECT_EQ(stopped.exit_code, 130) << signal << ": " << stopped.err;
    EXPECT_EQ(load_json(out + "/results.json").at("run").at("status"), "interrupted") << signal;
    EXPECT_NE(stopped.err.find("ptsuite resume"), std::string::npos) << stopped.err;
    EXPECT_EQ(run_ptsuite({"resume", out, "--allow-destructive", "--quiet"}).exit_code, 0) << signal;
  }
}

// SIGINT during a host idle stops the run at once (exit 130) without journaling the idle, so a
// resume idles that period again whole (the journal side: HirTest.ResumeAfterAnInterruptedIdle...).
TEST(RunCli, SigintDuringAHostIdleStopsTheRun) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 64ull << 20);
  const std::string out = dir.file("run");
  const ProcessResult stopped =
      interrupt_when(args({"run", "hir", "--target", target, "--out", out, "--allow-destructive", "--quick", "--set",
                           "hir.precondition_segments=1", "--set", "hir.wait_unit=60s", "--set", "hir.repetitions=1"}),
                     [&] { return slurp(out + "/run.log").find("start hir/wait-1/idle-0001") != std::string::npos; });
  EXPECT_EQ(stopped.exit_code, 130) << stopped.err;
  const json partial = load_json(out + "/results.json");
  EXPECT_EQ(partial.at("run").at("status"), "interrupted");
  EXPECT_NE(partial.at("run").at("stop").at("reason").get<std::string>().find("hir/wait-1/idle-0001 (host idle)"),
            std::string::npos);
  EXPECT_EQ(slurp(out + "/run.log").find("done  hir/wait-1/idle-0001"), std::string::npos);
}

std::vector<std::string> plan_ids(const std::string& test, const std::string& target) {
  const ProcessResult r = run_ptsuite(args({"plan", test, "--target", target, "--json"}, k_settings));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> ids;
  const json plan = json::parse(r.out);  // named: a range over a temporary's member would dangle
  for (const json& s : plan.at("steps")) {
    ids.push_back(s.at("id"));
  }
  return ids;
}

// Killed with SIGKILL mid-run, then resumed: the journal ends up holding exactly the steps the
// plan lists, each once, and the results are complete; the run's duration counts the killed
// session up to its last journaled step (its results.json was last written before its first).
TEST(RunCli, ResumeAfterKillTakesExactlyThePlannedSteps) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 64ull << 20);
  const std::string out = dir.file("run");
  const std::vector<std::string> run_args =
      args({"run", "latency", "--target", target, "--out", out, "--allow-destructive"});
  const auto sessions_start = std::chrono::steady_clock::now();
  {
    Child child(run_args);
    while (journal_steps(out) < 20 && !child.exited()) {
      ::usleep(20'000);
    }
    ASSERT_FALSE(child.exited()) << "the run finished before it could be killed";
    ::kill(child.pid(), SIGKILL);
    EXPECT_EQ(child.wait().term_signal, SIGKILL);
  }
  const size_t before = journal_steps(out);
  ASSERT_GE(before, 20u);
  // The killed session's steady-clock time at its last journaled step, past its last results.json.
  const uint64_t killed_ns = journal_entry(out, before).at("session_ns").get<uint64_t>();
  EXPECT_LT(load_json(out + "/results.json").at("run").at("duration_ns").get<uint64_t>(), killed_ns);
  const ProcessResult resumed = run_ptsuite({"resume", out, "--allow-destructive", "--quiet"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const auto sessions_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - sessions_start);
  const std::vector<std::string> ids = journal_ids(out);
  EXPECT_EQ(ids, plan_ids("latency", target));
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
  const json results = load_json(out + "/results.json");
  EXPECT_EQ(results.at("run").at("status"), "complete");
  // The run's duration on the steady clock, both sessions: at least the killed one's to its last
  // journaled step plus the resumed one's to its own last step, at most what the two processes took.
  const uint64_t resumed_ns = journal_entry(out, ids.size()).at("session_ns").get<uint64_t>();
  ASSERT_TRUE(results.at("run").contains("duration_ns"));
  const uint64_t duration_ns = results.at("run").at("duration_ns").get<uint64_t>();
  EXPECT_GE(duration_ns, killed_ns + resumed_ns);
  EXPECT_LE(duration_ns, static_cast<uint64_t>(sessions_ns.count()));
  // The resumed session's steps count on from the killed session's last one.
  const json first_resumed = journal_entry(out, before + 1);
  EXPECT_GE(first_resumed.at("run_duration_ns").get<uint64_t>(),
            journal_entry(out, before).at("run_duration_ns").get<uint64_t>() +
                first_resumed.at("session_ns").get<uint64_t>());
  ASSERT_EQ(results.at("run").at("resumes").size(), 1u);
  // The same boot of the host: not a host restart, and nothing disclosed as one.
  EXPECT_FALSE(results.at("run").at("resumes")[0].at("after_host_restart").get<bool>());
  EXPECT_EQ(results.at("run").at("resumes")[0].value("boot_id", "x"), results.at("run").value("boot_id", "y"));
  const ProcessResult text = run_ptsuite({"report", out, "--format", "text", "--out", "-"});
  EXPECT_NE(text.out.find("Resumed:     "), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("host restart"), std::string::npos) << text.out;
  ASSERT_EQ(results.at("preflight").size(), 2u);  // one preflight session per start and resume
  EXPECT_EQ(results.at("preflight")[0].at("session"), "start");
  EXPECT_EQ(results.at("preflight")[1].at("session"), "resume");
  EXPECT_EQ(results.at("run").at("journal").at("replayed_this_session").get<size_t>(), before);
  expect_verdicts_follow_from_values(results.at("tests")[0]);
  // The run log holds both sessions, in order, and the manifest covers it.
  const std::string log = slurp(out + "/run.log");
  const size_t started = log.find("run started: ");
  const size_t resume_started = log.find("resume started");
  const size_t finished = log.find("run complete: ");
  EXPECT_NE(started, std::string::npos) << log;
  EXPECT_NE(resume_started, std::string::npos) << log;
  EXPECT_NE(finished, std::string::npos) << log;
  EXPECT_LT(started, resume_started);
  EXPECT_LT(resume_started, finished);
  EXPECT_NE(log.find("start latency/main/purge"), std::string::npos);
  EXPECT_EQ(run_ptsuite({"verify", out}).exit_code, 0);
}

// A run last active on another boot of the host (a power cut or a reboot since: its recorded
// boot ID differs) resumes, and the resume is disclosed as one after a host restart: warned on
// the console, in results.json and in every report.
TEST(RunCli, ResumeAfterAHostRestartIsDisclosed) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 64ull << 20);
  const std::string out = dir.file("run");
  {
    Child child(args({"run", "latency", "--target", target, "--out", out, "--allow-destructive"}));
    while (journal_steps(out) < 5 && !child.exited()) {
      ::usleep(20'000);
    }
    ASSERT_FALSE(child.exited()) << "the run finished before it could be killed";
    ::kill(child.pid(), SIGKILL);
    EXPECT_EQ(child.wait().term_signal, SIGKILL);
  }
  json partial = load_json(out + "/results.json");
  ASSERT_EQ(partial.at("run").at("boot_id").get<std::string>().size(), 36u);  // recorded at the start
  partial["run"]["boot_id"] = "00000000-0000-4000-8000-000000000000";         // as if before a power cut
  { std::ofstream(out + "/results.json") << partial.dump(); }
  const ProcessResult resumed = run_ptsuite({"resume", out, "--allow-destructive", "--quiet"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("the host restarted since this run last ran"), std::string::npos) << resumed.err;
  const json results = load_json(out + "/results.json");
  ASSERT_EQ(results.at("run").at("resumes").size(), 1u);
  EXPECT_TRUE(results.at("run").at("resumes")[0].at("after_host_restart").get<bool>());
  // The run's reports were "none": rendered here, as a lab would afterwards.
  const ProcessResult text = run_ptsuite({"report", out, "--format", "text", "--out", "-"});
  EXPECT_NE(text.out.find("after a host restart (reboot or power loss)"), std::string::npos) << text.out;
  ASSERT_EQ(run_ptsuite({"report", out, "--format", "html", "--out", out + "/r.html"}).exit_code, 0);
  EXPECT_NE(slurp(out + "/r.html").find("after a host restart (reboot or power loss)"), std::string::npos);
  ASSERT_EQ(run_ptsuite({"verify", out}).exit_code, 1);  // r.html was added after the manifest
  std::filesystem::remove(out + "/r.html");
  EXPECT_EQ(run_ptsuite({"verify", out}).exit_code, 0);
}

TEST(RunCli, SigintStopsWithResultsAndResumeRefusesAnotherDevice) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 64ull << 20);
  const std::string out = dir.file("run");
  const ProcessResult stopped =
      interrupt_when(args({"run", "latency", "--target", target, "--out", out, "--allow-destructive"}),
                     [&] { return journal_steps(out) >= 5; });
  EXPECT_EQ(stopped.exit_code, 130) << stopped.err;
  const json partial = load_json(out + "/results.json");
  EXPECT_EQ(partial.at("run").at("status"), "interrupted");
  EXPECT_NE(stopped.err.find("ptsuite resume"), std::string::npos);

  // The same path, now a different size: not the device the run started on.
  fs::resize_file(target, 32ull << 20);
  const ProcessResult refused = run_ptsuite({"resume", out, "--allow-destructive", "--quiet"});
  EXPECT_EQ(refused.exit_code, 3) << refused.err;
  EXPECT_NE(refused.err.find("not the medium the run started on"), std::string::npos) << refused.err;
  // Back to the original: the resume completes.
  fs::resize_file(target, 64ull << 20);
  EXPECT_EQ(run_ptsuite({"resume", out, "--allow-destructive", "--quiet"}).exit_code, 0);
}

TEST(RunCli, BadInputIsRefusedBeforeAnythingIsTouched) {
  test_support::ShmTempDir dir;
  const std::string out = dir.file("run");
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"run", "iops,fob", "--out", out},
        {"run", "ecw", "--out", out},  // PTS-E 1.1 only
        {"run", "iops", "--set", "nope=1", "--out", out},
        {"run", "iops", "--profile", "laptop", "--out", out},
        {"run", "iops", "--set", "iops.segment_duration=fast", "--out", out},
        {"run", "iops,iops", "--out", out},
        {"run", "iops", "--revision", "e1.1", "--profile", "client", "--out", out},
        {"run", "iops", "--engine", "bogus", "--out", out}}) {
    const ProcessResult r = run_ptsuite(bad);
    EXPECT_EQ(r.exit_code, 2) << bad[1] << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(out));
  }
}

// Part A.9: an --out that cannot be created is bad input like any other (exit 2, one line),
// found before the target is touched, leaving nothing behind.
TEST(RunCli, UncreatableOutIsBadInput) {
  for (const std::string out : {"/proc/ptsuite-run", "/proc/self/ptsuite/run"}) {
    const ProcessResult r = run_ptsuite({"run", "iops", "--out", out, "--quiet", "--scratch-size", "16MiB"});
    EXPECT_EQ(r.exit_code, 2) << out << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
  }
}

// Every run records its host preflight (results.json "preflight", one session per start) and
// itself in the results history; a history that cannot be written costs a warning, not the run.
TEST(RunCli, RecordsPreflightAndItselfInTheHistory) {
  test_support::ShmTempDir dir;
  const std::string db = dir.file("history.sqlite");
  const std::string out = dir.file("run");
  const ProcessResult r =
      run_ptsuite(args({"run", "throughput", "--out", out, "--scratch-size", "128MiB", "--db", db}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("history: added run 1 in SQLite " + db), std::string::npos) << r.err;
  const json results = load_json(out + "/results.json");
  ASSERT_EQ(results.at("preflight").size(), 1u);
  EXPECT_EQ(results.at("preflight")[0].at("session"), "start");
  EXPECT_EQ(results.at("preflight")[0].at("findings").size(), 8u);
  EXPECT_EQ(results.at("preflight")[0].at("errors"), 0);
  const ProcessResult list = run_ptsuite({"history", "list", "--db", db});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("throughput"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("1 run(s) in SQLite"), std::string::npos) << list.out;

  const std::string bad_db = "/proc/ptsuite-no-such-dir/history.sqlite";
  const std::string out2 = dir.file("run2");
  const ProcessResult r2 =
      run_ptsuite(args({"run", "throughput", "--out", out2, "--scratch-size", "128MiB", "--db", bad_db}));
  EXPECT_EQ(r2.exit_code, 0) << r2.err;
  EXPECT_NE(r2.err.find("ptsuite: warning: the run was not recorded in the history"), std::string::npos) << r2.err;
  EXPECT_NE(r2.err.find("ptsuite history add " + out2), std::string::npos) << r2.err;
}

// Another process holding the target open is a preflight warning: recorded and shown by
// `ptsuite preflight`, and a refusal with --strict-preflight before anything is written.
TEST(RunCli, StrictPreflightRefusesOnAWarning) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 64ull << 20);
  const std::string out = dir.file("run");
  std::ifstream held(target);  // this test process: another process than ptsuite
  const ProcessResult r =
      run_ptsuite(args({"run", "throughput", "--target", target, "--out", out, "--strict-preflight"}));
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  // The first warning in check order: other_openers here, unless this host has an earlier one.
  EXPECT_EQ(r.err.rfind("ptsuite: preflight warning: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("--strict-preflight"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));

  const ProcessResult p = run_ptsuite({"preflight", target, "throughput", "--quick"});
  EXPECT_EQ(p.exit_code, 1) << p.out << p.err;
  EXPECT_NE(p.out.find("warning  other_openers: "), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("WARN: 0 error(s), "), std::string::npos) << p.out;
  const ProcessResult pj = run_ptsuite({"preflight", target, "--json"});
  const json doc = json::parse(pj.out);
  EXPECT_GE(doc.at("warnings").get<int>(), 1);
  EXPECT_EQ(doc.at("findings")[3].at("check"), "other_openers");
  EXPECT_EQ(doc.at("findings")[3].at("severity"), "warning");
}

class RunCliLoop : public test_support::LoopDeviceFixture {};

// A block device without --allow-destructive: refused with exit 3 before the run directory or
// a single byte is written.
TEST_F(RunCliLoop, BlockDeviceWithoutConsentIsRefused) {
  test_support::LoopBackedDevice& loop = attach_loop(32ull << 20);
  {
    std::ofstream f(loop.backing_path, std::ios::binary | std::ios::in | std::ios::out);
    f << "ptsuite-canary";
  }
  const std::string out = temp_dir().file("run");
  const ProcessResult r = run_ptsuite({"run", "iops", "--target", loop.device.path(), "--out", out, "--quiet"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("--allow-destructive"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  std::ifstream f(loop.backing_path, std::ios::binary);
  std::string head(14, '\0');
  f.read(head.data(), 14);
  EXPECT_EQ(head, "ptsuite-canary");
}

}  // namespace
}  // namespace ptsuite
