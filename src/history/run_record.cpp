#include <ptsuite/history/run_record.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/bundle/signature.hpp>
#include <ptsuite/results/compliance.hpp>
#include <ptsuite/results/demand_sweep.hpp>
#include <ptsuite/results/grid_matrix.hpp>
#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/round_phase.hpp>
#include <ptsuite/results/scenario_document.hpp>
#include <ptsuite/results/throughput_table.hpp>
#include <ptsuite/results/write_stream.hpp>
#include <ptsuite/util/atomic_file.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/sha256.hpp>

namespace ptsuite::history {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using results::at;

// A text member; "" unless a string.
std::string text(const json& j) { return j.is_string() ? j.get<std::string>() : std::string(); }

void add_number(std::vector<Metric>& out, const std::string& test, const std::string& name, double value,
                const char* unit) {
  if (!std::isnan(value)) {  // NaN: not in the document
    out.push_back({test, name, value, unit});
  }
}

// IOPS and Latency: the matrix cell [row "4KiB"][column mix] of each metric.
void matrix_metrics(const std::string& id, const json& test, std::vector<Metric>& out) {
  using results::GridMetric;
  const results::GridMatrix m = results::read_grid_matrix(at(test, "matrix"));
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
      if (id == "iops") {
        add_number(out, id, base + "_iops", m.cell(GridMetric::iops, r, c), "IOPS");
      } else {
        add_number(out, id, base + "_mean_ns", m.cell(GridMetric::latency_mean_ns, r, c), "ns");
        add_number(out, id, base + "_p99_999_ns", m.cell(GridMetric::latency_p99_999_ns, r, c), "ns");
        add_number(out, id, base + "_max_ns", m.cell(GridMetric::latency_max_ns, r, c), "ns");
      }
    }
  }
}

void throughput_metrics(const json& test, std::vector<Metric>& out) {
  for (const results::ThroughputRow& row : results::read_throughput_table(at(test, "table"))) {
    add_number(out, "throughput", fmt::format("seq_{}_read_mb_per_s", row.block_size), row.read_mb_per_s, "MB/s");
    add_number(out, "throughput", fmt::format("seq_{}_write_mb_per_s", row.block_size), row.write_mb_per_s, "MB/s");
  }
}

void wsat_metrics(const json& test, std::vector<Metric>& out) {
  const results::WriteStreamBlock wsat = results::read_write_stream(at(test, "wsat"));
  if (wsat.samples.empty()) {
    return;
  }
  const results::WriteStreamSample& last = wsat.samples.back();
  add_number(out, "wsat", "final_iops", last.iops, "IOPS");
  add_number(out, "wsat", "final_mean_ns", last.latency.latency_mean_ns, "ns");
  add_number(out, "wsat", "drive_fills", last.drive_fills, "drive fills");
}

void cbw_metrics(const json& test, std::vector<Metric>& out) {
  for (const results::OperatingPoint& p : results::read_demand_sweep(at(test, "cbw")).operating_points) {
    add_number(out, "cbw", p.name + "_iops", p.iops, "IOPS");
    add_number(out, "cbw", p.name + "_mean_ns", p.latency_mean_ns, "ns");
  }
}

std::string steady_state_text(const json& test) {
  std::string out;
  for (const results::RoundPhase& p : results::read_round_phases(at(test, "phases"))) {
    const results::PhaseSteadyState& ss = p.steady_state;
    out += fmt::format("{}{}: {}", out.empty() ? "" : "; ", p.phase,
                       ss.attained ? fmt::format("attained at Round {}",
                                                 ss.attained_round ? std::to_string(*ss.attained_round) : "null")
                                   : fmt::format("NOT attained ({} Rounds)", ss.rounds_run));
  }
  return out.empty() ? "n/a" : out;
}

int64_t preflight_warnings(const json& results) {
  int64_t warnings = 0;
  for (const json& session : at(results, {"preflight"})) {
    for (const json& f : at(session, {"findings"})) {
      warnings += text(at(f, {"severity"})) == "warning" ? 1 : 0;
    }
  }
  return warnings;
}

