// Every named setting has a range (settings.hpp "Bounds"): a value outside it is a usage error
// (exit 2) naming the setting and the range, before anything runs; the built-in defaults lie
// inside their own ranges.
#include <gtest/gtest.h>

#include <ptsuite/pts/settings.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::pts {
namespace {

Settings build(std::vector<std::pair<std::string, std::string>> overrides, SpecContext spec = {"2.0.2", "enterprise"}) {
  return Settings::build(DefinitionSet::embedded(), spec, {}, overrides);
}

// The message of the UsageError `--set name=text` raises, or "" when it is accepted.
std::string refusal(const std::string& name, const std::string& text) {
  try {
    (void)build({{name, text}});
  } catch (const UsageError& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  return "";
}

TEST(SettingsBounds, EveryDefaultOfEveryRevisionAndProfileLiesInsideItsRange) {
  for (const SpecContext& spec :
       {SpecContext{"2.0.2", "enterprise"}, SpecContext{"2.0.2", "client"}, SpecContext{"e1.1", "enterprise"}}) {
    const Settings s = build({}, spec);
    for (const SettingRecord& r : s.all()) {
      if (r.max_text.empty()) {
        continue;  // enum, bool, rw_mix: the parser accepts only valid values
      }
      const double v =
          setting_magnitude(r.type.substr(0, r.type.find("_list")), r.value.is_array() ? r.value.at(0) : r.value);
      EXPECT_GE(v, r.min) << r.name;
      EXPECT_LE(v, r.max) << r.name;
    }
  }
}

TEST(SettingsBounds, NumericSettingsWithoutABoundAreNotLeft) {
  const auto settings = build({});  // the range-for below must not iterate a temporary's member
  for (const SettingRecord& r : settings.all()) {
    const bool numeric = r.type == "duration" || r.type == "count" || r.type == "number" || r.type == "size" ||
                         r.type == "percent" || r.type.find("_list") != std::string::npos;
    if (numeric && r.type != "rw_mix_list") {
      EXPECT_FALSE(r.max_text.empty()) << r.name << " has no range";
    }
  }
}

// The hostile inputs of the audit that reach the settings.
TEST(SettingsBounds, TheAuditsHostileValuesAreRefusedWithTheRange) {
  EXPECT_NE(refusal("max_rounds", "1000000").find("allowed 5 to 1000"), std::string::npos);
  EXPECT_NE(refusal("max_rounds", "4").find("allowed 5 to 1000"), std::string::npos);  // SS needs 5 Rounds
  EXPECT_NE(refusal("iops.segment_duration", "1ns").find("allowed 10ms"), std::string::npos);
  EXPECT_NE(refusal("wipc.capacity_multiple", "1e300").find("out of range"), std::string::npos);
  EXPECT_NE(refusal("wipc.capacity_multiple", "inf").find("out of range"), std::string::npos);
  EXPECT_FALSE(refusal("wipc.capacity_multiple", "nan").empty());
  EXPECT_NE(refusal("iops.threads", "100000000").find("allowed 1 to 1024"), std::string::npos);
  EXPECT_NE(refusal("iops.queue_depth", "5000").find("allowed 1 to 4096"), std::string::npos);
  EXPECT_FALSE(refusal("dirth.block_size", "0").empty());
  EXPECT_NE(refusal("dirth.block_size", "1000B").find("not a multiple of 512"), std::string::npos);
  EXPECT_NE(refusal("dirth.block_size", "2GiB").find("allowed 512B to 1GiB"), std::string::npos);
  EXPECT_NE(refusal("latency-sweep.queue_depths", "1,2,8192").find("8192"), std::string::npos);
  std::string many = "1";
  for (int i = 0; i < 64; ++i) {
    many += ",1";
  }
  EXPECT_NE(refusal("latency-sweep.thread_counts", many).find("at most 64"), std::string::npos);
  EXPECT_NE(refusal("xsr.access_1_duration", "401d").find("out of range"), std::string::npos);
  // Every refusal names the setting as the "option" the user typed.
  EXPECT_NE(refusal("max_rounds", "4").find("max_rounds"), std::string::npos);
}

TEST(SettingsBounds, ValuesAtTheEdgesAreAccepted) {
  EXPECT_EQ(refusal("max_rounds", "5"), "");
  EXPECT_EQ(refusal("max_rounds", "1000"), "");
  EXPECT_EQ(refusal("iops.segment_duration", "10ms"), "");
  EXPECT_EQ(refusal("dirth.block_size", "512B"), "");
  EXPECT_EQ(refusal("active_range.amount", "0"), "");
  EXPECT_EQ(refusal("cbw.max_iops_art_ceiling", "100us"), "");
}

// The Round cap's lower bound is the steady-state window: a cap below it can never judge.
TEST(SettingsBounds, TheRoundCapCannotBeBelowTheSteadyStateWindow) {
  const auto& ss = DefinitionSet::embedded().common().at("steady_state");
  const SettingRecord cap = build({}).record("max_rounds");
  EXPECT_GE(cap.min, ss.at("window_rounds").at("value").get<double>());
  EXPECT_GE(cap.min, ss.at("first_check_round").at("value").get<double>());
}

}  // namespace
}  // namespace ptsuite::pts
