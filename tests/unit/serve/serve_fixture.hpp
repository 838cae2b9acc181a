// Test helper: a small lab history for `ptsuite serve`'s tests, on SQLite or PostgreSQL: 130
// generated runs (support/lab_history.hpp: 24 drives, 2 models, 3 firmware versions, campaigns
// c000-c003), a PTS run and a scenario run whose results.json is on disk, a run whose bundle is
// stored in the history, and a drive whose model, serial, firmware and campaign are markup
// (kHostile*). The site reads it through a read-only store, as the command does.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/bundle/ed25519.hpp>
#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/bundle/signature.hpp>
#include <ptsuite/history/run_record.hpp>
#include <ptsuite/history/store.hpp>
#include <ptsuite/serve/site.hpp>
#include <ptsuite/util/sha256.hpp>
#include "support/lab_history.hpp"
#include "support/replay_fixture.hpp"
#include "support/report_fixtures.hpp"
#include "support/results_fixture.hpp"
#include "support/scenario_fixture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::serve::testing {

inline constexpr const char* kHostileModel = "<script>document.title='owned'</script>";
inline constexpr const char* kHostileSerial = "\"><img src=x onerror=\"document.title='owned'\">";
inline constexpr const char* kHostileCampaign = "q4<b>bold</b>";
inline constexpr size_t kLabRuns = 130;

struct LabIds {
  int64_t on_disk = 0, scenario = 0, bundled = 0, hostile = 0;
};

// Fills `store` (writable) and returns the ids of the special runs. `dir` holds their run dirs.
inline LabIds fill_test_lab(history::HistoryStore& store, const test_support::ShmTempDir& dir) {
  test_support::LabShape shape;
  shape.runs = kLabRuns;
  test_support::fill_lab_history(store, shape);
  LabIds ids;
  const std::string steady_dir = dir.file("run-steady");
  test_support::write_file(steady_dir + "/results.json",
                           test_support::serialize_results_fixture(test_support::load_results_fixture("steady")));
  ids.on_disk = store.add(history::record_from_run_dir(steady_dir)).id;
  const std::string scenario_dir = dir.file("run-scenario");
  test_support::write_file(scenario_dir + "/results.json", test_support::scenario_write_pressure(4).dump());
  ids.scenario = store.add(history::record_from_run_dir(scenario_dir)).id;
  history::RunRecord quick =
      history::record_from_results(test_support::load_results_fixture("quick"), dir.file("gone-elsewhere"));
  const std::string text = test_support::serialize_results_fixture(test_support::load_results_fixture("quick"));
  const std::vector<history::BundleFile> files = {{"results.json", text.size(), sha256_hex(text), text}};
  ids.bundled = store.add(quick, false, &files).id;
  history::RunRecord hostile = test_support::lab_record(shape, 9999);
  hostile.device_model = kHostileModel;
  hostile.device_serial = kHostileSerial;
  hostile.device_firmware = "FW'\"&amp;";
  hostile.labels = {{"campaign", kHostileCampaign}};
  ids.hostile = store.add(hostile).id;
  return ids;
}

// The lab's first drive (S0000LAB0000 of LAB MODEL 0 on host-00, in campaign c000) ran every
// kind the history keeps besides its PTS runs: a scenario run, an application run and a replay,
// each newer than every generated run, from its document in `dir` with a manifest:
//   scenario  its directory on this host, signed           -> "verified" (from the directory)
//   app       signed, its bundle stored, the directory gone  -> "verified" (from the bundle)
//   replay    its directory on this host, not signed        -> "not signed"
struct KindIds {
  int64_t scenario = 0, app = 0, replay = 0;
};
inline constexpr const char* kKindSerial = "S0000LAB0000";

inline KindIds add_every_kind(history::HistoryStore& store, const test_support::ShmTempDir& dir) {
  const history::RunRecord drive = test_support::lab_record(test_support::LabShape{}, 0);
  const auto add = [&](const std::string& name, const nlohmann::json& document, bool sign, bool stored,
                       const char* started_utc) {
    const std::string run_dir = dir.file("kind-" + name);
    test_support::write_file(run_dir + "/results.json", document.dump());
    (void)bundle::write_manifest(test_support::output_dir(run_dir));
    if (sign) {
      (void)bundle::sign_bundle(test_support::output_dir(run_dir), bundle::SigningKey::generate(), "ACME Lab",
                                "2026-12-02T10:00:00Z");
    }
    history::RunRecord r = history::record_from_run_dir(run_dir);
    const std::vector<history::BundleFile> files = history::read_bundle_files(run_dir);
    r.device_serial = drive.device_serial;
    r.device_model = drive.device_model;
    r.device_firmware = drive.device_firmware;
    r.host = drive.host;
    r.started_utc = started_utc;
    r.finished_utc = started_utc;
    r.labels["campaign"] = "c000";
    r.run_uid += "-kind-" + name;  // the fixture's scenario document is the same run
    if (stored) r.run_dir = dir.file("kind-" + name + "-moved-away");
    return store.add(r, false, stored ? &files : nullptr).id;
  };
  KindIds ids;
  ids.scenario = add("scenario", test_support::scenario_write_pressure(4), true, false, "2026-12-01T08:00:00Z");
  ids.app = add("app", nlohmann::json(test_support::app_run_fixture("pgbench", 2)), true, true, "2026-12-01T09:00:00Z");
  ids.replay = add("replay", nlohmann::json(test_support::replay_record(test_support::ReplayFixture{})), false, false,
                   "2026-12-01T10:00:00Z");
  return ids;
}

}  // namespace ptsuite::serve::testing
