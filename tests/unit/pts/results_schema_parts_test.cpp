// The results schema against what the code defines elsewhere: records built by other layers
// (platform capture, a segment stopped by an IO error), the schema's enums against the code's own
// lists (a new revision, stop reason, purge method or transport cannot fall outside the schema),
// the definitions shared with the workload schema, and the checked-in results fixtures
// (tests/data/results/*.json). Whole documents: results_schema_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/platform.hpp>
#include <ptsuite/device/purge.hpp>
#include <ptsuite/engine/io_queue.hpp>
#include <ptsuite/pts/compliance.hpp>
#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/device_executor.hpp>
#include <ptsuite/pts/procedures/registry.hpp>
#include <ptsuite/pts/run.hpp>
#include <ptsuite/pts/segment.hpp>
#include <ptsuite/pts/sim_executor.hpp>
#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/workload/workload_runner.hpp>

#include "support/json_schema.hpp"

#include "support/schema_support.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;
using schema_test::joined;
using schema_test::schema;
namespace fs = std::filesystem;

constexpr const char* k_utc = "2026-11-21T20:16:51Z";

// --- records built by other layers -----------------------------------------------------------

TEST(ResultsSchema, PlatformOfThisHost) {
  const std::vector<std::string> errors =
      validate_json_at(json(device::capture_platform()), schema(), "#/$defs/platform");
  EXPECT_TRUE(errors.empty()) << joined(errors);
}

TEST(ResultsSchema, SegmentStoppedByAnIoErrorAsRunStopRecordsIt) {
  workload::WorkloadResult w;
  w.elapsed_ns = 5'000'000;
  w.stats.write.record(4096, 30'000);
  w.stop_reason = workload::StopReason::io_error;
  w.first_error = engine::IoErrorRecord{5, engine::IoOp::write, 1 << 20, 4096, -5, false};
  w.error_count = 2;
  const json partial = to_segment_result(w, 42, k_utc, k_utc);
  const std::vector<std::string> errors = validate_json_at(partial, schema(), "#/$defs/segment_result");
  EXPECT_TRUE(errors.empty()) << joined(errors);
  EXPECT_TRUE(partial.at("error").is_object());
}

// --- the schema's enums are the code's lists -------------------------------------------------

std::vector<std::string> enum_of(const std::string& def) {
  return schema().at("$defs").at(def).at("enum").get<std::vector<std::string>>();
}

std::set<std::string> as_set(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

TEST(ResultsSchema, EnumsMatchTheCode) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  EXPECT_EQ(as_set(enum_of("revision")), as_set(defs.revisions()));
  EXPECT_EQ(as_set(enum_of("profile")), as_set(defs.profiles()));
  std::vector<std::string> registered;
  for (const ProcedureInfo& p : procedures()) {
    registered.emplace_back(p.id);
  }
  EXPECT_EQ(enum_of("test_id"), registered);
  EXPECT_EQ(as_set(defs.test_ids()), as_set(registered));
  // Every method a purge can be asked for, then the simulated drive's format (sim_executor.hpp).
  std::vector<std::string> purge_methods = device::purge_method_names();
  purge_methods.emplace_back(k_simulated_purge_method);
  EXPECT_EQ(enum_of("purge_method"), purge_methods);

  const json& segment = schema().at("$defs").at("segment_result").at("properties");
  std::vector<std::string> stop_reasons;
  for (workload::StopReason r : {workload::StopReason::duration, workload::StopReason::bytes, workload::StopReason::ios,
                                 workload::StopReason::io_error, workload::StopReason::interrupted}) {
    stop_reasons.emplace_back(workload::to_string(r));
  }
  EXPECT_EQ(segment.at("stop_reason").at("enum").get<std::vector<std::string>>(), stop_reasons);

  const json& tracking = schema().at("$defs").at("tracking_variable").at("properties");
  std::vector<std::string> metrics, units;
  for (Metric m : {Metric::iops, Metric::read_mb_per_s, Metric::write_mb_per_s, Metric::mb_per_s,
                   Metric::mean_latency_ns, Metric::max_latency_ns}) {
    metrics.emplace_back(to_string(m));
    units.emplace_back(metric_unit(m));
  }
  EXPECT_EQ(tracking.at("metric").at("enum").get<std::vector<std::string>>(), metrics);
  EXPECT_EQ(as_set(tracking.at("unit").at("enum").get<std::vector<std::string>>()), as_set(units));

  std::vector<std::string> transports;
  for (device::Transport t :
       {device::Transport::nvme, device::Transport::ata, device::Transport::scsi, device::Transport::virtio,
        device::Transport::loop, device::Transport::zram, device::Transport::file, device::Transport::other}) {
    transports.push_back(device::to_string(t));
  }
  EXPECT_EQ(schema()
                .at("$defs")
                .at("device_identity")
                .at("properties")
                .at("transport")
                .at("enum")
                .get<std::vector<std::string>>(),
            transports);

  std::vector<std::string> statuses;
  for (ClauseStatus s :
       {ClauseStatus::pass, ClauseStatus::fail, ClauseStatus::disclosed, ClauseStatus::not_applicable}) {
    statuses.emplace_back(to_string(s));
  }
  EXPECT_EQ(schema()
                .at("$defs")
                .at("clause_verdict")
                .at("properties")
                .at("status")
                .at("enum")
                .get<std::vector<std::string>>(),
            statuses);
  EXPECT_EQ(schema().at("properties").at("schema_version").at("const"), k_results_schema_version);
}

// The definitions both documents share are written once in spirit and kept identical.
TEST(ResultsSchema, SharedDefinitionsAreIdenticalInBothSchemas) {
  const json workload = embedded_schema("workload");
  for (const char* def : {"ns", "bytes", "count", "percent", "nonneg_number", "utc", "latency_summary", "histogram",
                          "interval_sample", "io_error"}) {
    EXPECT_EQ(schema().at("$defs").at(def), workload.at("$defs").at(def)) << def;
  }
}

// --- checked-in fixtures ---------------------------------------------------------------------

TEST(ResultsSchema, CheckedInFixturesMatchTheSchema) {
  const fs::path dir = fs::path(PTSUITE_TEST_DATA_DIR) / "results";
  std::vector<fs::path> files;
  if (fs::is_directory(dir)) {
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
      if (e.path().extension() == ".json") {
        files.push_back(e.path());
      }
    }
  }
  if (files.empty()) {
    GTEST_SKIP() << "no results fixtures in " << dir.string();
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.filename().string());
    std::ifstream in(f);
    const json doc = json::parse(in);
    const std::vector<std::string> errors = validate_json(doc, schema());
    EXPECT_TRUE(errors.empty()) << joined(errors);
  }
}

}  // namespace
}  // namespace ptsuite::pts
