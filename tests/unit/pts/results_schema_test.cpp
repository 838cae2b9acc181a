// results.json against pts/schema/results.schema.json, without a device: the REAL test classes
// (pts::make_test(...)->run), round loop, window aggregation, segment conversion
// (to_segment_result), compliance, settings disclosure and results skeleton run over a step
// executor that invents only what a device would report (IO counts and latencies, purge,
// health and write-cache records in the device layer's own types). Every test record of all
// five tests, for every spec revision and profile and for variants that reach the other
// branches (steady state not attained, WSAT time limit, 4Kn omissions, optional WSAT
// workloads, operating points from window averages), must match the schema's test_record;
// assembled documents must match the whole schema. Corrupted documents are rejected with the
// path of the damage. Enums, shared definitions and the checked-in fixtures:
// results_schema_parts_test.cpp. `ptsuite run` itself is checked by
// tests/integration/results_schema_cli_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/device/health.hpp>
#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/platform.hpp>
#include <ptsuite/device/purge.hpp>
#include <ptsuite/device/write_cache.hpp>
#include <ptsuite/engine/io_queue.hpp>
#include <ptsuite/pts/compliance.hpp>
#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/device_executor.hpp>
#include <ptsuite/pts/run.hpp>
#include <ptsuite/pts/segment.hpp>
#include <ptsuite/pts/settings.hpp>
#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/workload/workload_runner.hpp>
#include "support/json_schema.hpp"

#include "pts/run_support.hpp"
#include "support/schema_support.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;
using schema_test::joined;
using schema_test::schema;
namespace fs = std::filesystem;

constexpr const char* k_run_utc = "2026-11-21T20:16:51Z";

// --- the invented device -----------------------------------------------------------------

enum class Behaviour { steady, oscillating };

uint32_t round_of_step(const StepId& id) {
  // "r003-s12", "r003-prewrite": Round 3; anything else: 0.
  if (id.name.size() > 4 && id.name[0] == 'r' && std::isdigit(static_cast<unsigned char>(id.name[1])) != 0) {
    return static_cast<uint32_t>(std::stoul(id.name.substr(1, 3)));
  }
  return 0;
}

// What a device would have measured for a segment: `ios` IOs in 1 s, read/write by the mix,
// block sizes cycling through the spec's distribution, latencies spread over a few buckets,
// an interval series when asked for. Converted by the real to_segment_result().
SegmentResult measured(const StepId& id, const SegmentSpec& spec, uint64_t ios, uint64_t latency_ns) {
  workload::WorkloadResult w;
  w.elapsed_ns = 1'000'000'000;
  w.cpu = {0.012, 0.034};
  const auto reads = static_cast<uint64_t>(static_cast<double>(ios) * spec.mix.read_pct / 100.0);
  for (uint64_t i = 0; i < ios; ++i) {
    const uint64_t bytes = spec.block_sizes.at(i % spec.block_sizes.size()).bytes;
    const uint64_t lat = latency_ns + (i % 5) * latency_ns / 8 + (i % 97 == 0 ? 10 * latency_ns : 0);
    (i < reads ? w.stats.read : w.stats.write).record(bytes, lat);
  }
  if (spec.interval_ns > 0) {
    for (uint64_t k = 1; k <= 3; ++k) {
      workload::IntervalSample s;
      s.end_offset_ns = k * spec.interval_ns;
      s.ios[1] = ios / 3;
      s.bytes[1] = s.ios[1] * spec.block_sizes.front().bytes;
      s.latency_sum_ns[1] = s.ios[1] * latency_ns;
      w.intervals.push_back(s);
    }
  }
  w.stop_reason = spec.bytes_limit > 0 ? workload::StopReason::bytes : workload::StopReason::duration;
  w.end_state.sequential_cursor_bytes.assign(spec.threads,
                                             spec.pattern == workload::AccessPattern::sequential ? 65536 : 0);
  return to_segment_result(w, step_seed(1, id), k_run_utc, k_run_utc);
}

