// The schemas of the capture characterization and the app run document (pts/schema/
// capture.schema.json, app.schema.json): usable, their shared definitions equal, and what the
// writers produce is valid.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include <ptsuite/capture/characterize.hpp>
#include <ptsuite/results/app_run.hpp>

#include "support/json_schema.hpp"

namespace ptsuite {
namespace {

TEST(AppSchemas, AreUsableAndShareTheCharacterization) {
  const nlohmann::json capture = embedded_schema("capture");
  const nlohmann::json app = embedded_schema("app");
  EXPECT_TRUE(check_schema(capture).empty());
  EXPECT_TRUE(check_schema(app).empty());
  for (const char* def : {"characterization", "stream", "step"}) {
    EXPECT_EQ(capture["$defs"][def], app["$defs"][def]) << def << " differs between capture and app schemas";
  }
}

results::IoCharacterization sample_characterization() {
  capture::CaptureHeader h;
  h.devices.push_back({"/dev/x", 1, 2, 1 << 30, 512, true, "", ""});
  capture::CharacterizeOptions o;
  o.step_ns = 1'000'000;
  capture::Characterizer ch(h, o);
  for (uint64_t i = 0; i < 100; ++i) {
    capture::IoRecord r;
    r.issue_ns = i * 50'000;
    r.complete_ns = r.issue_ns + 20'000;
    r.offset_bytes = i * 8192;
    r.length_bytes = i % 3 == 0 ? 0 : 8192;
    r.op = i % 3 == 0 ? capture::IoOp::flush : capture::IoOp::write;
    r.pid = 7;
    ch.add(r);
  }
  capture::CaptureTrailer t;
  t.duration_ns = 5'000'000;
  t.processes = {{7, "postgres"}};
  return ch.finish(t);
}

TEST(AppSchemas, TheWritersOutputIsValid) {
  nlohmann::json c;
  to_json(c, sample_characterization());
  EXPECT_EQ(validate_json(c, embedded_schema("capture")), std::vector<std::string>{});
  results::AppRun run;
  run.status = "completed";
  run.filesystem = "ext4";
  run.settings = {{"scale", "20", "quick", "factor"}, {"server.fsync", "on", "ptsuite", ""}};
  results::AppInstanceResult i;
  i.tps = 10;
  i.series = {{1, 10, 0, 2, std::nan(""), 0}};
  run.instances = {i};
  run.aggregate = i;
  run.phases = {{"load", 1.5, 0}};
  nlohmann::json doc;
  to_json(doc, run);
  EXPECT_EQ(validate_json(doc, embedded_schema("app")), std::vector<std::string>{});  // not captured: null
  run.characterization = sample_characterization();
  to_json(doc, run);
  EXPECT_EQ(validate_json(doc, embedded_schema("app")), std::vector<std::string>{});
  doc["status"] = "fine";
  EXPECT_FALSE(validate_json(doc, embedded_schema("app")).empty());
}

}  // namespace
}  // namespace ptsuite
