// CBW / DIRTH operating-point rules as named [U] settings: the MidIOPS rule (issue 37 item 5) and
// the MaxIOPS rule (issue 40 item 8): the default as before, the alternative on request, and the
// rule disclosed in the record and on the CBW page.
#include <gtest/gtest.h>

#include <cmath>

#include <ptsuite/pts/compliance.hpp>
#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/report/html_report.hpp>
#include <ptsuite/results/demand_sweep.hpp>
#include <ptsuite/results/run_document.hpp>
#include <ptsuite/util/error.hpp>

#include "support/fake_step_executor.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

// A grid where the two rules part: IOPS = min(2000, 100 x sqrt(TOIO)); every TOIO keeps ART at
// 1 ms except TOIO 96 and TOIO 1024 (6 ms, above the 5 ms ceiling). MaxIOPS is TC 32 / QD 16
// (2000, the first at the top in grid order), MinIOPS TC 1 / QD 1 (100): (Max + Min) / 2 =
// 1050. Over the whole grid the closest is TOIO 96 (979.8, first TC 16 / QD 6); among the TOIOs
// below the ceiling (ADATA) it is TOIO 128 (1131.4, first TC 32 / QD 4).
json run_cbw_grid(const std::string& test, const std::vector<std::pair<std::string, std::string>>& sets) {
  const SpecContext spec{"2.0.2", "enterprise"};
  const Settings settings = Settings::build(DefinitionSet::embedded(), spec, {}, sets);
  testing::FakeExecutor exec(
      [](const StepId&, const SegmentSpec& s) {
        return std::min(2000.0, 100.0 * std::sqrt(static_cast<double>(s.threads * s.queue_depth)));
      },
      [](const StepId&, const SegmentSpec& s) -> uint64_t {
        const uint32_t toio = s.threads * s.queue_depth;
        return toio == 96 || toio == 1024 ? 6'000'000 : 1'000'000;
      });
  exec.purge_result = {{"method", "nvme-format"}, {"pts_compliant", true}, {"outcome", "succeeded"}};
  TestContext ctx{DefinitionSet::embedded(), spec, settings, exec, {1ull << 30, 512}};
  return make_test(test)->run(ctx);
}

const json& point(const json& record, const std::string& block, const std::string& name) {
  for (const json& p : record.at(block).at("operating_points")) {
    if (p.at("name") == name) return p;
  }
  throw std::runtime_error("no operating point " + name);
}

TEST(MidIopsRule, TheDefaultIsTheMidpointOfMaxAndMinOverEveryToio) {
  const json rec = run_cbw_grid("cbw", {});
  EXPECT_EQ(point(rec, "cbw", "max").at("threads"), 32);
  EXPECT_EQ(point(rec, "cbw", "max").at("queue_depth"), 16);
  const json& mid = point(rec, "cbw", "mid");
  EXPECT_EQ(mid.at("threads"), 16);
  EXPECT_EQ(mid.at("queue_depth"), 6);
  EXPECT_EQ(mid.at("rule"), "IOPS closest to (MaxIOPS + MinIOPS) / 2 = 1050.0");
}

TEST(MidIopsRule, AdatasVariantTakesOnlyTheToiosBelowTheCeiling) {
  for (const char* test : {"cbw", "dirth"}) {
    const std::string setting = std::string(test) + ".mid_iops_rule";
    const json rec = run_cbw_grid(test, {{setting, "eligible-range-midpoint"}});
    const json& mid = point(rec, test, "mid");
    EXPECT_EQ(mid.at("threads"), 32) << test;
    EXPECT_EQ(mid.at("queue_depth"), 4) << test;
    EXPECT_EQ(mid.at("rule"),
              "IOPS closest to (highest + lowest IOPS of the 46 TOIOs with ART below 5 ms) / 2 = 1050.0 "
              "(mid_iops_rule=eligible-range-midpoint, ADATA)")
        << test;
    bool disclosed = false;
    for (const json& p : rec.at("parameters")) {
      disclosed = disclosed || (p.value("setting", "") == setting && p.at("value") == "eligible-range-midpoint" &&
                                p.at("tag") == "U");
    }
    EXPECT_TRUE(disclosed) << test;
  }
}