device::PurgeRecord purge_record(const std::string& requested) {
  device::PurgeRecord r;
  r.target = "/dev/nvme0n1";
  r.device_model = "ACME NVMe 3.84TB";
  r.device_serial = "S4ZZNA0R123456";
  r.requested_method = requested;
  r.method = "nvme-format";
  r.description = "NVMe Format NVM, SES=1, LBAF 0 kept";
  r.pts_compliant = true;
  r.started_utc = k_run_utc;
  r.ended_utc = k_run_utc;
  r.duration_ns = 4'200'000'000;
  r.outcome = device::PurgeOutcome::succeeded;
  r.progress = {{0, 0.0, "format started"}, {2100, -1.0, "no progress reported"}, {4200, 1.0, "done"}};
  r.messages = {"Format NVM completed"};
  r.parameters.ses = 1;
  r.parameters.lbaf = 0;
  return r;
}

device::HealthSnapshot health_snapshot(uint32_t n) {
  device::HealthSnapshot h;
  h.taken_utc = k_run_utc;
  h.source = "nvme-smart-log";
  h.temperature_celsius = 41.0 + n % 3;
  h.warning_threshold_celsius = 75.0;
  h.critical_threshold_celsius = 85.0;
  h.critical_warning = 0;
  h.percentage_used = 3;
  h.media_errors = 0;
  h.available_spare_percent = 100;
  h.power_on_hours = 1200;
  h.warning_temperature_minutes = 0;
  h.thermal_transitions = 0;
  return h;
}

// Stands in for DeviceExecutor: the same JSON shapes, built by the same to_json functions.
class ModelExecutor : public StepExecutor {
 public:
  explicit ModelExecutor(Behaviour behaviour) : m_behaviour(behaviour) {}

  json execute(const StepId& id, const StepRequest& request) override {
    switch (request.kind) {
      case StepKind::segment: {
        const SegmentSpec& s = request.segment;
        uint64_t ios = 240 + 40 * (s.threads * s.queue_depth > 8 ? 1 : 0);
        if (m_behaviour == Behaviour::oscillating && round_of_step(id) % 2 == 0) {
          ios += ios / 2;  // +50 % every other Round: the data excursion never passes
        }
        if (s.bytes_limit > 0) {
          // WIPC (no duration) writes its full amount; a timed segment with a byte cap (a WSAT
          // sample stopping at exactly the capacity multiple) ends at whichever comes first.
          const uint64_t cap_ios = s.bytes_limit / s.block_sizes.front().bytes;
          ios = s.duration_ns == 0 ? cap_ios : std::min(ios, cap_ios);
        }
        return measured(id, s, ios, 20'000 + 1000 * s.queue_depth);
      }
      case StepKind::purge: {
        json j = purge_record(request.purge_method);
        j["step"] = id.text();
        return j;
      }
      case StepKind::health: {
        const device::HealthSnapshot h = health_snapshot(m_health++);
        json j = h;
        j["throttling"] = m_throttle.observe(h);
        return j;
      }
      case StepKind::idle:
        return json{{"kind", "idle"}, {"idle_ns", request.idle_ns}, {"elapsed_ns", request.idle_ns}};
    }
    return json();
  }
  void replayed(const StepId&, const StepRequest&, const json&) override {}

  [[nodiscard]] const device::ThrottleMonitor& throttle() const { return m_throttle; }

 private:
  Behaviour m_behaviour;
  uint32_t m_health = 0;
  device::ThrottleMonitor m_throttle;
};

device::WriteCacheRecord typed_write_cache_record(bool requested_enabled, bool controllable) {
  device::WriteCacheRecord r;
  r.requested_enabled = requested_enabled;
  if (controllable) {
    r.original = {true, !requested_enabled, "nvme-feature-06h", ""};
    r.applied = {true, requested_enabled, "nvme-feature-06h", ""};
    r.restored = device::WriteCacheState{true, !requested_enabled, "nvme-feature-06h", ""};
    r.messages = {"volatile write cache set and verified"};
  } else {
    r.original = {false, std::nullopt, "none", "not applicable: loop device"};
    r.applied = r.original;
    r.messages = {"not applicable: loop device"};
  }
  return r;
}

// --- runs ------------------------------------------------------------------------------------

struct Variant {
  std::string name;
  SpecContext spec;
  std::vector<std::string> presets;
  std::vector<std::pair<std::string, std::string>> overrides;
  uint32_t logical_block_bytes = 512;
  Behaviour behaviour = Behaviour::steady;
  bool controllable_cache = true;
};

std::vector<Variant> variants() {
  return {
      {"2.0.2/enterprise at spec defaults", {"2.0.2", "enterprise"}, {}, {}, 512, Behaviour::steady, true},
      {"2.0.2/client --quick", {"2.0.2", "client"}, {"quick"}, {}, 512, Behaviour::steady, false},
      {"e1.1/enterprise on a 4Kn device, WSAT cbw workload",
       {"e1.1", "enterprise"},
       {},
       {{"wsat.workload", "cbw"}},
       4096,
       Behaviour::steady,
       true},
      {"e1.1/enterprise not attained, WSAT time limit, oltp, window-average operating points",
       {"e1.1", "enterprise"},
       {"quick"},
       {{"max_rounds", "6"},
        {"wsat.time_limit", "4s"},
        {"wsat.capacity_multiple", "1000"},
        {"wsat.workload", "oltp"},
        {"cbw.operating_point_source", "window-average"},
        {"iops.threads", "16"},
        {"iops.queue_depth", "8"}},
       512,
       Behaviour::oscillating,
       false},
  };
}

struct VariantRun {
  Settings settings;
  std::vector<json> records;
  std::vector<std::pair<std::string, ComplianceVerdict>> verdicts;
  device::ThrottleMonitor throttle;
};

constexpr uint64_t k_capacity_bytes = 16ull << 20;

// One test as run.cpp runs it: the test's record, then write_cache, status, times, compliance.
json run_one(const std::string& id, const Variant& v, const Settings& settings, ModelExecutor& exec,
             ComplianceVerdict& verdict) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  TestContext ctx{defs, v.spec, settings, exec, TargetFacts{k_capacity_bytes, v.logical_block_bytes}};
  json record = make_test(id)->run(ctx);
  const bool enabled = defs.profile(v.spec.profile).at("write_cache").at("value") == "enabled";
  record["write_cache"] = typed_write_cache_record(enabled, v.controllable_cache);
  record["status"] = "complete";
  record["started_utc"] = k_run_utc;
  record["finished_utc"] = k_run_utc;
  verdict = evaluate_test_compliance(record, {defs, settings, "libaio"});
  record["compliance"] = verdict;
  return record;
}

