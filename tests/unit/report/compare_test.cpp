// `ptsuite compare`'s library (report/compare.hpp, compare_render.hpp) on the checked-in
// results fixtures: a second drive is the same document with another model / serial and scaled
// IOPS; mismatched workloads are the same document with one workload field changed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <regex>
#include <string>
#include <vector>

#include <ptsuite/report/compare.hpp>
#include <ptsuite/report/compare_render.hpp>
#include <ptsuite/results/comparison.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/sha256.hpp>

#include "support/json_schema.hpp"
#include "support/results_fixture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"

namespace ptsuite::report::compare {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr double k_scale = 1.25;

// The fixture as another drive: new model and serial, every IOPS value x k_scale.
json second_drive(json doc) {
  doc["device"]["model"] = "FX-7680 Fixture NVMe SSD";
  doc["device"]["serial"] = "FX0000000002";
  for (json& test : doc["tests"]) {
    if (test.contains("matrix")) {
      for (json& row : test["matrix"]["iops"]) {
        for (json& v : row) {
          v = v.get<double>() * k_scale;
        }
      }
    }
    if (test.contains("wsat")) {
      for (json& s : test["wsat"]["samples"]) {
        s["iops"] = s["iops"].get<double>() * k_scale;
      }
    }
  }
  return doc;
}

json& test_of(json& doc, const std::string& id) {
  for (json& t : doc["tests"]) {
    if (t["id"] == id) {
      return t;
    }
  }
  throw std::runtime_error("no test " + id);
}

const json& test_in(const json& doc, const std::string& id) {
  for (const json& t : doc.at("tests")) {
    if (t.at("id") == id) {
      return t;
    }
  }
  throw std::runtime_error("no test " + id);
}

const json& group_of(const json& cmp, const std::string& test, const std::string& group) {
  for (const json& t : cmp.at("tests")) {
    for (const json& g : t.at("groups")) {
      if (t.at("id") == test && g.at("id") == group) {
        return g;
      }
    }
  }
  throw std::runtime_error("no group " + test + "/" + group);
}

class Compare : public ::testing::Test {
 protected:
  // A run directory holding `doc` as results.json, loaded as compare loads it.
  LoadedRun run(const std::string& name, const json& doc) {
    const fs::path dir = fs::path(m_dir.path()) / name;
    fs::create_directories(dir);
    test_support::write_file(dir / "results.json", doc.dump());
    return load_run(RunSource{dir.string(), dir, dir / "results.json", std::nullopt});
  }
  std::vector<LoadedRun> pair(const json& a, const json& b) { return {run("a", a), run("b", b)}; }
  static std::string refusal(const std::vector<LoadedRun>& runs) {
    try {
      (void)build_comparison(runs, {});
    } catch (const UsageError& e) {
      EXPECT_EQ(e.code(), ExitCode::usage);
      return e.what();
    }
    ADD_FAILURE() << "not refused";
    return {};
  }