TEST(MidIopsRule, IsANamedUnverifiedSettingDisclosedOnTheCbwPage) {
  const Settings s = Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {}, {});
  const SettingRecord& r = s.record("cbw.mid_iops_rule");
  EXPECT_EQ(r.default_value, "max-min-midpoint");
  EXPECT_EQ(r.provenance.tag, Confidence::unverified);
  EXPECT_NE(r.provenance.source.find("ADATA"), std::string::npos);
  const auto median = [] {
    return Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {}, {{"cbw.mid_iops_rule", "median"}});
  };
  EXPECT_THROW(median(), UsageError);
  // Disclosed as a changed [U] setting, and named on the CBW page's header.
  json rec = run_cbw_grid("cbw", {{"cbw.mid_iops_rule", "eligible-range-midpoint"}});
  const json applied{{"applicable", true}, {"enabled", false}, {"note", ""}};
  rec["write_cache"] = {{"requested_enabled", false}, {"original", applied}, {"applied", applied}};
  rec["status"] = "complete";
  const Settings changed = Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {},
                                           {{"cbw.mid_iops_rule", "eligible-range-midpoint"}});
  const ComplianceVerdict v = evaluate_test_compliance(rec, {DefinitionSet::embedded(), changed, "libaio"});
  bool listed = false;
  for (const ClauseVerdict& c : v.clauses) {
    listed = listed || (c.clause == "settings" && c.status == ClauseStatus::disclosed &&
                        c.detail.find("cbw.mid_iops_rule = eligible-range-midpoint") != std::string::npos);
  }
  EXPECT_TRUE(listed) << json(v).dump(1);
  rec["compliance"] = v;
  const std::string html = report::render_html(results::read_run_document(json{{"tests", json::array({rec})}}));
  EXPECT_NE(html.find("MidIOPS rule"), std::string::npos);
  EXPECT_NE(html.find("IOPS closest to (highest + lowest IOPS of the TOIOs with ART below the ceiling) / 2 "
                      "(cbw.mid_iops_rule=eligible-range-midpoint, ADATA&#39;s variant)"),
            std::string::npos)
      << html.substr(html.find("MidIOPS rule"), 400);
}

// The fixture's TOIO 1024 (TC 32 / QD 32) reaches the top IOPS (2000) at 6 ms ART: the default
// art-ceiling rule passes it over for TC 32 / QD 16 (2000 at 1 ms); highest-iops takes it, and
// MidIOPS (the default rule) follows from either Max.
TEST(MaxIopsRule, TheCeilingRuleAndTheHighestIopsRulePartOnTheFixture) {
  for (const char* test : {"cbw", "dirth"}) {
    const json by_ceiling = run_cbw_grid(test, {});
    EXPECT_EQ(point(by_ceiling, test, "max").at("queue_depth"), 16) << test;
    EXPECT_EQ(point(by_ceiling, test, "max").at("rule"), "highest IOPS with ART below 5 ms") << test;
    const std::string setting = std::string(test) + ".max_iops_rule";
    const json by_peak = run_cbw_grid(test, {{setting, "highest-iops"}});
    const json& max = point(by_peak, test, "max");
    EXPECT_EQ(max.at("threads"), 32) << test;
    EXPECT_EQ(max.at("queue_depth"), 32) << test;
    EXPECT_EQ(max.at("rule"), "highest IOPS of every TOIO, whatever its ART (max_iops_rule=highest-iops)") << test;
    bool disclosed = false;
    for (const json& p : by_peak.at("parameters")) {
      disclosed =
          disclosed || (p.value("setting", "") == setting && p.at("value") == "highest-iops" && p.at("tag") == "U");
    }
    EXPECT_TRUE(disclosed) << test;
  }
}