const VariantRun& run_variant(size_t index) {
  static std::map<size_t, VariantRun> cache;
  if (const auto it = cache.find(index); it != cache.end()) {
    return it->second;
  }
  const Variant v = variants().at(index);
  VariantRun out{Settings::build(DefinitionSet::embedded(), v.spec, v.presets, v.overrides), {}, {}, {}};
  ModelExecutor exec(v.behaviour);
  for (const std::string& id : core_test_ids()) {
    ComplianceVerdict verdict;
    out.records.push_back(run_one(id, v, out.settings, exec, verdict));
    out.verdicts.emplace_back(id, verdict);
  }
  out.throttle = exec.throttle();
  return cache.emplace(index, std::move(out)).first->second;
}

device::DeviceIdentity loop_identity() {
  device::DeviceIdentity id;
  id.path = "/dev/loop0";
  id.canonical_path = "/dev/loop0";
  id.kernel_name = "loop0";
  id.device_path = "/dev/loop0";
  id.transport = device::Transport::loop;
  id.source = "sysfs";
  id.model = "Linux loop device";
  id.capacity_bytes = k_capacity_bytes;
  id.logical_block_bytes = 512;
  id.physical_block_bytes = 512;
  id.rotational = false;
  id.write_cache_present = false;
  id.purge.discard = true;
  id.queue.scheduler = "none";
  id.queue.nr_requests = 128;
  id.queue.discard_max_bytes = 4194304;
  id.queue.write_cache = "write back";
  id.backing_file = "/dev/shm/ptsuite-scratch-abc (deleted)";
  id.direct_io = true;
  id.backing_offset_bytes = 0;
  id.notes = {"loop device: no pass-through identity"};
  return id;
}

