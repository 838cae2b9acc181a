#include <ptsuite/history/run_record.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>
#include <variant>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/bundle/signature.hpp>
#include <ptsuite/results/document.hpp>
#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/run_document.hpp>
#include <ptsuite/results/scenario_document.hpp>
#include <ptsuite/results/test_kinds.hpp>
#include <ptsuite/results/test_record.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/sha256.hpp>

namespace ptsuite::history {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

void add_number(std::vector<Metric>& out, const std::string& test, const std::string& name, double value,
                const char* unit) {
  if (!std::isnan(value)) {  // NaN: not in the document
    out.push_back({test, name, value, unit});
  }
}

// IOPS and Latency: the matrix cell [row "4KiB"][column mix] of each metric (IOPS: the IOPS;
// Latency: ART, five nines, MRT).
template <typename Kind>
void matrix_metrics(Kind /*kind*/, const results::GridMatrix& m, std::vector<Metric>& out) {
  constexpr bool latency = std::is_same_v<Kind, results::test_kind::latency>;
  const std::string id(Kind::id);
  using results::GridMetric;
  const auto row =
      std::find_if(m.rows.begin(), m.rows.end(), [](const results::BlockSizeKey& k) { return k.label == "4KiB"; });
  if (row == m.rows.end()) {
    return;
  }
  const size_t r = static_cast<size_t>(row - m.rows.begin());
  const std::pair<const char*, const char*> mixes[] = {{"100/0", "read"}, {"65/35", "65_35"}, {"0/100", "write"}};
  for (const auto& [mix, label] : mixes) {
    for (size_t c = 0; c < m.columns.size(); ++c) {
      if (m.columns[c].label != mix) {
        continue;
      }
      const std::string base = fmt::format("rnd_4KiB_{}", label);
      if constexpr (!latency) {
        add_number(out, id, base + "_iops", m.cell(GridMetric::iops, r, c), "IOPS");
      } else {
        add_number(out, id, base + "_mean_ns", m.cell(GridMetric::latency_mean_ns, r, c), "ns");
        add_number(out, id, base + "_p99_999_ns", m.cell(GridMetric::latency_p99_999_ns, r, c), "ns");
        add_number(out, id, base + "_max_ns", m.cell(GridMetric::latency_max_ns, r, c), "ns");
      }
    }
  }
}

void throughput_metrics(const results::ThroughputTable& table, std::vector<Metric>& out) {
  for (const results::ThroughputRow& row : table.rows) {
    add_number(out, "throughput", fmt::format("seq_{}_read_mb_per_s", row.block_size), row.read_mb_per_s, "MB/s");
    add_number(out, "throughput", fmt::format("seq_{}_write_mb_per_s", row.block_size), row.write_mb_per_s, "MB/s");
  }
}

void wsat_metrics(const results::WriteStreamBlock& wsat, std::vector<Metric>& out) {
  if (wsat.samples.empty()) {
    return;
  }
  const results::WriteStreamSample& last = wsat.samples.back();
  add_number(out, "wsat", "final_iops", last.iops, "IOPS");
  add_number(out, "wsat", "final_mean_ns", last.latency.latency_mean_ns, "ns");
  add_number(out, "wsat", "drive_fills", last.drive_fills, "drive fills");
}

void cbw_metrics(const results::DemandSweepBlock& cbw, std::vector<Metric>& out) {
  for (const results::OperatingPoint& p : cbw.operating_points) {
    add_number(out, "cbw", p.name + "_iops", p.iops, "IOPS");
    add_number(out, "cbw", p.name + "_mean_ns", p.latency_mean_ns, "ns");
  }
}

std::string steady_state_text(const results::TestRecord& test) {
  std::string out;
  for (const results::RoundPhase& p : test.phases) {
    const results::PhaseSteadyState& ss = p.steady_state;
    out += fmt::format("{}{}: {}", out.empty() ? "" : "; ", p.phase,
                       ss.attained ? fmt::format("attained at Round {}",
                                                 ss.attained_round ? std::to_string(*ss.attained_round) : "null")
                                   : fmt::format("NOT attained ({} Rounds)", ss.rounds_run));
  }
  return out.empty() ? "n/a" : out;
}

int64_t preflight_warnings(const results::RunHeader& header) {
  int64_t warnings = 0;
  for (const results::PreflightSession& session : header.preflight) {
    for (const results::PreflightFinding& f : session.findings) {
      warnings += f.severity == "warning" ? 1 : 0;
    }
  }
  return warnings;
}

// Stable across resume, sign and moving the directory: the id the run drew when it started
// (pts/run.hpp); documents of earlier versions: when it started, what it planned, on which serial.
std::string run_uid(const results::RunHeader& header) {
  if (!header.run.run_uid.empty()) {
    return header.run.run_uid;
  }
  const std::string basis =
      header.run.sessions.started_utc + "\n" + header.run.plan_fingerprint + "\n" + header.device.serial;
  return sha256_hex(basis).substr(0, 32);
}

// The metrics of the tests the history keeps, one overload per test kind (results/test_kinds.hpp).
namespace kind = results::test_kind;
void metrics(kind::iops k, const results::GridMatrix& m, std::vector<Metric>& out) { matrix_metrics(k, m, out); }
void metrics(kind::latency k, const results::GridMatrix& m, std::vector<Metric>& out) { matrix_metrics(k, m, out); }
void metrics(kind::throughput /*kind*/, const results::ThroughputTable& t, std::vector<Metric>& out) {
  throughput_metrics(t, out);
}
void metrics(kind::wsat /*kind*/, const results::WriteStreamBlock& w, std::vector<Metric>& out) {
  wsat_metrics(w, out);
}
void metrics(kind::cbw /*kind*/, const results::DemandSweepBlock& d, std::vector<Metric>& out) { cbw_metrics(d, out); }
template <typename Kind>
void metrics(Kind /*kind*/, const typename Kind::Block& /*block*/, std::vector<Metric>& /*out*/) {}

}  // namespace

