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

#include <ptsuite/history/run_record.hpp>
#include <ptsuite/history/store.hpp>
#include <ptsuite/serve/site.hpp>
#include <ptsuite/util/sha256.hpp>
#include "support/lab_history.hpp"
#include "support/results_fixture.hpp"
#include "support/scenario_fixture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"

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

}  // namespace ptsuite::serve::testing