// The whole document as run.cpp assembles it (the CLI test checks a real one).
json document(const Variant& v, const VariantRun& run) {
  RunConfig config;
  config.tests = core_test_ids();
  config.revision = v.spec.revision;
  config.profile = v.spec.profile;
  config.presets = v.presets;
  config.overrides = v.overrides;
  config.command_line = {"ptsuite", "run", "all"};
  json doc = detail::results_skeleton(config, DefinitionSet::embedded(), v.spec, run.settings);
  doc["run"] = {{"started_utc", k_run_utc},
                {"resumes", json::array({{{"utc", k_run_utc}, {"journaled_steps", 12}}})},
                {"plan_fingerprint", std::string(64, 'e')},
                {"status", "complete"},
                {"finished_utc", k_run_utc},
                {"journal", {{"steps", 40}, {"replayed_this_session", 12}, {"executed_this_session", 28}}}};
  doc["target"] = {{"path", "/dev/loop0"},
                   {"kind", "block_device"},
                   {"scratch", "loop device /dev/loop0 (16.00 MiB in /dev/shm, direct IO, 512-byte blocks)"},
                   {"capacity_bytes", k_capacity_bytes},
                   {"logical_block_bytes", 512},
                   {"physical_block_bytes", 512}};
  doc["device"] = loop_identity();
  doc["platform"] = device::capture_platform();
  doc["plan"] = {{"best_case_ns", 1'000'000'000}, {"worst_case_ns", 9'000'000'000}};
  doc["tests"] = run.records;
  doc["health"] = {{"throttle", run.throttle}};
  doc["compliance"] = evaluate_run_compliance(run.verdicts, "complete");
  return doc;
}

// --- every test record, every revision and profile ------------------------------------------

class ResultsSchemaVariant : public ::testing::TestWithParam<size_t> {};

TEST_P(ResultsSchemaVariant, EveryTestRecordMatchesTheTestRecordDefinition) {
  const VariantRun& run = run_variant(GetParam());
  ASSERT_EQ(run.records.size(), core_test_ids().size());
  for (const json& record : run.records) {
    SCOPED_TRACE(record.at("id").get<std::string>());
    const std::vector<std::string> errors = validate_json_at(record, schema(), "#/$defs/test_record");
    EXPECT_TRUE(errors.empty()) << joined(errors);
  }
}

TEST_P(ResultsSchemaVariant, TheAssembledDocumentMatchesTheSchema) {
  const Variant v = variants().at(GetParam());
  const std::vector<std::string> errors = validate_json(document(v, run_variant(GetParam())), schema());
  EXPECT_TRUE(errors.empty()) << joined(errors);
}

INSTANTIATE_TEST_SUITE_P(AllRevisionsAndProfiles, ResultsSchemaVariant, ::testing::Range<size_t>(0, variants().size()),
                         [](const ::testing::TestParamInfo<size_t>& param) {
                           std::string name =
                               variants().at(param.param).spec.revision + "_" + variants().at(param.param).spec.profile;
                           std::replace(name.begin(), name.end(), '.', '_');
                           return name + "_" + std::to_string(param.param);  // two e1.1/enterprise variants
                         });