// Stable across resume, sign and moving the directory: when the run started and what it planned.
std::string run_uid(const json& results) {
  const std::string basis = text(at(results, {"run", "started_utc"})) + "\n" +
                            text(at(results, {"run", "plan_fingerprint"})) + "\n" +
                            text(at(results, {"device", "serial"}));
  return sha256_hex(basis).substr(0, 32);
}

}  // namespace

std::vector<Metric> headline_metrics(const json& test) {
  std::vector<Metric> out;
  const std::string id = text(at(test, {"id"}));
  if (id == "iops" || id == "latency") {
    matrix_metrics(id, test, out);
  } else if (id == "throughput") {
    throughput_metrics(test, out);
  } else if (id == "wsat") {
    wsat_metrics(test, out);
  } else if (id == "cbw") {
    cbw_metrics(test, out);
  }
  return out;
}

RunRecord record_from_results(const json& results, const fs::path& dir) {
  if (results.is_object() && text(at(results, {"kind"})) == "ptsuite.scenario") {
    return record_from_scenario(ptsuite::results::read_scenario_document(results), dir);
  }
  if (!results.is_object() || text(at(results, {"kind"})) != "ptsuite.results") {
    throw UsageError(dir.string(),
                     "not a ptsuite results document (no \"kind\": \"ptsuite.results\" or \"ptsuite.scenario\")");
  }
  RunRecord r;
  r.run_uid = run_uid(results);
  r.run_dir = fs::absolute(dir).lexically_normal().string();
  r.started_utc = text(at(results, {"run", "started_utc"}));
  r.finished_utc = text(at(results, {"run", "finished_utc"}));
  r.status = text(at(results, {"run", "status"}));
  const json& device = at(results, {"device"});
  r.device_vendor = text(at(device, {"vendor"}));
  r.device_model = text(at(device, {"model"}));
  r.device_serial = text(at(device, {"serial"}));
  r.device_firmware = text(at(device, {"firmware"}));
  r.device_transport = text(at(device, {"transport"}));
  const json& capacity = at(results, {"target", "capacity_bytes"});
  r.capacity_bytes = capacity.is_number_unsigned() ? std::optional<uint64_t>(capacity.get<uint64_t>()) : std::nullopt;
  r.spec_revision = text(at(results, {"spec", "revision"}));
  r.spec_profile = text(at(results, {"spec", "profile"}));
  const results::ComplianceRecord compliance = results::read_compliance(at(results, "compliance"));
  r.compliant = compliance.compliant;
  r.compliance_summary = compliance.summary;
  r.tested_by = text(at(results, {"config", "tested_by"}));
  r.tool_version = text(at(results, {"tool", "version"}));
  r.tool_git_revision = text(at(results, {"tool", "git_revision"}));
  if (results.contains("preflight")) {
    r.preflight_warnings = preflight_warnings(results);
  }
  for (const json& test : at(results, {"tests"})) {
    const std::string id = text(at(test, {"id"}));
    if (std::find(r.tests.begin(), r.tests.end(), id) != r.tests.end()) {
      throw UsageError(dir.string(), fmt::format("results.json lists test \"{}\" twice; a run holds each test once "
                                                 "(the document was edited or damaged)",
                                                 printable(id)));
    }
    r.tests.push_back(id);
    const results::ComplianceRecord verdict = results::read_compliance(at(test, "compliance"));
    r.test_summaries.push_back({id, verdict.compliant, verdict.summary, steady_state_text(test)});
    for (Metric& m : headline_metrics(test)) {
      r.metrics.push_back(std::move(m));
    }
  }
  return r;
}

RunRecord record_from_run_dir(const fs::path& dir, const std::function<void(const json&, const std::string&)>& check) {
  const fs::path path = dir / "results.json";
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    throw UsageError(dir.string(), "no results.json here: not a ptsuite run directory");
  }
  const json results = load_json_input(path, path.string(), k_document_json_limits);
  if (check) check(results, path.string());
  RunRecord r = record_from_results(results, dir);
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

}  // namespace ptsuite::history
