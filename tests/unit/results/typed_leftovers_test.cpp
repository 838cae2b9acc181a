// The typed members issue 28 added so that src/report reads no JSON by key: the document
// envelope the report / sign / history / compare checks read, a rate_steps step's stepped
// rate, a purge phase's purge records, a claims point's read fill, and a setting value's text.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include <ptsuite/results/document_envelope.hpp>
#include <ptsuite/results/scenario.hpp>
#include <ptsuite/results/setting_text.hpp>
#include <ptsuite/results/validation.hpp>

namespace ptsuite::results {
namespace {

using nlohmann::json;

TEST(DocumentEnvelope, ReadsKindVersionAndTheArraysEachKindNeeds) {
  const DocumentEnvelope run =
      read_envelope(json{{"kind", "ptsuite.results"}, {"schema_version", 1}, {"tests", json::array()}});
  EXPECT_TRUE(run.is_object);
  EXPECT_EQ(run.kind, "ptsuite.results");
  EXPECT_EQ(run.integer_schema_version, 1);
  EXPECT_EQ(run.schema_version_text, "1");
  EXPECT_TRUE(run.has_tests_array);
  EXPECT_FALSE(run.has_phases_array);
  EXPECT_FALSE(run.is_scenario());
  const DocumentEnvelope scenario =
      read_envelope(json{{"kind", "ptsuite.scenario"}, {"schema_version", 1.0}, {"phases", json::object()}});
  EXPECT_TRUE(scenario.is_scenario());
  EXPECT_FALSE(scenario.integer_schema_version.has_value());  // 1.0 is not an integer
  EXPECT_EQ(scenario.numeric_schema_version, 1.0);
  EXPECT_FALSE(scenario.has_phases_array);  // an object, not an array
  const DocumentEnvelope app = read_envelope(json{{"app", nullptr}, {"instances", 3}, {"schema_version", "1"}});
  EXPECT_TRUE(app.has_app);
  EXPECT_TRUE(app.has_instances);
  EXPECT_EQ(app.schema_version_text, "\"1\"");
  EXPECT_FALSE(app.numeric_schema_version.has_value());
  const DocumentEnvelope none = read_envelope(json::array({1}));
  EXPECT_FALSE(none.is_object);
  EXPECT_EQ(none.kind, "");
  EXPECT_EQ(none.schema_version_text, "");
  EXPECT_EQ(read_envelope(json{{"kind", 7}}).kind, "");
}

TEST(ScenarioRecords, AStepsSteppedRateIsTypedFromItsX) {
  const json doc = {{"label", "50 MB/s"}, {"x", {{"rate_mbps", 50.5}}}};
  const StepRecord mbps = read_step_record(doc);
  EXPECT_TRUE(mbps.rate.mb_per_s);
  EXPECT_DOUBLE_EQ(mbps.rate.value, 50.5);
  EXPECT_EQ(mbps.x.get(), doc.at("x"));  // x itself stays for the CSV
  const StepRecord iops = read_step_record(json{{"x", {{"percent", 40}, {"rate_iops", 1200}}}});
  EXPECT_FALSE(iops.rate.mb_per_s);
  EXPECT_DOUBLE_EQ(iops.rate.value, 1200.0);
  EXPECT_TRUE(std::isnan(read_step_record(json{{"x", {{"threads", 4}}}}).rate.value));
  EXPECT_TRUE(std::isnan(read_step_record(json{{"x", {{"rate_mbps", "fast"}}}}).rate.value));
  EXPECT_TRUE(std::isnan(read_step_record(json::object()).rate.value));
}

TEST(ScenarioRecords, APurgePhasesRecordsAreTyped) {
  const json phase = {{"name", "purge"},
                      {"kind", "purge"},
                      {"purges",
                       {{{"target", 0u}, {"description", "format (SES 1)"}},
                        {{"target", 1u}, {"description", "none: a file"}},
                        "not a record"}}};
  const PhaseRecord p = read_phase_record(phase);
  ASSERT_EQ(p.purge_records.size(), 3u);
  EXPECT_EQ(p.purge_records[0].target, 0u);
  EXPECT_EQ(p.purge_records[0].description, "format (SES 1)");
  EXPECT_EQ(p.purge_records[1].target, 1u);
  EXPECT_EQ(p.purge_records[1].description, "none: a file");
  EXPECT_EQ(p.purge_records[2].description, "");
  EXPECT_TRUE(read_phase_record(json{{"kind", "fill"}}).purge_records.empty());
}

TEST(ValidationRecords, APointsReadFillCapacityMultipleIsTyped) {
  const ValidationPoint filled =
      read_validation_point(json{{"id", "p01"}, {"read_fill", {{"capacity_multiple", 2.0}}}});
  ASSERT_TRUE(filled.read_fill_capacity_multiple.has_value());
  EXPECT_DOUBLE_EQ(*filled.read_fill_capacity_multiple, 2.0);
  const ValidationPoint null_fill = read_validation_point(json{{"id", "p02"}, {"read_fill", nullptr}});
  EXPECT_TRUE(null_fill.read_fill.has_value());
  EXPECT_FALSE(null_fill.read_fill_capacity_multiple.has_value());
  EXPECT_FALSE(read_validation_point(json{{"id", "p03"}}).read_fill_capacity_multiple.has_value());
  const ValidationPoint odd = read_validation_point(json{{"id", "p04"}, {"read_fill", json::object()}});
  ASSERT_TRUE(odd.read_fill_capacity_multiple.has_value());
  EXPECT_TRUE(std::isnan(*odd.read_fill_capacity_multiple));
}

TEST(SettingText, EachValueTypeHasOneSpelling) {
  SettingRecord s;
  s.value = "128KiB";
  EXPECT_EQ(setting_value_text(s), "128KiB");
  s.value = 25;
  EXPECT_EQ(setting_value_text(s), "25");
  s.value = 0.5;
  EXPECT_EQ(setting_value_text(s), "0.5");
  s.value = true;
  EXPECT_EQ(setting_value_text(s), "true");
  s.value = nullptr;
  EXPECT_EQ(setting_value_text(s), "");
  s.value = json::array({"a", 2});
  EXPECT_EQ(setting_value_text(s), "a, 2");
}

}  // namespace
}  // namespace ptsuite::results