// The knee rule (AnandTech's): the lowest TOIO whose IOPS reaches knee_fraction of the grid's
// highest (2000). At 0.95 (1900: TOIO >= 361) TOIO 512, the first of them in grid order TC 32 /
// QD 16; at 0.8 (1600: TOIO >= 256) TC 32 / QD 8; at 0.5 (1000: TOIO >= 100) TOIO 128, TC 32 /
// QD 4 (not TOIO 96, 979.8 IOPS). The fraction's range is [0.5, 1].
TEST(MaxIopsRule, TheKneeRuleTakesTheLowestToioWithinItsFractionOfTheHighest) {
  for (const char* test : {"cbw", "dirth"}) {
    const std::string rule = std::string(test) + ".max_iops_rule";
    const std::string fraction = std::string(test) + ".max_iops_knee_fraction";
    const json by_default = run_cbw_grid(test, {{rule, "knee"}});
    EXPECT_EQ(point(by_default, test, "max").at("threads"), 32) << test;
    EXPECT_EQ(point(by_default, test, "max").at("queue_depth"), 16) << test;
    EXPECT_EQ(point(by_default, test, "max").at("rule"),
              "lowest TOIO with IOPS at least 95 % of the grid's highest (2000.0), whatever its ART "
              "(max_iops_rule=knee)")
        << test;
    const json at_80 = run_cbw_grid(test, {{rule, "knee"}, {fraction, "0.8"}});
    EXPECT_EQ(point(at_80, test, "max").at("threads"), 32) << test;
    EXPECT_EQ(point(at_80, test, "max").at("queue_depth"), 8) << test;
    const json at_50 = run_cbw_grid(test, {{rule, "knee"}, {fraction, "0.5"}});
    EXPECT_EQ(point(at_50, test, "max").at("threads"), 32) << test;
    EXPECT_EQ(point(at_50, test, "max").at("queue_depth"), 4) << test;
    EXPECT_THROW((void)run_cbw_grid(test, {{rule, "knee"}, {fraction, "0.4"}}), UsageError) << test;
  }
  const std::string html = report::render_html(
      results::read_run_document(json{{"tests", json::array({run_cbw_grid("cbw", {{"cbw.max_iops_rule", "knee"}})})}}));
  EXPECT_NE(html.find("lowest TOIO with IOPS at least 95 % of the grid&#39;s highest, whatever its ART "
                      "(cbw.max_iops_rule=knee, cbw.max_iops_knee_fraction=0.95; AnandTech&#39;s rule)"),
            std::string::npos)
      << html.substr(html.find("MaxIOPS rule"), 400);
}

TEST(MaxIopsRule, IsDisclosedOnTheCbwPageAndAsAChangedUnverifiedSetting) {
  const Settings s = Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {}, {});
  EXPECT_EQ(s.record("cbw.max_iops_rule").default_value, "art-ceiling");
  EXPECT_EQ(s.record("cbw.max_iops_rule").provenance.tag, Confidence::unverified);
  json rec = run_cbw_grid("cbw", {{"cbw.max_iops_rule", "highest-iops"}});
  const json applied{{"applicable", true}, {"enabled", false}, {"note", ""}};
  rec["write_cache"] = {{"requested_enabled", false}, {"original", applied}, {"applied", applied}};
  rec["status"] = "complete";
  const Settings changed =
      Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {}, {{"cbw.max_iops_rule", "highest-iops"}});
  const ComplianceVerdict v = evaluate_test_compliance(rec, {DefinitionSet::embedded(), changed, "libaio"});
  bool listed = false;
  for (const ClauseVerdict& c : v.clauses) {
    listed = listed || (c.clause == "settings" && c.status == ClauseStatus::disclosed &&
                        c.detail.find("cbw.max_iops_rule = highest-iops") != std::string::npos);
  }
  EXPECT_TRUE(listed) << json(v).dump(1);
  rec["compliance"] = v;
  const std::string html = report::render_html(results::read_run_document(json{{"tests", json::array({rec})}}));
  EXPECT_NE(html.find("highest IOPS of every TOIO, whatever its ART (cbw.max_iops_rule=highest-iops)"),
            std::string::npos)
      << html.substr(html.find("MaxIOPS rule"), 400);
  const std::string by_default =
      report::render_html(results::read_run_document(json{{"tests", json::array({run_cbw_grid("cbw", {})})}}));
  EXPECT_NE(by_default.find("highest IOPS with ART below 5.000 ms (cbw.max_iops_rule=art-ceiling)"), std::string::npos)
      << by_default.substr(by_default.find("MaxIOPS rule"), 400);
}

}  // namespace
}  // namespace ptsuite::pts