// The variants reach the branches they are meant to (otherwise the schema is not exercised).
TEST(ResultsSchema, VariantsCoverTheRecordBranches) {
  bool not_attained = false, time_limit = false, omitted = false, window_average = false, toio_setting = false;
  std::set<std::string> revisions, profiles, wsat_workloads;
  for (size_t i = 0; i < variants().size(); ++i) {
    revisions.insert(variants()[i].spec.revision);
    profiles.insert(variants()[i].spec.profile);
    for (const json& r : run_variant(i).records) {
      for (const json& p : r.at("phases")) {
        not_attained = not_attained || p.at("steady_state").at("attained_round").is_null();
      }
      omitted = omitted || !r.at("omitted").empty();
      toio_setting = toio_setting || (r.at("toio").is_object() && r.at("toio").contains("threads_setting"));
      if (r.contains("wsat")) {
        time_limit = time_limit || r.at("wsat").at("stop_reason") == "time_limit";
        wsat_workloads.insert(r.at("wsat").at("workload").get<std::string>());
      }
      if (r.contains("cbw")) {
        window_average = window_average || r.at("cbw").at("operating_point_source") == "window-average";
      }
    }
  }
  EXPECT_TRUE(not_attained);
  EXPECT_TRUE(time_limit);
  EXPECT_TRUE(omitted);
  EXPECT_TRUE(window_average);
  EXPECT_TRUE(toio_setting);
  const std::vector<std::string> all_revisions = DefinitionSet::embedded().revisions();
  const std::vector<std::string> all_profiles = DefinitionSet::embedded().profiles();
  EXPECT_EQ(revisions, std::set<std::string>(all_revisions.begin(), all_revisions.end()));
  EXPECT_EQ(profiles, std::set<std::string>(all_profiles.begin(), all_profiles.end()));
  EXPECT_EQ(wsat_workloads, (std::set<std::string>{"write-intensive", "cbw", "oltp"}));
}

// --- records built by other layers -----------------------------------------------------------

// The one error a damaged document must have: at `pointer`, and saying `what` (a part of
// valijson's description, support/json_schema.hpp).
struct Damage {
  std::string pointer;
  std::string what;
};

void expect_damage(const std::vector<std::string>& errors, const Damage& d) {
  ASSERT_EQ(errors.size(), 1u) << joined(errors);
  EXPECT_EQ(errors[0].rfind(d.pointer + ": ", 0), 0u) << errors[0] << " (expected at " << d.pointer << ")";
  EXPECT_NE(errors[0].find(d.what), std::string::npos) << errors[0] << " (expected: " << d.what << ")";
}

TEST(ResultsSchema, DeviceIdentitiesOfEveryTransport) {
  std::vector<device::DeviceIdentity> ids;
  ids.push_back(loop_identity());
  device::DeviceIdentity nvme;
  nvme.path = nvme.canonical_path = nvme.device_path = "/dev/nvme0n1";
  nvme.kernel_name = "nvme0n1";
  nvme.transport = device::Transport::nvme;
  nvme.source = "nvme-identify";
  nvme.vendor = "ACME";
  nvme.model = "ACME NVMe 3.84TB";
  nvme.serial = "S4ZZNA0R123456";
  nvme.firmware = "1.2.3";
  nvme.identifier = "eui.0025388b91b12345";
  nvme.capacity_bytes = 3'840'755'982'336;
  nvme.logical_block_bytes = nvme.physical_block_bytes = 4096;
  nvme.nvme_nsid = 1;
  nvme.lba_formats = {{0, 512, 0, 2}, {1, 4096, 0, 0}};
  nvme.lba_format_in_use = nvme.lba_formats[1];
  nvme.warning_temperature_kelvin = 348;
  nvme.critical_temperature_kelvin = 358;
  nvme.write_cache_present = true;
  nvme.write_cache_enabled = true;
  nvme.purge.nvme_format = nvme.purge.nvme_format_crypto = nvme.purge.nvme_sanitize_block = true;
  nvme.purge.discard = true;
  nvme.pci_address = "0000:3d:00.0";
  ids.push_back(nvme);
  device::DeviceIdentity ata;
  ata.path = ata.canonical_path = ata.device_path = "/dev/sda";
  ata.kernel_name = "sda";
  ata.transport = device::Transport::ata;
  ata.source = "ata-identify";
  ata.model = "ACME SATA SSD";
  ata.serial = "123";
  ata.capacity_bytes = 480'103'981'056;
  ata.logical_block_bytes = 512;
  ata.physical_block_bytes = 4096;
  ata.ata_security = device::AtaSecurity{true, false, false, true, false, true, 2, 2};
  ata.purge.scsi_sanitize = false;
  ids.push_back(ata);
  device::DeviceIdentity zram;
  zram.path = zram.canonical_path = "/dev/zram0";
  zram.transport = device::Transport::zram;
  zram.source = "sysfs";
  zram.compression_algorithm = "lzo-rle";
  zram.disksize_bytes = 1 << 30;
  ids.push_back(zram);
  device::DeviceIdentity file;
  file.path = "target.img";
  file.canonical_path = "/dev/shm/target.img";
  file.transport = device::Transport::file;
  file.source = "file";
  file.filesystem = "tmpfs";
  file.mount_point = "/dev/shm";
  ids.push_back(file);
  for (const device::DeviceIdentity& id : ids) {
    SCOPED_TRACE(device::to_string(id.transport));
    const std::vector<std::string> errors = validate_json_at(json(id), schema(), "#/$defs/device_identity");
    EXPECT_TRUE(errors.empty()) << joined(errors);
  }
  // The transport decides which block must be present.
  json loop = ids[0];
  loop.erase("loop");
  expect_damage(validate_json_at(loop, schema(), "#/$defs/device_identity"),
                Damage{"(root)", "Missing required property 'loop'"});
  json nvme_with_loop = ids[1];
  nvme_with_loop["loop"] = json(ids[0]).at("loop");
  expect_damage(validate_json_at(nvme_with_loop, schema(), "#/$defs/device_identity"),
                Damage{"/loop", "is not allowed here (its schema is false)"});
}