  const json& steady = test_support::load_results_fixture("steady");
  test_support::ShmTempDir m_dir{"ptsuite-compare"};
};

TEST_F(Compare, TwoDrivesAreOverlaidTestByTest) {
  const std::vector<LoadedRun> runs = pair(steady, second_drive(steady));
  const json cmp = results::to_json(build_comparison(runs, {}));
  EXPECT_EQ(cmp.at("kind"), "ptsuite.compare");
  EXPECT_EQ(cmp.at("results_kind"), "ptsuite.results");
  EXPECT_EQ(cmp.at("compared_tests"), json({"iops", "latency"}));
  EXPECT_FALSE(cmp.at("workloads_differ").get<bool>());
  ASSERT_EQ(cmp.at("runs").size(), 2u);
  EXPECT_EQ(cmp["runs"][0]["identity"]["serial"], "FX0000000001");
  EXPECT_EQ(cmp["runs"][1]["identity"]["serial"], "FX0000000002");
  EXPECT_EQ(cmp["runs"][1]["identity"]["model"], "FX-7680 Fixture NVMe SSD");
  EXPECT_EQ(cmp["runs"][0]["results_sha256"], sha256_file_hex(runs[0].source.results_path));
  EXPECT_NE(cmp["runs"][0]["results_sha256"], cmp["runs"][1]["results_sha256"]);

  // IOPS: one group per R/W mix, the block sizes as cells, run 2 = 1.25 x run 1.
  const json& mix = group_of(cmp, "iops", "iops-65-35");
  EXPECT_EQ(mix.at("x_axis"), "block_size");
  ASSERT_EQ(mix.at("cells").size(), 8u);
  EXPECT_EQ(mix["cells"][6]["label"], "4KiB");
  EXPECT_EQ(mix["cells"][6]["x"], 4096.0);
  const json& matrix = test_in(steady, "iops").at("matrix");
  EXPECT_DOUBLE_EQ(mix["values"][0][6].get<double>(), matrix["iops"][6][2].get<double>());
  EXPECT_DOUBLE_EQ(mix["values"][1][6].get<double>(), matrix["iops"][6][2].get<double>() * k_scale);
  EXPECT_TRUE(mix["delta_pct"][0][6].is_null());
  EXPECT_NEAR(mix["delta_pct"][1][6].get<double>(), 25.0, 1e-9);
  size_t iops_groups = 0;
  size_t preconditioning = 0;
  for (const json& g : cmp["tests"][0]["groups"]) {
    const std::string id = g.at("id");
    iops_groups += id.rfind("iops-", 0) == 0 ? 1 : 0;
    preconditioning += id.rfind("precondition-", 0) == 0 ? 1 : 0;
  }
  EXPECT_EQ(iops_groups, 7u);  // one per R/W mix
  EXPECT_GE(preconditioning, 1u) << "the steady-state Rounds over time";

  // Latency: ART, 99.999 % and MRT per (mix, block size) cell, unchanged between the drives.
  const json& art = group_of(cmp, "latency", "latency-latency_mean_ns");
  ASSERT_EQ(art.at("cells").size(), 9u);
  EXPECT_EQ(art["cells"][0]["label"], "100/0 8KiB");
  EXPECT_EQ(art["values"][0], art["values"][1]);
  EXPECT_NO_THROW((void)group_of(cmp, "latency", "latency-latency_max_ns"));
  EXPECT_NO_THROW((void)group_of(cmp, "latency", "latency-latency_p99_999_ns"));
}

TEST_F(Compare, SettingsThatDifferAreListedWithoutRefusing) {
  json other = second_drive(steady);
  other["config"]["engine"] = "io_uring";
  other["tool"]["version"] = "0.2.0";
  for (json& s : other["settings"]) {
    if (s["name"] == "iops.segment_duration") {
      s["value"] = "30s";
    }
  }
  const json cmp = results::to_json(build_comparison(pair(steady, other), {}));
  std::vector<std::string> fields;
  for (const json& d : cmp.at("differences")) {
    EXPECT_FALSE(d.at("workload").get<bool>()) << d.dump();
    fields.push_back(d.at("field").get<std::string>());
  }
  EXPECT_EQ(fields, (std::vector<std::string>{"engine", "ptsuite version", "iops.segment_duration"}));
  EXPECT_EQ(cmp["differences"][0]["values"], json({"libaio", "io_uring"}));
}

TEST_F(Compare, DifferentToioIsRefusedNamingBothRunsAndTheField) {
  json other = second_drive(steady);
  test_of(other, "iops")["toio"]["threads"] = 8;
  const std::string why = refusal(pair(steady, other));
  EXPECT_NE(why.find("run 1 ("), std::string::npos) << why;
  EXPECT_NE(why.find("run 2 ("), std::string::npos) << why;
  EXPECT_NE(why.find("iops TOIO is TC 4 x QD 32 vs TC 8 x QD 32"), std::string::npos) << why;
  EXPECT_NE(why.find("--force"), std::string::npos) << why;
  EXPECT_EQ(why.find('\n'), std::string::npos);
}

TEST_F(Compare, EachWorkloadFieldIsChecked) {
  const auto mutate = [&](const std::function<void(json&)>& change) {
    json other = second_drive(steady);
    change(other);
    return refusal(pair(steady, other));
  };
  EXPECT_NE(mutate([](json& d) {
              test_of(d, "latency")["phases"][0]["round_template"][0]["block_sizes"][0]["bytes"] = 2048;
            }).find("latency block sizes"),
            std::string::npos);
  EXPECT_NE(mutate([](json& d) {
              test_of(d, "latency")["phases"][0]["round_template"][0]["rw_mix"] = "90/10";
            }).find("latency R/W mixes"),
            std::string::npos);
  EXPECT_NE(mutate([](json& d) { test_of(d, "iops")["active_range_pct"] = 50.0; }).find("iops active range (%)"),
            std::string::npos);
  EXPECT_NE(mutate([](json& d) { test_of(d, "iops")["data_pattern"] = "zeros"; }).find("iops data pattern"),
            std::string::npos);
  EXPECT_NE(mutate([](json& d) { d["spec"]["revision"] = "e1.1"; }).find("spec revision is 2.0.2 vs e1.1"),
            std::string::npos);
  EXPECT_NE(mutate([](json& d) { d["spec"]["profile"] = "client"; }).find("profile is enterprise vs client"),
            std::string::npos);
}

TEST_F(Compare, NoTestInCommonIsRefused) {
  const std::string why = refusal(pair(steady, test_support::load_results_fixture("quick")));
  EXPECT_NE(why.find("tests is iops, latency vs throughput, wsat, cbw, hir, xsr"), std::string::npos) << why;
}

TEST_F(Compare, TestsNotInEveryRunAreSkippedAndListed) {
  json other = second_drive(steady);
  other["tests"].erase(1);  // latency
  const json cmp = results::to_json(build_comparison(pair(steady, other), {}));
  EXPECT_EQ(cmp.at("compared_tests"), json({"iops"}));
  EXPECT_EQ(cmp.at("tests_not_in_every_run"), json::parse(R"([{"id":"latency","run":"Run 1"}])"));
  EXPECT_EQ(validate_json(cmp, embedded_schema("compare")), std::vector<std::string>{});
  EXPECT_EQ(cmp["differences"][0]["field"], "tests");
  EXPECT_FALSE(cmp["differences"][0]["workload"].get<bool>());
}

TEST_F(Compare, ForceOverlaysAndMarksEveryDifference) {
  json other = second_drive(steady);
  test_of(other, "iops")["toio"]["queue_depth"] = 16;
  test_of(other, "iops")["data_pattern"] = "zeros";
  const json cmp = results::to_json(build_comparison(pair(steady, other), {true}));
  EXPECT_TRUE(cmp.at("forced").get<bool>());
  EXPECT_TRUE(cmp.at("workloads_differ").get<bool>());
  EXPECT_EQ(cmp["tests"][0]["workload_differences"], json({"TOIO", "data pattern"}));
  EXPECT_EQ(cmp["tests"][1]["workload_differences"], json::array());
  const std::string html = render_compare_html(results::read_comparison(cmp));
  EXPECT_NE(html.find("Workloads differ: these runs did not run the same workload"), std::string::npos);
  EXPECT_NE(html.find("iops TOIO: Run 1 = TC 4 x QD 32; Run 2 = TC 4 x QD 16"), std::string::npos);
  EXPECT_NE(html.find("Workloads differ for this test (TOIO, data pattern)"), std::string::npos);
}

TEST_F(Compare, BadInputIsRefused) {
  EXPECT_THROW((void)build_comparison({run("a", steady)}, {}), UsageError);
  json other = steady;
  other["kind"] = "ptsuite.workload";
  EXPECT_THROW((void)run("other", other), UsageError);
  other["kind"] = "ptsuite.results";
  other["schema_version"] = 99;
  EXPECT_THROW((void)run("newer", other), UsageError);
  const fs::path dir = fs::path(m_dir.path()) / "broken";
  fs::create_directories(dir);
  test_support::write_file(dir / "results.json", "{not json");
  EXPECT_THROW((void)load_run({"broken", dir, dir / "results.json", std::nullopt}), UsageError);
  EXPECT_THROW((void)load_run({"gone", dir, dir / "missing.json", std::nullopt}), UsageError);
}

TEST_F(Compare, ExtractorsAreFoundByResultsKind) {
  ASSERT_NE(find_extractor("ptsuite.results"), nullptr);
  EXPECT_EQ(find_extractor("ptsuite.results")->kind(), "ptsuite.results");
  ASSERT_NE(find_extractor("ptsuite.scenario"), nullptr);
  EXPECT_EQ(find_extractor("ptsuite.scenario")->kind(), "ptsuite.scenario");
  EXPECT_EQ(find_extractor("ptsuite.workload"), nullptr);
  EXPECT_EQ(extractor_kinds(),
            (std::vector<std::string>{"ptsuite.results", "ptsuite.scenario", "ptsuite.app_run", "ptsuite.replay"}));
}

TEST_F(Compare, EveryOtherTestHasGroups) {
  const json& quick = test_support::load_results_fixture("quick");
  const json cmp = results::to_json(build_comparison(pair(quick, second_drive(quick)), {}));
  const json& read = group_of(cmp, "throughput", "throughput-read_mb_per_s");
  EXPECT_EQ(read.at("cells").size(), 2u);
  const json& wsat = group_of(cmp, "wsat", "wsat-iops-tgbw");
  ASSERT_EQ(wsat.at("series").size(), 2u);
  const size_t samples = test_in(quick, "wsat").at("wsat").at("samples").size();
  EXPECT_EQ(wsat["series"][0].size(), samples);
  EXPECT_DOUBLE_EQ(wsat["series"][1][0]["y"].get<double>(), wsat["series"][0][0]["y"].get<double>() * k_scale);
  EXPECT_EQ(group_of(cmp, "cbw", "demand-op-iops").at("cells").size(), 3u);
  EXPECT_EQ(group_of(cmp, "cbw", "demand-intensity").at("series")[0].size(), 49u);  // 7 TC x 7 QD
  EXPECT_FALSE(group_of(cmp, "xsr", "xsr-mbps-time").at("series")[0].empty());
  EXPECT_FALSE(group_of(cmp, "hir", "hir-iops-time").at("series")[0].empty());
  EXPECT_FALSE(group_of(cmp, "hir", "window-precondition-iops").at("cells").empty());
}

TEST_F(Compare, HtmlHasOneSeriesPerDriveAndCsvOneRowPerCellAndRun) {
  const results::Comparison doc = build_comparison(pair(steady, second_drive(steady)), {});
  const json cmp = results::to_json(doc);
  const std::string html = render_compare_html(doc);
  const std::regex series(R"(<g class="series" data-series="Run ([12]))");
  size_t run1 = 0;
  size_t run2 = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), series); it != std::sregex_iterator(); ++it) {
    ((*it)[1] == "1" ? run1 : run2) += 1;
  }
  size_t groups = 0;
  for (const json& t : cmp["tests"]) {
    groups += t["groups"].size();
  }
  EXPECT_EQ(run1, groups);  // every chart: one series per run
  EXPECT_EQ(run2, groups);
  EXPECT_NE(html.find("FX-7680 Fixture NVMe SSD (FX0000000002)"), std::string::npos);
  EXPECT_NE(html.find("Settings That Differ Between Runs"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);

  const std::string csv = render_compare_csv(doc);
  size_t rows = 0;
  for (const json& t : cmp["tests"]) {
    for (const json& g : t["groups"]) {
      if (g["kind"] == "cells") {
        rows += g["cells"].size() * 2;
      } else {
        for (const json& run : g["series"]) rows += run.size();  // a series: one row per point
      }
    }
  }
  EXPECT_EQ(static_cast<size_t>(std::count(csv.begin(), csv.end(), '\n')), rows + 1);
  EXPECT_EQ(csv.substr(0, csv.find('\r')), "test,group,metric,unit,cell,x,run,model,serial,value,delta_pct,target");
  EXPECT_NE(csv.find("iops,iops-65-35,iops,IOPS,4KiB,4096,Run 2,FX-7680 Fixture NVMe SSD,FX0000000002,"),
            std::string::npos);
}

