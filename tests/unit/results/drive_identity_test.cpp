// results::DriveIdentity, the one identity record a scenario run's targets and compare.json's
// runs embed: the writer's bytes (member order, null for unknown), the tolerant reader, and
// that the scenario document and the comparison read the same members through it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <ptsuite/results/comparison.hpp>
#include <ptsuite/results/drive_identity.hpp>
#include <ptsuite/results/scenario_document.hpp>

namespace ptsuite::results {
namespace {

using nlohmann::json;

TEST(DriveIdentity, WritesEveryMemberWithNullForUnknown) {
  const DriveIdentity id{"ACME", "X1", std::nullopt, "1.0", "nvme", uint64_t{1} << 30};
  EXPECT_EQ(
      to_json(id).dump(),
      R"({"capacity_bytes":1073741824,"firmware":"1.0","model":"X1","serial":null,"transport":"nvme","vendor":"ACME"})");
  EXPECT_EQ(to_json(DriveIdentity{}).dump(),
            R"({"capacity_bytes":null,"firmware":null,"model":null,"serial":null,"transport":null,"vendor":null})");
}

TEST(DriveIdentity, ReadsBackWhatItWroteAndToleratesMistypedMembers) {
  const DriveIdentity id{"ACME", "X1", "S123", "1.0", "sata", 512110190592u};
  EXPECT_EQ(to_json(read_drive_identity(to_json(id))), to_json(id));
  const DriveIdentity odd = read_drive_identity(
      json{{"vendor", 5}, {"model", "M"}, {"serial", json::array()}, {"capacity_bytes", -1}, {"extra", 1}});
  EXPECT_FALSE(odd.vendor.has_value());
  EXPECT_EQ(odd.model, "M");
  EXPECT_FALSE(odd.serial.has_value());
  EXPECT_FALSE(odd.firmware.has_value());
  EXPECT_FALSE(odd.capacity_bytes.has_value());
  EXPECT_FALSE(read_drive_identity(json("not an object")).model.has_value());
}

TEST(DriveIdentity, ScenarioTargetsAndComparedRunsEmbedTheSameRecord) {
  const json target{{"path", "/dev/loop0"}, {"vendor", nullptr},   {"model", "M"},           {"serial", "S"},
                    {"firmware", "F"},      {"transport", "loop"}, {"capacity_bytes", 4096u}};
  const ScenarioDocument doc = read_scenario_document(json{{"targets", json::array({target})}});
  ASSERT_EQ(doc.targets.size(), 1u);
  EXPECT_EQ(doc.targets[0].path, "/dev/loop0");
  ComparedRun run;
  run.identity = doc.targets[0].identity;
  Comparison c;
  c.runs.push_back(run);
  const json written = to_json(c).at("runs").at(0).at("identity");
  json expected = target;
  expected.erase("path");
  EXPECT_EQ(written, expected);
  EXPECT_EQ(to_json(read_comparison(to_json(c)).runs.at(0).identity), expected);
}

}  // namespace
}  // namespace ptsuite::results