std::vector<Metric> headline_metrics(const results::TestRecord& test) {
  std::vector<Metric> out;
  results::visit_test_kind(test.header.id, [&](auto kind) {
    if (const auto* block = results::block_of(kind, test); block != nullptr) {
      metrics(kind, *block, out);
    }
  });
  return out;
}

RunRecord record_from_document(const results::RunDocument& doc, const fs::path& dir) {
  const results::RunHeader& h = doc.header;
  RunRecord r;
  r.run_uid = run_uid(h);
  r.run_dir = fs::absolute(dir).lexically_normal().string();
  r.started_utc = h.run.sessions.started_utc;
  r.finished_utc = h.run.finished_utc;
  r.status = h.run.status;
  r.device_vendor = h.device.vendor;
  r.device_model = h.device.model;
  r.device_serial = h.device.serial.empty() ? h.device.asset_serial : h.device.serial;
  r.device_firmware = h.device.firmware;
  r.device_transport = h.device.transport;
  // 0 = not in the document (no target has zero bytes).
  r.capacity_bytes = h.target.capacity_bytes != 0 ? std::optional<uint64_t>(h.target.capacity_bytes) : std::nullopt;
  r.spec_revision = h.spec.revision;
  r.spec_profile = h.spec.profile;
  r.compliant = doc.compliance.compliant;
  r.compliance_summary = doc.compliance.summary;
  r.tested_by = h.config.tested_by;
  r.tool_version = h.tool.version;
  r.tool_git_revision = h.tool.git_revision;
  r.host = h.run.host;
  r.labels = h.config.labels;
  r.simulated = h.simulation.has_value();
  if (h.preflight_recorded) {  // runs older than the host preflight have none: unknown, not zero
    r.preflight_warnings = preflight_warnings(h);
  }
  for (const results::TestRecord& test : doc.tests) {
    const std::string& id = test.header.id;
    if (std::find(r.tests.begin(), r.tests.end(), id) != r.tests.end()) {
      throw UsageError(dir.string(), fmt::format("results.json lists test \"{}\" twice; a run holds each test once "
                                                 "(the document was edited or damaged)",
                                                 printable(id)));
    }
    r.tests.push_back(id);
    r.test_summaries.push_back({id, test.compliance.compliant, test.compliance.summary, steady_state_text(test)});
    for (Metric& m : headline_metrics(test)) {
      r.metrics.push_back(std::move(m));
    }
  }
  return r;
}