// compare.json has one writer and one reader (results/comparison.hpp): what is written reads
// back to the same document, byte for byte, for cells and series groups, forced differences,
// unknown identity members (the loop device of the quick fixture) and tests not in every run.
TEST_F(Compare, DocumentReadsBackByteForByte) {
  json other = second_drive(steady);
  test_of(other, "iops")["toio"]["queue_depth"] = 16;
  other["tests"].erase(1);  // latency
  const json& quick = test_support::load_results_fixture("quick");
  for (const auto& runs : {pair(steady, other), pair(quick, second_drive(quick))}) {
    const json written = results::to_json(build_comparison(runs, {true}));
    EXPECT_EQ(validate_json(written, embedded_schema("compare")), std::vector<std::string>{});
    EXPECT_EQ(results::to_json(results::read_comparison(written)).dump(), written.dump());
  }
  const results::Comparison loop = build_comparison(pair(quick, second_drive(quick)), {});
  EXPECT_FALSE(loop.runs[0].identity.vendor.has_value());
  EXPECT_TRUE(results::to_json(loop).at("runs")[0].at("identity").at("vendor").is_null());
  EXPECT_EQ(loop.runs[0].identity.capacity_bytes, 8589934592u);
  EXPECT_EQ(loop.runs[0].identity.serial, std::nullopt);
  EXPECT_EQ(loop.runs[1].identity.serial, "FX0000000002");
  EXPECT_EQ(loop.runs[0].started_utc, std::string(quick.at("run").at("started_utc")));
}

