// The typed results records (include/ptsuite/results/): each test's own block is written by
// its to_json() and read by its read_*(), and the two agree: every block of the checked-in
// fixtures (the real test classes' output) reads into its record and writes back byte for
// byte, so no field is lost or retyped on the way through a reporter. Readers are tolerant:
// partial and mistyped documents read as empty / NaN, never throw.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/procedures/registry.hpp>
#include <ptsuite/results/capture.hpp>
#include <ptsuite/results/compliance.hpp>
#include <ptsuite/results/demand_sweep.hpp>
#include <ptsuite/results/grid_matrix.hpp>
#include <ptsuite/results/hir.hpp>
#include <ptsuite/results/latency_sweep.hpp>
#include <ptsuite/results/purge.hpp>
#include <ptsuite/results/record_writers.hpp>
#include <ptsuite/results/round_phase.hpp>
#include <ptsuite/results/run_draft.hpp>
#include <ptsuite/results/rww_replay.hpp>
#include <ptsuite/results/rww_streams.hpp>
#include <ptsuite/results/simulation.hpp>
#include <ptsuite/results/test_record.hpp>
#include <ptsuite/results/throughput_table.hpp>
#include <ptsuite/results/validation.hpp>
#include <ptsuite/results/wipc.hpp>
#include <ptsuite/results/write_stream.hpp>
#include <ptsuite/results/xsr.hpp>

#include "support/results_fixture.hpp"