namespace {

// One overload per kind of the list (results/document_kinds.def): a kind the history keeps has
// its record_from_<kind>(); one it does not keep (a comparison is not a run) is refused.
RunRecord kind_record(const results::RunDocument& d, const fs::path& dir) { return record_from_document(d, dir); }
RunRecord kind_record(const results::ScenarioDocument& d, const fs::path& dir) { return record_from_scenario(d, dir); }
RunRecord kind_record(const results::AppRun& d, const fs::path& dir) { return record_from_app_run(d, dir); }
RunRecord kind_record(const results::ReplayRecord& d, const fs::path& dir) { return record_from_replay(d, dir); }
RunRecord kind_record(const results::IoCharacterization& d, const fs::path& dir) { return record_from_capture(d, dir); }
RunRecord kind_record(const results::CampaignSummary& /*d*/, const fs::path& dir) {
  throw UsageError(dir.string(),
                   "holds a fleet campaign report (campaign.json), not a run: the history records runs, and "
                   "the campaign's runs are in it already (ptsuite history list --label campaign=NAME)");
}
RunRecord kind_record(const results::Comparison& /*d*/, const fs::path& dir) {
  throw UsageError(dir.string(),
                   "holds a comparison (compare.json), not a run: the history records runs; add the "
                   "compared runs' directories instead");
}

}  // namespace

std::vector<BundleFile> read_bundle_files(const fs::path& dir) {
  const bundle::VerifyReport report = bundle::verify_manifest(dir);
  if (!report.intact()) {
    throw UsageError(dir.string(), fmt::format("the bundle no longer matches its manifest ({}: {}); check it with "
                                               "`ptsuite verify {}`",
                                               bundle::to_string(report.problems.front().kind),
                                               report.problems.front().path, dir.string()));
  }
  std::vector<BundleFile> out;
  for (const bundle::ManifestEntry& e : report.manifest.files) {
    out.push_back({e.path, e.size_bytes, e.sha256, read_file(dir / e.path)});
  }
  for (const std::string_view name : {bundle::k_manifest_file_name, bundle::k_signature_file_name}) {
    const fs::path path = dir / std::string(name);
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
      std::string content = read_file(path);
      out.push_back({std::string(name), content.size(), sha256_hex(content), std::move(content)});
    }
  }
  return out;
}

void write_bundle_files(const std::vector<BundleFile>& files, const OutputDir& dir) {
  dir.create();
  for (const BundleFile& f : files) {
    const fs::path relative = fs::path(f.path).lexically_normal();
    if (relative.empty() || relative.is_absolute() || *relative.begin() == "..") {
      throw SystemError(fmt::format("the stored bundle names a file outside its directory ({})", printable(f.path)));
    }
    if (sha256_hex(f.content) != f.sha256) {
      throw SystemError(fmt::format("the stored bundle's {} does not match its SHA-256: the history's copy is damaged",
                                    printable(f.path)));
    }
    if (relative.has_parent_path()) dir.subdir(relative.parent_path().generic_string()).create();
    write_file_atomic(dir.file(relative.generic_string()), f.content);
  }
}

RunRecord record_of(const results::Document& doc, const fs::path& dir) {
  if (doc.as<results::RunDocument>() != nullptr && doc.as<results::RunDocument>()->header.kind != "ptsuite.results") {
    throw UsageError(dir.string(), "not a ptsuite results document (no \"kind\": \"ptsuite.results\")");
  }
  RunRecord r = doc.visit([&](const auto& record) { return kind_record(record, dir); });
  std::error_code ec;
  const fs::path manifest = dir / std::string(bundle::k_manifest_file_name);
  if (fs::is_regular_file(manifest, ec)) {
    (void)bundle::parse_manifest(read_file(manifest), manifest.string(), &r.manifest_sha256);
  }
  if (const std::optional<bundle::SignatureFile> signature = bundle::read_signature(dir)) {
    r.signature_fingerprint = signature->statement.key_fingerprint;
    r.signed_utc = signature->statement.signed_utc;
  }
  return r;
}

RunRecord record_from_results(nlohmann::json results, const fs::path& dir) {
  return record_of(ptsuite::results::read_document(std::move(results), dir.string()), dir);
}

RunRecord record_from_run_dir(const fs::path& dir, const std::function<void(const json&, const std::string&)>& check) {
  std::error_code ec;
  // A run's document, or the one of a directory that is no run (a comparison, a campaign
  // report: refused by name).
  const fs::path path = results::document_file_in(dir).value_or(dir / "results.json");
  if (!fs::is_regular_file(path, ec)) {
    throw UsageError(dir.string(), "no results.json here: not a ptsuite run directory");
  }
  json results = load_json_input(path, path.string(), k_document_json_limits);
  if (check) check(results, path.string());
  return record_of(ptsuite::results::read_document(std::move(results), path.string()), dir);
}

}  // namespace ptsuite::history
