// `ptsuite compare` as the reviews read it (report/compare.hpp): the --at steps, the delta tables
// per group and per drive with their sentence, the rankings, replay records of one capture
// ranked (and of different captures refused), write pressure as lines over the stepped rate with
// its unit, load curves with each drive, --series / --plot-targets, and the new overlays of PTS
// results (endurance percentiles over time, CBW histograms, preconditioning over time).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <ptsuite/report/compare.hpp>
#include <ptsuite/report/compare_render.hpp>
#include <ptsuite/results/comparison.hpp>
#include <ptsuite/results/latency_sweep.hpp>
#include <ptsuite/results/replay.hpp>
#include <ptsuite/util/output_file.hpp>

#include <ptsuite/util/error.hpp>
#include "support/test_outputs.hpp"

#include "support/json_schema.hpp"
#include "support/results_fixture.hpp"
#include "support/scenario_fixture.hpp"
#include "support/temp_dir.hpp"

namespace ptsuite::report::compare {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Every latency statistic of a document (objects named "latency_ns") x `factor`: a slower drive.
void scale_latencies(json& j, double factor) {
  if (j.is_object()) {
    for (auto& [key, value] : j.items()) {
      if (key == "latency_ns") {
        for (auto& [stat, v] : value.items()) {
          if (v.is_number()) v = v.get<double>() * factor;
          if (stat == "percentiles") {
            for (auto& [p, pv] : v.items()) pv = pv.get<double>() * factor;
          }
        }
      } else {
        scale_latencies(value, factor);
      }
    }
  } else if (j.is_array()) {
    for (json& e : j) scale_latencies(e, factor);
  }
}

results::ReplayDirectionLatency direction(double mean_ns, uint64_t max_ns, double iops) {
  const auto p = [mean_ns](double f) { return static_cast<uint64_t>(mean_ns * f); };
  return {1000, 4096000, iops, iops * 4096 / 1e6, mean_ns, mean_ns / 4, p(0.5), p(0.9), p(2), p(3), p(4), max_ns};
}

// A replay record of the three-step capture on a target whose IOs take `mean_ns` on average.
json replay_record(const std::string& capture_id, double mean_ns, double iops, const std::string& mode = "closed") {
  results::ReplayRecord r;
  r.capture_file = "db.ptcap";
  r.capture_id = capture_id;
  r.capture_device = "/dev/nvme0n1";
  r.target = "/dev/loop7";
  r.target_identity.model = "Drive " + std::to_string(static_cast<int>(mean_ns));
  r.mode = mode;
  r.step_ns = 200'000'000;
  r.stop_reason = "complete";
  for (int k = 0; k < 3; ++k) {
    results::ReplayStep s;
    s.start_ns = static_cast<uint64_t>(k) * r.step_ns;
    s.replayed.iops = iops * (1 + 0.1 * k);
    s.latency = results::ReplayLatency{};
    s.latency->read = direction(mean_ns * (1 + 0.2 * k), static_cast<uint64_t>(mean_ns * 10), iops);
    s.latency->combined = s.latency->read;
    r.steps.push_back(s);
  }
  r.latency = r.steps[1].latency;
  r.steps_fell_behind = mode == "open" && mean_ns > 100'000 ? 2 : 0;
  json j;
  to_json(j, r);
  return j;
}

class CompareRank : public ::testing::Test {
 protected:
  LoadedRun file_run(const std::string& name, const json& doc) {
    const fs::path file = fs::path(m_dir.path()) / (name + ".json");
    write_file_atomic(test_support::output_path(file.string()), doc.dump());
    return load_run(RunSource{file.string(), file.parent_path(), file, std::nullopt});
  }
  test_support::ShmTempDir m_dir{"ptsuite-compare-rank"};
};

TEST(CompareAt, StepsAreANumberWithTheUnitOfAnAxis) {
  const AtValue a = parse_at("800MB/s");
  EXPECT_DOUBLE_EQ(a.value, 800);
  EXPECT_EQ(a.unit, "MB/s");
  EXPECT_EQ(parse_at("800 mb/s").unit, "MB/s");
  EXPECT_EQ(parse_at("20000IOPS").unit, "IOPS");
  EXPECT_EQ(parse_at("50%").unit, "%");
  EXPECT_EQ(parse_at("0.4s").unit, "s");
  EXPECT_EQ(parse_at("10min").unit, "min");
  EXPECT_EQ(parse_at("12").unit, "");
  for (const char* bad : {"", "MB/s", "800 furlongs", "fast", "nan"}) {
    EXPECT_THROW((void)parse_at(bad), UsageError) << bad;
  }
}

// A delta table: the value at a step of exactly that x, else between the two steps around it,
// never beyond the last; per run's group and per drive; the sentence names the lead.
TEST(CompareAt, DeltaTablesTakeTheStepOrInterpolateAndNameTheLead) {
  results::ComparedGroup g;
  g.id = "wp-read-mean";
  g.title = "read average latency vs stepped rate";
  g.unit = "ns";
  g.kind = results::GroupKind::cells;
  g.x_axis = results::XAxis::linear;
  g.x_unit = "MB/s";
  g.cells = {{"700 MB/s", 700}, {"800 MB/s", 800}, {"900 MB/s", 900}};
  g.values = {{300'000, 412'000, 500'000}, {400'000, 520'000, std::nan("")}};
  g.drives = {{{0, "target 0", {300'000, 400'000, 490'000}, {}}, {1, "target 1", {300'000, 424'000, 510'000}, {}}},
              {{0, "target 0", {400'000, 515'000, 600'000}, {}}, {1, "target 1", {400'000, 525'000, 610'000}, {}}}};
  results::ComparedTest t{"wp", "wp (rate_steps)", {}, {g}};
  std::vector<results::ComparedRun> runs(2);
  runs[0].label = "Run 1";
  runs[1].label = "Run 2";
  const results::ComparedDelta d = delta_at(t, g, runs, parse_at("800MB/s"));
  ASSERT_EQ(d.rows.size(), 3u);  // the groups, then targets 0 and 1
  EXPECT_EQ(d.rows[0].scope, "group");
  EXPECT_DOUBLE_EQ(d.rows[0].values[0], 412'000);
  EXPECT_DOUBLE_EQ(d.rows[0].values[1], 520'000);
  EXPECT_EQ(d.rows[0].how, (std::vector<std::string>{"step", "step"}));
  EXPECT_DOUBLE_EQ(d.rows[0].delta[1], 108'000);
  EXPECT_NEAR(d.rows[0].delta_pct[1], 26.21, 0.01);
  EXPECT_TRUE(std::isnan(d.rows[0].delta[0]));
  EXPECT_EQ(d.rows[2].label, "target 1");
  EXPECT_DOUBLE_EQ(d.rows[2].delta[1], 101'000);
  EXPECT_EQ(d.better, "lower");
  EXPECT_EQ(d.summary,
            "At 800 MB/s Run 1 had a 108.0 \u00b5s lead over Run 2 (412.0 \u00b5s vs 520.0 \u00b5s) in read average "
            "latency vs stepped rate (lower is better).");

  const results::ComparedDelta between = delta_at(t, g, runs, parse_at("750 MB/s"));
  EXPECT_DOUBLE_EQ(between.rows[0].values[0], 356'000);
  EXPECT_EQ(between.rows[0].how[0], "interpolated");
  // Run 2 has no 900 MB/s step: beyond its last step is not extrapolated.
  const results::ComparedDelta beyond = delta_at(t, g, runs, parse_at("850MB/s"));
  EXPECT_EQ(beyond.rows[0].how[1], "missing");
  EXPECT_TRUE(std::isnan(beyond.rows[0].values[1]));
  EXPECT_TRUE(delta_at(t, g, runs, parse_at("800IOPS")).rows.empty()) << "another unit's axis";
  EXPECT_TRUE(delta_at(t, g, runs, parse_at("1000MB/s")).rows.empty()) << "no run reaches it";
}

TEST(CompareRanking, RunsAreOrderedByTheFirstFigureThenTheNext) {
  const auto v = [](const char* metric, bool lower, double value) {
    return RankValue{metric, metric, "", lower, value};
  };
  const results::Ranking r = rank_runs("replay", "Replay", "basis",
                                       {{v("behind", true, 2), v("mean", true, 10)},
                                        {v("behind", true, 0), v("mean", true, 50)},
                                        {v("behind", true, 0), v("mean", true, 20)},
                                        {v("behind", true, std::nan("")), v("mean", true, 1)}});
  EXPECT_EQ(r.order, (std::vector<uint32_t>{2, 1, 0, 3}));
  EXPECT_EQ(r.figures.at(0).better, "lower");
  EXPECT_EQ(r.figures.at(1).values, (std::vector<double>{10, 50, 20, 1}));
  const results::Ranking higher =
      rank_runs("r", "R", "b", {{v("iops", false, 1000)}, {v("iops", false, 3000)}, {v("iops", false, 2000)}});
  EXPECT_EQ(higher.order, (std::vector<uint32_t>{1, 2, 0}));
}

// Replays of one capture on two targets: ranked (the faster first whatever the order given),
// per-step response times overlaid as lines over the capture's time, the delta table at a step,
// the document valid; replays of another capture are refused unless --force.
TEST_F(CompareRank, ReplaysOfOneCaptureAreRankedAndOthersRefused) {
  const std::string id = "sha256:" + std::string(64, 'c');
  const std::vector<LoadedRun> runs = {file_run("slow", replay_record(id, 2'000'000, 500)),
                                       file_run("fast", replay_record(id, 40'000, 25'000))};
  Options o;
  o.at = {"0.2s"};
  const results::Comparison cmp = build_comparison(runs, o);
  EXPECT_EQ(cmp.results_kind, "ptsuite.replay");
  ASSERT_EQ(cmp.rankings.size(), 1u);
  EXPECT_EQ(cmp.rankings[0].order, (std::vector<uint32_t>{1, 0})) << "the faster target first";
  EXPECT_EQ(cmp.rankings[0].figures.at(0).metric, "iops");
  ASSERT_FALSE(cmp.deltas.empty());
  const json doc = results::to_json(cmp);
  EXPECT_EQ(validate_json(doc, embedded_schema("compare")), std::vector<std::string>{});
  bool found = false;
  for (const json& g : doc.at("tests")[0].at("groups")) {
    if (g.at("id") == "read-mean") {
      found = true;
      EXPECT_EQ(g.at("draw"), "lines");
      EXPECT_EQ(g.at("x_unit"), "s");
      EXPECT_DOUBLE_EQ(g.at("values")[0][1].get<double>(), 2'400'000);
    }
  }
  EXPECT_TRUE(found);
  const std::string html = render_compare_html(cmp);
  EXPECT_NE(html.find("Ranking of the runs"), std::string::npos);
  EXPECT_NE(html.find("Differences at the chosen steps"), std::string::npos);
  // A replay of another capture: refused, naming the capture id; --force overlays it.
  const std::vector<LoadedRun> other = {
      runs[0], file_run("other", replay_record("sha256:" + std::string(64, 'd'), 40'000, 25'000))};
  try {
    (void)build_comparison(other, {});
    ADD_FAILURE() << "replays of different captures were compared";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("capture (SHA-256 of its records)"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(build_comparison(other, {true}).workloads_differ);
  // Open loop: ranked by the steps that could not keep up first.
  const std::vector<LoadedRun> open = {file_run("o1", replay_record(id, 40'000, 1000, "open")),
                                       file_run("o2", replay_record(id, 2'000'000, 1000, "open"))};
  const results::Comparison oc = build_comparison(open, {});
  EXPECT_EQ(oc.rankings.at(0).figures.at(0).metric, "steps_fell_behind");
  EXPECT_EQ(oc.rankings.at(0).order, (std::vector<uint32_t>{0, 1}));
}

// Write pressure: the reads' statistics are lines over the stepped rate (MB/s, in the label and
// as the axis unit --at matches) with a table; at 800 MB/s the slower group's lead is quoted.
TEST(CompareReviews, WritePressureIsLinesOverTheRateWithADeltaTable) {
  const json a = test_support::scenario_write_pressure(85);
  json b = a;
  scale_latencies(b, 1.25);
  const ValueExtractor* scenario = find_extractor("ptsuite.scenario");
  ASSERT_NE(scenario, nullptr);
  std::vector<LoadedRun> runs;
  runs.push_back({{"a", "a", "a/results.json", {}},
                  std::string(64, 'a'),
                  scenario->read(std::make_shared<const json>(a), "a"),
                  "ptsuite.scenario"});
  runs.push_back({{"b", "b", "b/results.json", {}},
                  std::string(64, 'b'),
                  scenario->read(std::make_shared<const json>(b), "b"),
                  "ptsuite.scenario"});
  Options o;
  o.at = {"800MB/s"};
  const results::Comparison cmp = build_comparison(runs, o);
  const results::ComparedGroup* mean = nullptr;
  for (const results::ComparedGroup& g : cmp.tests.at(0).groups) {
    if (g.id == "pressure-read mean") mean = &g;
  }
  ASSERT_NE(mean, nullptr);
  EXPECT_EQ(mean->kind, results::GroupKind::cells);
  EXPECT_EQ(mean->x_axis, results::XAxis::linear);
  EXPECT_EQ(mean->x_unit, "MB/s");
  EXPECT_EQ(mean->x_label, "Stepped rate (MB/s)");
  EXPECT_TRUE(mean->lines);
  ASSERT_EQ(mean->cells.size(), 85u);
  EXPECT_DOUBLE_EQ(mean->cells[79].x, 800);
  const auto delta = std::find_if(cmp.deltas.begin(), cmp.deltas.end(),
                                  [](const results::ComparedDelta& d) { return d.group == "pressure-read mean"; });
  ASSERT_NE(delta, cmp.deltas.end());
  EXPECT_EQ(delta->rows.at(0).how, (std::vector<std::string>{"step", "step"}));
  EXPECT_NEAR(delta->rows.at(0).delta_pct.at(1), 25.0, 0.01);
  EXPECT_NE(delta->summary.find("At 800 MB/s Run 1 had a "), std::string::npos) << delta->summary;
  const std::string html = render_compare_html(cmp);
  EXPECT_NE(html.find("Stepped rate (MB/s)"), std::string::npos);
  EXPECT_EQ(html.find(">Stepped rate<"), std::string::npos) << "a rate without its unit";
  EXPECT_NE(html.find(delta->summary.substr(0, 30)), std::string::npos) << "the sentence is on the page";
  EXPECT_NE(html.find("class=\"series\""), std::string::npos);
  EXPECT_EQ(validate_json(results::to_json(cmp), embedded_schema("compare")), std::vector<std::string>{});
  // An --at no group takes is refused (a typo must not silently drop the table asked for).
  o.at = {"800IOPS"};
  EXPECT_THROW((void)build_comparison(runs, o), UsageError);
}

// Load curves on several drives: each drive's own curve is in the document, the charts draw them
// per --series / --plot-targets, and a delta at an IOPS interpolates per group and per drive.
TEST(CompareReviews, LoadCurvesCarryEachDriveAndDrawWhatSeriesAsks) {
  const json a = test_support::scenario_load_curves(1, 3);
  json b = a;
  scale_latencies(b, 0.8);
  const ValueExtractor* scenario = find_extractor("ptsuite.scenario");
  std::vector<LoadedRun> runs;
  for (const json* doc : {&a, static_cast<const json*>(&b)}) {
    runs.push_back({{"r", "r", "r/results.json", {}},
                    std::string(64, 'c'),
                    scenario->read(std::make_shared<const json>(*doc), "r"),
                    "ptsuite.scenario"});
  }
  Options o;
  o.at = {"60000IOPS"};
  o.report.series = "drives";
  o.report.plot_targets = {1};
  const results::Comparison cmp = build_comparison(runs, o);
  const results::ComparedGroup* curve = nullptr;
  for (const results::ComparedTest& t : cmp.tests) {
    for (const results::ComparedGroup& g : t.groups) {
      if (g.kind == results::GroupKind::series && g.id.find("-curve-mean") != std::string::npos) curve = &g;
    }
  }
  ASSERT_NE(curve, nullptr);
  EXPECT_TRUE(curve->lines);
  ASSERT_EQ(curve->drives.size(), 2u);
  ASSERT_EQ(curve->drives[0].size(), 3u);
  EXPECT_EQ(curve->drives[0][2].name, "target 2");
  EXPECT_FALSE(curve->drives[0][2].points.empty());
  ASSERT_FALSE(cmp.deltas.empty());
  EXPECT_EQ(cmp.deltas[0].rows.size(), 4u) << "the groups and targets 0, 1, 2";
  EXPECT_EQ(cmp.deltas[0].rows[0].how[0], "interpolated");
  const std::string html = render_compare_html(cmp);
  EXPECT_NE(html.find("data-series=\"Run 1 \u00b7 target 1\""), std::string::npos);
  EXPECT_EQ(html.find("data-series=\"Run 1 \u00b7 target 2\""), std::string::npos) << "not in --plot-targets";
  EXPECT_EQ(validate_json(results::to_json(cmp), embedded_schema("compare")), std::vector<std::string>{});
  o.report.plot_targets = {7};
  EXPECT_THROW((void)build_comparison(runs, o), UsageError);
  o.report.plot_targets = {};
  o.report.series = "everything";
  EXPECT_THROW((void)build_comparison(runs, o), UsageError);
}

// PTS results: endurance (WSAT) percentiles over time, the CBW operating points' histograms and
// the preconditioning Rounds over time overlay as lines.
TEST(CompareReviews, PtsRunsOverlayPercentilesOverTimeHistogramsAndPreconditioning) {
  const json& quick = test_support::load_results_fixture("quick");
  const ValueExtractor* ex = find_extractor("ptsuite.results");
  std::vector<LoadedRun> runs;
  for (int i = 0; i < 2; ++i) {
    runs.push_back({{"q", "q", "q/results.json", {}},
                    std::string(64, 'd'),
                    ex->read(std::make_shared<const json>(quick), "q"),
                    "ptsuite.results"});
  }
  const results::Comparison cmp = build_comparison(runs, {});
  const auto find = [&cmp](const std::string& test, const std::string& prefix) -> const results::ComparedGroup* {
    for (const results::ComparedTest& t : cmp.tests) {
      for (const results::ComparedGroup& g : t.groups) {
        if (t.id == test && g.id.rfind(prefix, 0) == 0) return &g;
      }
    }
    return nullptr;
  };
  const results::ComparedGroup* p999 = find("wsat", "wsat-latency-p99_9-time");
  ASSERT_NE(p999, nullptr);
  EXPECT_TRUE(p999->lines);
  EXPECT_FALSE(p999->series.at(0).empty());
  const results::ComparedGroup* histogram = find("cbw", "max-iops-histogram");
  ASSERT_NE(histogram, nullptr);
  EXPECT_EQ(histogram->x_axis, results::XAxis::log);
  double share = 0;
  for (const results::ComparedPoint& p : histogram->series.at(0)) share += p.y;
  EXPECT_NEAR(share, 100.0, 1e-6) << "every IO in one bar";
  const results::ComparedGroup* precondition = find("throughput", "precondition-");
  ASSERT_NE(precondition, nullptr);
  EXPECT_EQ(precondition->x_unit, "min");
  EXPECT_TRUE(precondition->lines);
  ASSERT_GE(precondition->series.at(0).size(), 2u);
  EXPECT_LT(precondition->series[0][0].x, precondition->series[0][1].x) << "Rounds over time";
  EXPECT_EQ(validate_json(results::to_json(cmp), embedded_schema("compare")), std::vector<std::string>{});
}

}  // namespace
}  // namespace ptsuite::report::compare

namespace ptsuite::report::compare {
namespace {

// The latency sweep overlays every statistic per cell and, per R/W mix, block size and thread
// count, the curves of ART, 99 % and 99.9 % vs IOPS over the queue depths (lines).
TEST(CompareReviews, LatencySweepOverlaysItsPercentilesAndItsCurvesPerThreadCount) {
  json doc = test_support::load_results_fixture("steady");
  json sweep = test_support::test_of(doc, "latency");
  sweep["id"] = "latency-sweep";
  sweep.erase("matrix");
  results::LatencySweepBlock b;
  b.rw_mixes = {"0/100"};
  b.block_sizes_bytes = {4096};
  b.thread_counts = {1, 2};
  b.queue_depths = {1, 8};
  for (const uint32_t tc : b.thread_counts) {
    for (const uint32_t qd : b.queue_depths) {
      results::SweepCell c;
      c.rw_mix = "0/100";
      c.block_size_bytes = 4096;
      c.threads = tc;
      c.queue_depth = qd;
      c.label = fmt::format("RND 4KiB 0/100 TC {} QD {}", tc, qd);
      c.iops = 10'000.0 * tc * qd;
      c.latency = {40'000.0 * qd, 90'000u * qd, 120'000u * qd, 150'000u * qd, 160'000u * qd, 200'000u * qd};
      b.cells.push_back(c);
    }
  }
  json block;
  to_json(block, b);
  sweep["sweep"] = block;
  doc["tests"].push_back(sweep);
  const ValueExtractor* ex = find_extractor("ptsuite.results");
  std::vector<LoadedRun> runs;
  for (int i = 0; i < 2; ++i) {
    runs.push_back({{"s", "s", "s/results.json", {}},
                    std::string(64, 'e'),
                    ex->read(std::make_shared<const json>(doc), "s"),
                    "ptsuite.results"});
  }
  const results::Comparison cmp = build_comparison(runs, {});
  const results::ComparedTest* t = nullptr;
  for (const results::ComparedTest& x : cmp.tests) {
    if (x.id == "latency-sweep") t = &x;
  }
  ASSERT_NE(t, nullptr);
  const auto group = [t](const std::string& id) -> const results::ComparedGroup& {
    for (const results::ComparedGroup& g : t->groups) {
      if (g.id == id) return g;
    }
    throw std::runtime_error("no group " + id);
  };
  const results::ComparedGroup& p999 = group("sweep-p99_9");
  ASSERT_EQ(p999.cells.size(), 4u);
  EXPECT_DOUBLE_EQ(p999.values.at(0).at(3), 120'000.0 * 8);
  const results::ComparedGroup& curve = group("sweep-curve-0-100-4096-tc2-p99");
  EXPECT_TRUE(curve.lines);
  EXPECT_EQ(curve.x_unit, "IOPS");
  ASSERT_EQ(curve.series.at(0).size(), 2u);
  EXPECT_DOUBLE_EQ(curve.series[0][1].x, 160'000);  // TC 2 x QD 8 x 10,000
  EXPECT_DOUBLE_EQ(curve.series[0][1].y, 90'000.0 * 8);
  EXPECT_EQ(validate_json(results::to_json(cmp), embedded_schema("compare")), std::vector<std::string>{});
}

}  // namespace
}  // namespace ptsuite::report::compare
