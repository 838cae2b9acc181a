// Test helpers: the same history checks against any backend (SQLite and PostgreSQL), so both
// are held to one behaviour: records from the checked-in results fixtures round-trip field by
// field, re-adding a run updates it under the same ID, filters select by model and serial,
// migrations from version 1 keep the data.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/history/migrations.hpp>
#include <ptsuite/history/run_record.hpp>
#include <ptsuite/history/store.hpp>
#include <ptsuite/util/error.hpp>
#include "support/results_fixture.hpp"

namespace ptsuite::history::testing {

inline RunRecord fixture_record(const std::string& name, const std::string& dir) {
  RunRecord r = record_from_results(test_support::load_results_fixture(name), dir);
  r.manifest_sha256 = std::string(64, 'a');
  return r;
}

inline void expect_same_record(const RunRecord& a, const RunRecord& b) {
  EXPECT_EQ(a.run_uid, b.run_uid);
  EXPECT_EQ(a.run_dir, b.run_dir);
  EXPECT_EQ(a.started_utc, b.started_utc);
  EXPECT_EQ(a.finished_utc, b.finished_utc);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.device_vendor, b.device_vendor);
  EXPECT_EQ(a.device_model, b.device_model);
  EXPECT_EQ(a.device_serial, b.device_serial);
  EXPECT_EQ(a.device_firmware, b.device_firmware);
  EXPECT_EQ(a.device_transport, b.device_transport);
  EXPECT_EQ(a.capacity_bytes, b.capacity_bytes);
  EXPECT_EQ(a.spec_revision, b.spec_revision);
  EXPECT_EQ(a.spec_profile, b.spec_profile);
  EXPECT_EQ(a.tests, b.tests);
  EXPECT_EQ(a.compliant, b.compliant);
  EXPECT_EQ(a.compliance_summary, b.compliance_summary);
  EXPECT_EQ(a.tested_by, b.tested_by);
  EXPECT_EQ(a.tool_version, b.tool_version);
  EXPECT_EQ(a.tool_git_revision, b.tool_git_revision);
  EXPECT_EQ(a.manifest_sha256, b.manifest_sha256);
  EXPECT_EQ(a.signature_fingerprint, b.signature_fingerprint);
  EXPECT_EQ(a.signed_utc, b.signed_utc);
  EXPECT_EQ(a.preflight_warnings, b.preflight_warnings);
  ASSERT_EQ(a.test_summaries.size(), b.test_summaries.size());
  for (size_t i = 0; i < a.test_summaries.size(); ++i) {
    EXPECT_EQ(a.test_summaries[i].test_id, b.test_summaries[i].test_id);
    EXPECT_EQ(a.test_summaries[i].compliant, b.test_summaries[i].compliant);
    EXPECT_EQ(a.test_summaries[i].compliance_summary, b.test_summaries[i].compliance_summary);
    EXPECT_EQ(a.test_summaries[i].steady_state, b.test_summaries[i].steady_state);
  }
  // Metrics come back in test order, then by name: compare as sets.
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (const Metric& m : a.metrics) {
    const auto it = std::find_if(b.metrics.begin(), b.metrics.end(),
                                 [&](const Metric& o) { return o.test_id == m.test_id && o.name == m.name; });
    ASSERT_NE(it, b.metrics.end()) << m.test_id << " " << m.name;
    EXPECT_DOUBLE_EQ(it->value, m.value) << m.name;  // exact: stored with 17 significant digits
    EXPECT_EQ(it->unit, m.unit);
  }
}

// Adds the three fixtures, reads them back, re-adds one, filters.
inline void exercise_store(HistoryStore& store) {
  RunRecord steady = fixture_record("steady", "/runs/steady");
  steady.signature_fingerprint = "SHA256:" + std::string(64, 'b');
  steady.signed_utc = "2026-11-22T10:00:00Z";
  steady.preflight_warnings = 2;
  const RunRecord attained = fixture_record("not-attained", "/runs/not-attained");
  const RunRecord quick = fixture_record("quick", "/runs/quick");
  ASSERT_FALSE(steady.metrics.empty());
  ASSERT_FALSE(attained.metrics.empty());

  const AddResult a = store.add(steady);
  const AddResult b = store.add(attained);
  const AddResult c = store.add(quick);
  EXPECT_FALSE(a.updated);
  EXPECT_GT(b.id, a.id);
  EXPECT_GT(c.id, b.id);
  expect_same_record(steady, store.get_or_throw(a.id));
  expect_same_record(attained, store.get_or_throw(b.id));
  expect_same_record(quick, store.get_or_throw(c.id));
  EXPECT_FALSE(store.get(c.id + 100).has_value());
  EXPECT_THROW((void)store.get_or_throw(c.id + 100), UsageError);

  // The same run again (e.g. after `sign`, from a moved directory): same ID, new values.
  RunRecord moved = steady;
  moved.run_dir = "/archive/steady";
  moved.preflight_warnings.reset();
  moved.metrics.pop_back();
  // From another directory, only with replace (history add --replace): never silently.
  EXPECT_THROW((void)store.add(moved), UsageError);
  const AddResult again = store.add(moved, /*replace=*/true);
  EXPECT_TRUE(again.updated);
  EXPECT_EQ(again.id, a.id);
  expect_same_record(moved, store.get_or_throw(a.id));
  EXPECT_EQ(store.list({}).size(), 3u);

  const std::vector<RunRecord> by_model = store.list({steady.device_model, ""});
  ASSERT_EQ(by_model.size(), 1u);
  EXPECT_EQ(by_model[0].id, a.id);
  EXPECT_TRUE(by_model[0].metrics.empty());  // list() leaves metrics out unless asked
  EXPECT_FALSE(by_model[0].test_summaries.empty());
  EXPECT_EQ(store.list({"", attained.device_serial}).size(), 1u);
  EXPECT_EQ(store.list({steady.device_model, attained.device_serial}).size(), 0u);
  EXPECT_EQ(store.list({}, true)[1].metrics.size(), attained.metrics.size());
}

// Version 1 of the real migrations, a run stored the way version 1 stored it, then opening
// the store migrates to the latest version and the run is intact with the new columns empty.
inline void exercise_migration_from_v1(std::unique_ptr<Backend> backend_v1, std::unique_ptr<Backend> backend_again) {
  const std::vector<Migration> v1_only = {history_migrations().front()};
  const MigrationResult first = apply_migrations(*backend_v1, v1_only);
  EXPECT_EQ(first.from_version, 0);
  EXPECT_EQ(first.to_version, 1);
  (void)backend_v1->query(
      "INSERT INTO runs (run_uid, run_dir, added_utc, updated_utc, status, tests, compliant, compliance_summary, "
      "tool_version, device_model) VALUES ('uid-1', '/runs/old', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', "
      "'complete', 'iops', 1, 'compliant', '0.0.9', 'Old Model')");
  backend_v1.reset();

  HistoryStore store(std::move(backend_again));
  EXPECT_EQ(schema_version(store.backend()), history_migrations().back().version);
  const std::vector<RunRecord> runs = store.list({"Old Model", ""});
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].run_dir, "/runs/old");
  EXPECT_EQ(runs[0].tests, std::vector<std::string>{"iops"});
  EXPECT_TRUE(runs[0].compliant);
  EXPECT_TRUE(runs[0].signature_fingerprint.empty());
  EXPECT_FALSE(runs[0].preflight_warnings.has_value());
  // Migrating again is a no-op.
  const MigrationResult again = apply_migrations(store.backend(), history_migrations());
  EXPECT_EQ(again.from_version, again.to_version);
}

}  // namespace ptsuite::history::testing