namespace ptsuite::results {
namespace {

using nlohmann::json;

// Read a block into its typed record and write it back.
using RoundTrip = std::function<json(const json&)>;

// One entry per block key of the one test list (results/test_kinds.def): its block kind's reader,
// then the variant's writer.
const std::map<std::string, RoundTrip>& round_trips() {
  static const std::map<std::string, RoundTrip> k = [] {
    std::map<std::string, RoundTrip> out;
    for (const BlockKind& kind : block_kinds()) {
      out.emplace(kind.key, [&kind](const json& block) { return write_block(kind.read(block)); });
    }
    return out;
  }();
  return k;
}

// The registry (pts) and the block kinds (results) are expanded from the same list: entry for
// entry, the same block key.
TEST(TypedRecords, TheRegistryAndTheBlockKindsAreOneList) {
  const auto kinds = block_kinds();
  const auto procedures = pts::procedures();
  ASSERT_EQ(kinds.size(), procedures.size());
  for (size_t i = 0; i < kinds.size(); ++i) {
    EXPECT_EQ(kinds[i].key, procedures[i].record_key) << procedures[i].id;
  }
}

TEST(TypedRecords, EveryFixtureBlockReadsAndWritesBackByteForByte) {
  std::set<std::string> seen;
  for (const std::string& name : test_support::results_fixture_names()) {
    const json& doc = test_support::load_results_fixture(name);
    for (const json& test : doc.at("tests")) {
      const std::string key(pts::find_procedure(test.at("id").get<std::string>()).record_key);
      SCOPED_TRACE(name + ": " + key);
      ASSERT_TRUE(test.contains(key));
      const json& block = test.at(key);
      EXPECT_EQ(round_trips().at(key)(block).dump(), block.dump());
      seen.insert(key);
    }
  }
  // The fixtures hold the core tests and HIR, XSR and DIRTH; the others are tested below.
  for (const char* key :
       {"matrix", "table", "wsat", "cbw", "dirth", "hir", "xsr", "rww_sweep", "rww_streams", "rww_replay"}) {
    EXPECT_EQ(seen.count(key), 1u) << key;
  }
}

// The parts every test record shares (Round phases with their verdicts, captures, WIPC,
// purges, the compliance verdict; the run's verdict too) read and write back byte for byte.
// array_through: a reader of an array and the writer of each element.
template <typename Reader>
json array_through(Reader read_all, const json& array) {
  json out = json::array();
  for (const auto& record : read_all(array)) {
    out.push_back(record);
  }
  return out;
}

TEST(TypedRecords, EveryFixturesSharedPartsRoundTripByteForByte) {
  size_t phases = 0;
  size_t captures = 0;
  size_t wipcs = 0;
  size_t purges = 0;
  for (const std::string& name : test_support::results_fixture_names()) {
    const json& doc = test_support::load_results_fixture(name);
    EXPECT_EQ(json(read_compliance(doc.at("compliance"))).dump(), doc.at("compliance").dump()) << name;
    for (const json& test : doc.at("tests")) {
      SCOPED_TRACE(name + ": " + test.at("id").get<std::string>());
      EXPECT_EQ(array_through(read_round_phases, test.at("phases")).dump(), test.at("phases").dump());
      EXPECT_EQ(json(read_compliance(test.at("compliance"))).dump(), test.at("compliance").dump());
      EXPECT_EQ(array_through(read_captures, test.at("captures")).dump(), test.at("captures").dump());
      EXPECT_EQ(array_through(read_wipcs, test.at("preconditioning")).dump(), test.at("preconditioning").dump());
      EXPECT_EQ(array_through(read_purges, test.at("purges")).dump(), test.at("purges").dump());
      phases += test.at("phases").size();
      captures += test.at("captures").size();
      wipcs += test.at("preconditioning").size();
      purges += test.at("purges").size();
    }
  }
  EXPECT_GT(phases, 0u);  // the fixtures hold every kind, so the comparison saw each
  EXPECT_GT(captures, 0u);
  EXPECT_GT(wipcs, 0u);
  EXPECT_GT(purges, 0u);
}

// The whole test record (header, shared parts, verdict, applied workload, block) reads into
// TestRecord and its writer - the one pts writes results.json with - gives back every fixture's
// record byte for byte, copying and releasing alike; so do the run header's parts.
TEST(TypedRecords, EveryFixtureTestRecordRoundTripsByteForByte) {
  size_t records = 0;
  size_t settings = 0;
  for (const std::string& name : test_support::results_fixture_names()) {
    const json& doc = test_support::load_results_fixture(name);
    for (const json& test : doc.at("tests")) {
      SCOPED_TRACE(name + ": " + test.at("id").get<std::string>());
      const TestRecord record = read_test_record(test);
      EXPECT_EQ(json(record).dump(), test.dump());
      TestRecord released = record;
      EXPECT_EQ(json(std::move(released)).dump(), test.dump());
      ++records;
    }
    for (const json& setting : doc.at("settings")) {
      EXPECT_EQ(json(*read_setting_record(setting)).dump(), setting.dump());
      ++settings;
    }
    // The run header's parts pts writes from records (pts/run.cpp).
    const RunHeader header = read_run_header(doc);
    EXPECT_EQ(json(header.tool).dump(), doc.at("tool").dump()) << name;
    EXPECT_EQ(json(header.spec).dump(), doc.at("spec").dump()) << name;
    EXPECT_EQ(json(header.run).dump(), doc.at("run").dump()) << name;
    EXPECT_EQ(json(header.target).dump(), doc.at("target").dump()) << name;
    EXPECT_EQ(json(header.config).dump(), doc.at("config").dump()) << name;
    EXPECT_EQ(json(header.device).dump(), doc.at("device").dump()) << name;
    EXPECT_EQ(json(header.platform).dump(), doc.at("platform").dump()) << name;
    EXPECT_EQ(json(*header.plan).dump(), doc.at("plan").dump()) << name;
    EXPECT_EQ(json(header.conventions).dump(), doc.at("conventions").dump()) << name;
    // The whole document, as pts/run.cpp builds it (results/run_draft.hpp) and resume reads it.
    EXPECT_EQ(json(read_run_draft(doc)).dump(), doc.dump()) << name;
    // ... and its text as pts writes it (the tests' records kept as text, spliced in).
    EXPECT_EQ(dump_run_draft(read_run_draft(doc)), doc.dump()) << name;
  }
  EXPECT_GT(records, 0u);
  EXPECT_GT(settings, 0u);
}

// The run block's members a fixture does not hold: a stop with and without the segment it cut
// short (a null one kept), the journal counts, a from-runs validation's mode and sources (a
// serial-less drive's null serial kept). Counts unsigned, as a parsed document holds them.
TEST(TypedRecords, RunBlocksOfStoppedAndFromRunsDocumentsRoundTrip) {
  const json base = {
      {"started_utc", "2026-01-30T10:00:00Z"},
      {"boot_id", "b1"},
      {"resumes",
       json::array({{{"utc", "2026-01-30T11:00:00Z"}, {"journaled_steps", 7u}, {"after_host_restart", false}}})},
      {"plan_fingerprint", "abc"},
      {"status", "interrupted"},
      {"finished_utc", "2026-01-30T11:30:00Z"},
      {"journal", {{"steps", 9u}, {"replayed_this_session", 7u}, {"executed_this_session", 2u}}}};
  for (const json& stop : {json{{"reason", "interrupted by SIGINT"}, {"partial_segment", nullptr}},
                           json{{"reason", "interrupted"}, {"partial_segment", {{"label", "RND 4KiB"}}}},
                           json{{"reason", "the device failed"}}}) {
    json run = base;
    run["stop"] = stop;
    EXPECT_EQ(json(read_run_draft(json{{"run", run}})).at("run").dump(), run.dump());
  }
  const json from_runs = {
      {"status", "complete"},
      {"mode", "validate-from-runs"},
      {"started_utc", "t"},
      {"finished_utc", "t"},
      {"plan_fingerprint", "f"},
      {"resumes", json::array()},
      {"sources", json::array({{{"dir", "/r/a"}, {"results_sha256", "00"}, {"serial", "S1"}, {"tests", 2u}},
                               {{"dir", "/r/b"}, {"results_sha256", "01"}, {"serial", nullptr}, {"tests", 1u}}})}};
  EXPECT_EQ(json(read_run_header(json{{"run", from_runs}}).run).dump(), from_runs.dump());
}

// The configuration's members a fixture does not hold, each written only when set: a validation's
// sheet and its path, a from-runs validation's mode, --strict-preflight, labels, an asset serial
// (and a given --confirm-serial).
TEST(TypedRecords, ConfigMembersWrittenOnlyWhenSetRoundTrip) {
  json config = json(read_run_config(json::object()));
  EXPECT_FALSE(config.contains("claims"));
  EXPECT_FALSE(config.contains("mode"));
  EXPECT_FALSE(config.contains("strict_preflight"));
  EXPECT_TRUE(config.at("confirm_serial").is_null());
  config["claims"] = {{"claims", json::array({{{"test", "iops"}}})}};
  config["claims_path"] = "/s/sheet.json";
  config["mode"] = "from-runs";
  config["strict_preflight"] = true;
  config["labels"] = {{"lab", "b2"}, {"rack", "7"}};
  config["asset_serial"] = "LAB-0007";
  config["confirm_serial"] = "S1";
  config["overrides"] = json::array({{{"name", "iops.rounds"}, {"value", "5"}}});
  EXPECT_EQ(json(read_run_config(config)).dump(), config.dump());
}

TEST(TypedRecords, CaptureReadsItsSeriesAndSkipsMalformedPoints) {
  const json capture = {{"name", "response-time-histogram"},
                        {"label", "RND 4KiB 100% W"},
                        {"spec", {{"threads", 1}}},
                        {"result", {{"elapsed_ns", 9}}},
                        {"confidence_levels", {{1000u, 50.0}, {"x", 60.0}, {2000u}, {4000u, 100.0}}},
                        {"histogram_bars", {{{"lower_ns", 900u}, {"upper_ns", 1100u}, {"count", 3u}}, 7}}};
  const CaptureRecord c = read_capture(capture);
  ASSERT_EQ(c.confidence_levels.size(), 2u);
  EXPECT_EQ(c.confidence_levels[1].upper_ns, 4000u);
  EXPECT_DOUBLE_EQ(c.confidence_levels[1].cumulative_pct, 100.0);
  ASSERT_EQ(c.histogram_bars.size(), 1u);
  EXPECT_EQ(c.histogram_bars[0].count, 3u);
  EXPECT_EQ(&c.result.get(), &capture.at("result"));  // borrowed
  const std::vector<CaptureRecord> all = read_captures(json::array({capture, capture}));
  EXPECT_EQ(find_capture(all, "response-time-histogram"), &all[0]);
  EXPECT_EQ(find_capture(all, "max-iops-histogram"), nullptr);
  const json written = c;
  EXPECT_TRUE(written.at("confidence_levels").at(0).at(0).is_number_unsigned());  // ns stay whole
  EXPECT_TRUE(written.at("confidence_levels").at(0).at(1).is_number_float());
}

TEST(TypedRecords, WipcRandomPassIsWrittenOnlyWhenItRan) {
  WipcRecord w;
  w.phase = "main";
  w.pass = {131072, 2.0, 1u << 30, Embedded(json{{"threads", 1}}),
            Embedded(json{{"summary", {{"write", {{"bytes", 1u << 30}}}}}})};
  json j = w;
  EXPECT_EQ(j.at("kind"), "wipc");
  EXPECT_FALSE(j.contains("random_pass"));
  EXPECT_EQ(read_wipc(j).pass.written_bytes(), std::optional<uint64_t>(1u << 30));
  w.random_pass = WipcPass{4096, 1.0, 1u << 29, Embedded(), Embedded()};
  j = w;
  ASSERT_TRUE(j.contains("random_pass"));
  const WipcRecord back = read_wipc(j);
  ASSERT_TRUE(back.random_pass.has_value());
  EXPECT_EQ(back.random_pass->block_size_bytes, 4096u);
  EXPECT_FALSE(back.random_pass->written_bytes().has_value());  // no result: nothing written
  EXPECT_EQ(json(back).dump(), j.dump());
}

TEST(TypedRecords, SkippedPurgeIsTheShortFormAndStepMembersOnlyWhenSet) {
  PurgeRecord skipped;
  skipped.method = "none";
  skipped.description = "purge skipped";
  skipped.step = "iops/main/purge";
  skipped.phase = "main";
  const json s = skipped;
  EXPECT_EQ(s.size(), 6u) << s.dump();  // results schema: the skipped form has no more members
  EXPECT_EQ(s.at("outcome"), "skipped");
  EXPECT_EQ(s.at("pts_compliant"), false);

  PurgeRecord device;
  device.method = "nvme-format";
  device.outcome = "succeeded";
  device.pts_compliant = true;
  device.progress = {{0, std::nullopt, "issued"}, {7400, 1.0, "done"}};
  device.parameters = {{"ses", "1"}};
  json d = device;
  EXPECT_FALSE(d.contains("step"));  // `ptsuite device purge`: not a test step
  EXPECT_FALSE(d.contains("write_cache_after_purge"));
  EXPECT_TRUE(d.at("progress").at(0).at("fraction").is_null());
  device.step = "iops/main/purge";
  device.phase = "main";
  device.write_cache_after_purge = Embedded(json{{"requested_enabled", true}});
  d = device;
  const PurgeRecord back = read_purge(d);
  EXPECT_TRUE(back.succeeded());
  EXPECT_FALSE(back.progress.at(0).fraction.has_value());
  EXPECT_EQ(back.parameters.at("ses"), "1");
  EXPECT_EQ(json(back).dump(), d.dump());
}

TEST(TypedRecords, RoundPhaseKeepsItsVerdictsTypedAndItsSegmentsBorrowed) {
  const json& doc = test_support::load_results_fixture("not-attained");
  const json* phase_json = nullptr;
  for (const json& test : doc.at("tests")) {
    if (!test.at("phases").empty()) {
      phase_json = &test.at("phases").at(0);
      break;
    }
  }
  ASSERT_NE(phase_json, nullptr);
  const RoundPhase p = read_round_phase(*phase_json);
  EXPECT_FALSE(p.steady_state.attained);  // the fixture never reaches steady state
  EXPECT_FALSE(p.steady_state.attained_round.has_value());
  EXPECT_EQ(p.steady_state.rounds_run, p.steady_state.max_rounds);  // so it ran to the Round cap
  ASSERT_FALSE(p.tracking.empty());
  ASSERT_EQ(p.steady_state.verdicts.variables.size(), p.tracking.size());
  const SteadyStateVerdictRecord& v = p.steady_state.verdicts.variables[0];
  EXPECT_EQ(v.tracking_variable, p.tracking[0].name);
  EXPECT_EQ(v.window_rounds.size(), v.window_values.size());
  EXPECT_EQ(v.window_last_round, p.measurement_window.last_round);
  EXPECT_DOUBLE_EQ(v.band.low_pct, 100 - v.criteria.data_excursion_pct / 2);
  ASSERT_FALSE(p.rounds.empty());
  EXPECT_EQ(&p.rounds[0].segments.at(0).get(), &phase_json->at("rounds").at(0).at("segments").at(0));  // no copy
  EXPECT_EQ(p.rounds.size(), p.tracking[0].values.size());

  RoundPhase attained = p;
  attained.steady_state.attained = true;
  attained.steady_state.attained_round = 5;
  const json j = attained;
  EXPECT_EQ(j.at("steady_state").at("attained_round"), 5);
  EXPECT_TRUE(json(p).at("steady_state").at("attained_round").is_null());
}

TEST(TypedRecords, PartialOrMistypedBlocksReadEmptyWithoutThrowing) {
  const json mistyped = {{"rows", "x"},
                         {"columns", 3},
                         {"samples", json::array({{{"x", 1}}})},
                         {"groups", nullptr},
                         {"cells", "all"},
                         {"wait_states", {1}},
                         {"points", {2}},
                         {"claims", json::array({{{"id", 7}}})},
                         {"grid", 5},
                         {"window", "w"},
                         {"recovery", 1},
                         {"steady_state", 2}};
  for (const auto& [key, round_trip] : round_trips()) {
    SCOPED_TRACE(key);
    for (const json& block : {json(), json::object(), json::array(), json("text"), mistyped}) {
      EXPECT_NO_THROW((void)round_trip(block)) << block.dump();
    }
  }
  for (const json& part : {json(), json::object(), json::array({1, "x", nullptr}), json("text"), mistyped}) {
    EXPECT_NO_THROW((void)json(read_captures(part))) << part.dump();
    EXPECT_NO_THROW((void)json(read_wipcs(part))) << part.dump();
    EXPECT_NO_THROW((void)json(read_purges(part))) << part.dump();
    EXPECT_NO_THROW((void)json(read_capture(part))) << part.dump();
    EXPECT_NO_THROW((void)json(read_wipc(part))) << part.dump();
    EXPECT_NO_THROW((void)json(read_purge(part))) << part.dump();
    EXPECT_NO_THROW((void)json(read_round_phases(part))) << part.dump();
    EXPECT_NO_THROW((void)json(read_round_phase(part))) << part.dump();
    EXPECT_NO_THROW((void)json(read_compliance(part))) << part.dump();
  }
  EXPECT_FALSE(read_compliance(json()).compliant);  // no verdict is never a pass
  const GridMatrix m = read_grid_matrix(mistyped);
  EXPECT_TRUE(m.rows.empty());
  EXPECT_TRUE(std::isnan(m.cell(GridMetric::iops, 0, 0)));
  const WriteStreamBlock w = read_write_stream(mistyped);
  ASSERT_EQ(w.samples.size(), 1u);  // an object is a sample, its numbers missing
  EXPECT_EQ(w.samples[0].sample, 0u);
  EXPECT_TRUE(std::isnan(w.samples[0].iops));
  EXPECT_FALSE(w.steady_state.has_value());
  const ValidationBlock v = read_validation(mistyped);
  ASSERT_EQ(v.claims.size(), 1u);
  EXPECT_EQ(v.claims[0].claim.id, "7");
  EXPECT_FALSE(v.claims[0].measured.has_value());
}

TEST(TypedRecords, GridMatrixCellsByMetricWithIntegerLatenciesAndNullGaps) {
  GridMatrix m;
  m.rows = {block_size_key(4096), block_size_key(8192)};
  m.columns = {rw_mix_key(100), rw_mix_key(0)};
  m.source = "final-round";
  m.window = {7, 7};
  for (auto& grid : m.cells) {
    grid = {{1.5, 2.5}, {3.5, std::nan("")}};
  }
  const json j = m;
  EXPECT_EQ(j.at("latency_max_ns").at(0).at(0), 1u);  // ns: whole numbers
  EXPECT_TRUE(j.at("latency_max_ns").at(0).at(0).is_number_unsigned());
  EXPECT_TRUE(j.at("latency_mean_ns").at(0).at(0).is_number_float());
  EXPECT_TRUE(j.at("iops").at(1).at(1).is_null());  // NaN: a cell not measured
  EXPECT_EQ(j.at("row_key"), "block_size");
  const GridMatrix back = read_grid_matrix(j);
  EXPECT_EQ(back.rows, m.rows);
  EXPECT_EQ(back.window.first_round, 7u);
  EXPECT_DOUBLE_EQ(back.cell(GridMetric::mb_per_s, 1, 0), 3.5);
  EXPECT_TRUE(std::isnan(back.cell(GridMetric::iops, 1, 1)));
  EXPECT_TRUE(std::isnan(back.cell(GridMetric::iops, 2, 0)));  // past the last row
  EXPECT_EQ(grid_metric_key(GridMetric::latency_p99_999_ns), "latency_p99_999_ns");
}

TEST(TypedRecords, GridKeysAreTypedAndWrittenAsTheirLabels) {
  GridMatrix m;
  m.rows = {block_size_key(512), block_size_key(4096), block_size_key(1048576)};
  m.columns = {rw_mix_key(65), rw_mix_key(100), rw_mix_key(0)};
  EXPECT_EQ(m.rows[0].label, "0.5KiB");
  EXPECT_EQ(m.rows[2].label, "1MiB");
  EXPECT_EQ(m.columns[0].label, "65/35");
  EXPECT_DOUBLE_EQ(m.columns[0].write_pct, 35.0);
  const json j = m;
  EXPECT_EQ(j.at("rows"), json({"0.5KiB", "4KiB", "1MiB"}));
  EXPECT_EQ(j.at("columns"), json({"65/35", "100/0", "0/100"}));
  const GridMatrix back = read_grid_matrix(j);
  EXPECT_EQ(back.rows, m.rows);  // bytes read back from the labels
  EXPECT_EQ(back.columns, m.columns);
  EXPECT_EQ(back.row_labels(), std::vector<std::string>({"0.5KiB", "4KiB", "1MiB"}));
  // Labels that are not sizes or mixes keep their text, with 0 bytes / NaN percentages.
  const GridMatrix odd = read_grid_matrix(json{{"rows", {"big"}}, {"columns", {"most", "120/-20"}}});
  EXPECT_EQ(odd.rows[0], (BlockSizeKey{0, "big"}));
  EXPECT_EQ(odd.columns[0].label, "most");
  EXPECT_TRUE(std::isnan(odd.columns[0].read_pct));
  EXPECT_TRUE(std::isnan(odd.columns[1].write_pct));
}

TEST(TypedRecords, EmbeddedDocumentsAreBorrowedOnReadAndOwnedOnWrite) {
  const json doc = {{"samples", {{{"sample", 1}, {"result", {{"elapsed_ns", 5}}}, {"health", nullptr}}}}};
  const WriteStreamBlock read = read_write_stream(doc);
  ASSERT_EQ(read.samples.size(), 1u);
  EXPECT_EQ(&read.samples[0].result.get(), &doc.at("samples").at(0).at("result"));  // no copy
  Embedded owned;
  EXPECT_TRUE(owned.get().is_null());
  {
    json temporary = {{"x", 1}};
    owned = Embedded(std::move(temporary));
  }
  const Embedded copy = owned;  // copies share the owned value
  EXPECT_EQ(copy.get().at("x"), 1);
  EXPECT_EQ(&copy.get(), &owned.get());
}

// A record written once as an rvalue hands its owned sub-documents over instead of copying
// them (a 25-Round phase's segment results are the bulk of results.json); a borrowed or
// shared sub-document is copied, so a record still in use is never emptied.
TEST(TypedRecords, OwnedSubDocumentsAreReleasedWhenARecordIsWrittenAsAnRvalue) {
  const json big = {{"histogram", json::array({1, 2, 3})}};
  RoundPhase phase;
  phase.phase = "main";
  phase.round_template.emplace_back(json{{"label", "RND 4KiB"}});
  phase.rounds.push_back({1, {Embedded(big)}, Embedded(), Embedded(json{{"t", 1}})});
  const json copied = phase;  // const&: copies, the record keeps its values
  EXPECT_EQ(phase.rounds[0].segments[0].get(), big);
  const RoundPhase shared = phase;  // a copy shares the owned values
  const json from_shared = json(std::move(phase));
  EXPECT_EQ(shared.rounds[0].segments[0].get(), big) << "a shared value is copied, not taken";
  EXPECT_EQ(from_shared.dump(), copied.dump());

  RoundPhase once;
  once.rounds.push_back({1, {Embedded(big)}, Embedded(), Embedded()});
  const json written = json(std::move(once));
  EXPECT_EQ(written.at("rounds").at(0).at("segments").at(0), big);
  // NOLINTNEXTLINE(bugprone-use-after-move): what the move left behind is the point
  EXPECT_TRUE(once.rounds[0].segments[0].get().is_null()) << "the only owner's value was moved out";

  const json doc = {{"spec", big}, {"result", big}, {"name", "x"}};
  CaptureRecord borrowed = read_capture(doc);
  const json out = json(std::move(borrowed));
  EXPECT_EQ(doc.at("result"), big) << "a borrowed value is never moved out of its document";
  EXPECT_EQ(out.at("result"), big);
}

TEST(TypedRecords, ExtensionAndValidationBlocksRoundTrip) {
  LatencySweepBlock sweep;
  sweep.rw_mixes = {"0/100"};
  sweep.block_sizes_bytes = {4096};
  sweep.thread_counts = {1, 2};
  sweep.queue_depths = {1};
  sweep.cells = {
      {"0/100", 4096, 1, 1, "RND 4KiB TC1 QD1", 1e5, 409.6, ResponseTimes{9e3, 10, 20, 30, 40, 50}, std::nullopt}};
  const json sweep_json = sweep;
  EXPECT_EQ(json(read_latency_sweep(sweep_json)).dump(), sweep_json.dump());
  EXPECT_TRUE(sweep_json.at("cells").at(0).at("latency_p99_ns").is_number_unsigned());

  WriteStreamBlock stream;
  stream.workload = "rnd-4k-write";
  stream.segment = Embedded(json{{"label", "RND 4KiB 100% W"}});
  stream.samples.push_back(
      {1, 0.5, 4096, 4.096e-6, 0.1, 8, 0.03, ResponseTimes{1e5, 1, 2, 3, 4, 5}, Embedded(), Embedded()});
  stream.stop_reason = "steady_state";
  SteadyStateVerdictRecord verdict;
  verdict.tracking_variable = "IOPS";
  verdict.attained = true;
  stream.steady_state = WriteStreamSteadyState{3, 1, 5, 25, {3}, true, verdict};
  const json stream_json = stream;
  EXPECT_EQ(stream_json.at("steady_state").at("rule"), "steady-state");
  EXPECT_EQ(json(read_write_stream(stream_json)).dump(), stream_json.dump());
  stream.steady_state.reset();
  EXPECT_FALSE(json(stream).contains("steady_state"));

  ValidationBlock v;
  v.mode = "from-runs";
  v.sheet = {"ACME", "X1", "3.84 TB", "NVMe", "datasheet", {}};
  const ClaimConditionsRecord c{"random", "4KiB", 4096, "100/0", 4, 32, "fob", 100, "RND 4KiB 100/0 TC 4 QD 32 FOB"};
  v.sheet.claims.push_back({"p99", "", "latency_percentile", "read", "us", 90, 5, c, 99.0});
  v.claims.push_back({v.sheet.claims[0], "p01", 80.0, 11.1, "pass", std::nullopt});
  v.claims.push_back({v.sheet.claims[0], std::nullopt, std::nullopt, std::nullopt, "not covered", "no run"});
  ValidationPoint p;
  p.id = "p01";
  p.conditions = c;
  p.claims = {"p99"};
  p.steady_state = PointSteadyState{false, 25, 21, 25};
  p.source = {"run", "/runs/a", "iops", "main", "RND 4KiB", "abc"};
  v.points.push_back(p);
  v.totals = {2, 1, 0, 1};
  v.caveats = {"p01: steady state NOT attained"};
  v.verdict = "incomplete";
  const json vj = v;
  EXPECT_FALSE(vj.at("points").at(0).contains("read_fill"));  // from-runs points have none
  EXPECT_FALSE(vj.at("claims").at(0).contains("why"));
  EXPECT_TRUE(vj.at("claims").at(1).at("point").is_null());
  EXPECT_EQ(json(read_validation(vj)).dump(), vj.dump());
}

// The SIMULATED banner (every output of a simulated run): a dilated run's figures are the
// dilated drive's, and the banner says by how much; an undilated run's banner has no such part.
TEST(SimulationBanner, ADilatedRunSaysItsFiguresAreTheDilatedDrives) {
  SimulationRecord r;
  r.model = "dc500r";
  r.seed = 7;
  r.scale = 1;
  const std::string plain = "SIMULATED drive (model dc500r, seed 7): not a measurement of a real drive";
  EXPECT_EQ(simulation_banner(r), plain);
  r.scale = 240;
  EXPECT_EQ(simulation_banner(r),
            plain + "; time-dilated x240: IOPS and MB/s are 1/240 and latencies 240x those of the modelled drive");
  r.scale = 2.5;
  EXPECT_NE(simulation_banner(r).find("time-dilated x2.5: IOPS and MB/s are 1/2.5 and latencies 2.5x"),
            std::string::npos);
}

}  // namespace
}  // namespace ptsuite::results