TEST(ResultsSchema, SkippedPurgeRecord) {
  // The shape DeviceExecutor records for --set purge.method=none (the CLI test runs it for real).
  const json skipped{
      {"method", "none"},          {"pts_compliant", false},
      {"outcome", "skipped"},      {"description", "purge skipped by the purge.method=none setting (not a PTS run)"},
      {"step", "iops/main/purge"}, {"phase", "main"}};
  EXPECT_TRUE(validate_json_at(skipped, schema(), "#/$defs/purge_record").empty());
  json mixed = skipped;
  mixed["outcome"] = "succeeded";
  expect_damage(validate_json_at(mixed, schema(), "#/$defs/purge_record"),
                Damage{"/outcome", "Failed to match expected value set by 'const' constraint."});
  json device_purge = purge_record("auto");
  device_purge["step"] = "iops/main/purge";
  device_purge["phase"] = "main";
  EXPECT_TRUE(validate_json_at(device_purge, schema(), "#/$defs/purge_record").empty());
  device_purge["outcome"] = "skipped";
  expect_damage(validate_json_at(device_purge, schema(), "#/$defs/purge_record"),
                Damage{"/outcome", "Failed to match against any enum values."});
}

// --- corrupted documents are rejected where the damage is ---------------------------------

class CorruptedDocument : public ::testing::Test {
 protected:
  static json valid() {
    static const json doc = document(variants().at(0), run_variant(0));
    return doc;
  }
  static std::vector<std::string> errors_after(const std::function<void(json&)>& damage) {
    json doc = valid();
    damage(doc);
    return validate_json(doc, schema());
  }
  static size_t setting_index(const json& doc, const std::string& name) {
    for (size_t i = 0; i < doc.at("settings").size(); ++i) {
      if (doc.at("settings")[i].at("name") == name) {
        return i;
      }
    }
    ADD_FAILURE() << "no setting " << name;
    return 0;
  }
};

TEST_F(CorruptedDocument, TheUndamagedDocumentIsValid) {
  EXPECT_EQ(validate_json(valid(), schema()), std::vector<std::string>{});
}

TEST_F(CorruptedDocument, MissingKey) {
  expect_damage(errors_after([](json& d) { d["run"].erase("status"); }),
                Damage{"/run", "Missing required property 'status'"});
  expect_damage(
      errors_after([](json& d) { d["tests"][2]["phases"][0]["rounds"][1]["segments"][3].erase("histograms"); }),
      Damage{"/tests/2/phases/0/rounds/1/segments/3", "Missing required property 'histograms'"});
  // A finished run must carry its verdicts.
  expect_damage(errors_after([](json& d) { d.erase("compliance"); }),
                Damage{"(root)", "Missing required property 'compliance'"});
  // ... which a run still in progress does not have yet.
  EXPECT_EQ(errors_after([](json& d) {
              d.erase("compliance");
              d.erase("health");
              d["run"]["status"] = "running";
            }),
            std::vector<std::string>{});
  // Each test has its own block.
  expect_damage(errors_after([](json& d) { d["tests"][0].erase("matrix"); }),
                Damage{"/tests/0", "Missing required property 'matrix'"});
}