TEST_F(Compare, PartialOrMistypedDocumentReadsWithDefaults) {
  const results::Comparison empty = results::read_comparison(json::parse(R"({"runs": [{"identity": 3}], "tests": 7})"));
  ASSERT_EQ(empty.runs.size(), 1u);
  EXPECT_EQ(empty.runs[0].identity.model, std::nullopt);
  EXPECT_EQ(empty.runs[0].history_id, std::nullopt);
  EXPECT_TRUE(empty.tests.empty());
  const results::Comparison group = results::read_comparison(json::parse(
      R"({"tests": [{"groups": [{"kind": "odd", "x_axis": "block_size", "cells": [{"label": "4KiB", "x": "no"}],
          "values": [[1, null]], "y_scale": "log"}]}]})"));
  const results::ComparedGroup& g = group.tests.at(0).groups.at(0);
  EXPECT_EQ(g.kind, results::GroupKind::cells);
  EXPECT_EQ(g.x_axis, results::XAxis::block_size);
  EXPECT_TRUE(g.y_log);
  EXPECT_TRUE(std::isnan(g.cells.at(0).x));
  EXPECT_DOUBLE_EQ(g.values.at(0).at(0), 1.0);
  EXPECT_TRUE(std::isnan(g.values.at(0).at(1)));
  EXPECT_FALSE(render_compare_html(group).empty());  // a partial document still renders
  EXPECT_EQ(render_compare_csv(group), "test,group,metric,unit,cell,x,run,model,serial,value,delta_pct,target\r\n");
}

}  // namespace
}  // namespace ptsuite::report::compare