TEST_F(CorruptedDocument, WrongType) {
  expect_damage(errors_after([](json& d) { d["tests"][0]["phases"][0]["steady_state"]["attained"] = "yes"; }),
                Damage{"/tests/0/phases/0/steady_state/attained", "Value type not permitted by 'type' constraint."});
  expect_damage(errors_after([](json& d) { d["tests"][1]["table"][0]["write_mb_per_s"] = "1150"; }),
                Damage{"/tests/1/table/0/write_mb_per_s", "Value type not permitted by 'type' constraint."});
  expect_damage(errors_after([](json& d) { d["tests"][2]["captures"][0]["result"]["elapsed_ns"] = 1.5; }),
                Damage{"/tests/2/captures/0/result/elapsed_ns", "Value type not permitted by 'type' constraint."});
  expect_damage(errors_after([](json& d) { d["target"] = nullptr; }),
                Damage{"/target", "Value type not permitted by 'type' constraint."});
  // A count setting holding text (its type decides the value's JSON type).
  expect_damage(errors_after([](json& d) { d["settings"][setting_index(d, "max_rounds")]["value"] = "25"; }),
                Damage{"/settings/" + std::to_string(setting_index(valid(), "max_rounds")) + "/value",
                       "Value type not permitted by 'type' constraint."});
  // Inside a nullable field, the path still points at the damage.
  expect_damage(
      errors_after([](json& d) { d["tests"][4]["phases"][1]["rounds"][0]["before_round"]["result"]["seed"] = -1; }),
      Damage{"/tests/4/phases/1/rounds/0/before_round/result/seed", "greater than or equal to 0"});
}

TEST_F(CorruptedDocument, BadEnum) {
  expect_damage(
      errors_after([](json& d) { d["tests"][0]["compliance"]["clauses"][0]["status"] = "passed"; }),
      Damage{"/tests/0/compliance/clauses/0/status", "Failed to match against any enum values. (\"passed\")"});
  expect_damage(errors_after([](json& d) { d["conventions"][0]["tag"] = "X"; }),
                Damage{"/conventions/0/tag", "Failed to match against any enum values."});
  expect_damage(errors_after([](json& d) { d["tests"][3]["wsat"]["stop_reason"] = "timeout"; }),
                Damage{"/tests/3/wsat/stop_reason", "Failed to match against any enum values."});
  expect_damage(errors_after([](json& d) { d["run"]["status"] = "done"; }),
                Damage{"/run/status", "Failed to match against any enum values."});
  expect_damage(
      errors_after([](json& d) { d["tests"][0]["phases"][0]["rounds"][0]["segments"][0]["stop_reason"] = "time"; }),
      Damage{"/tests/0/phases/0/rounds/0/segments/0/stop_reason", "Failed to match against any enum values."});
}

TEST_F(CorruptedDocument, ValuesOutOfRangeAndUnknownKeys) {
  expect_damage(
      errors_after([](json& d) {
        d["tests"][0]["phases"][0]["rounds"][0]["segments"][0]["histograms"]["combined"]["buckets"][0][1] = 0;
      }),
      Damage{"/tests/0/phases/0/rounds/0/segments/0/histograms/combined/buckets/0/1", "greater than or equal to 1"});
  expect_damage(errors_after([](json& d) { d["tests"][2]["extra"] = 1; }), Damage{"/tests/2", "'extra'."});
  expect_damage(errors_after([](json& d) { d["tests"][2]["table"] = d["tests"][1]["table"]; }),
                Damage{"/tests/2/table", "is not allowed here (its schema is false)"});
  expect_damage(errors_after([](json& d) { d["run"]["plan_fingerprint"] = "abc"; }),
                Damage{"/run/plan_fingerprint", "Failed to match regex specified by 'pattern' constraint."});
  expect_damage(errors_after([](json& d) { d["schema_version"] = 2; }),
                Damage{"/schema_version", "Failed to match expected value set by 'const' constraint."});
}

}  // namespace
}  // namespace ptsuite::pts
