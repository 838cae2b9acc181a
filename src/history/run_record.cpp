#include <ptsuite/history/run_record.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/bundle/signature.hpp>
#include <ptsuite/util/atomic_file.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/sha256.hpp>

namespace ptsuite::history {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The value at a key path, or null (results documents use null for unknown).
const json& at(const json& j, std::initializer_list<const char*> path) {
  static const json k_null;
  const json* cur = &j;
  for (const char* key : path) {
    if (!cur->is_object() || !cur->contains(key)) {
      return k_null;
    }
    cur = &(*cur)[key];
  }
  return *cur;
}

std::string text(const json& j) { return j.is_string() ? j.get<std::string>() : std::string(); }

void add_number(std::vector<Metric>& out, const std::string& test, const std::string& name, const json& value,
                const char* unit) {
  if (value.is_number()) {
    out.push_back({test, name, value.get<double>(), unit});
  }
}

// IOPS and Latency: the matrix cell [row "4KiB"][column mix] of each metric.
void matrix_metrics(const json& test, std::vector<Metric>& out) {
  const std::string id = text(test.at("id"));
  const json& m = at(test, {"matrix"});
  const json& rows = at(m, {"rows"});
  const json& columns = at(m, {"columns"});
  if (!rows.is_array() || !columns.is_array()) {
    return;
  }
  size_t row = rows.size();
  for (size_t r = 0; r < rows.size(); ++r) {
    row = text(rows[r]) == "4KiB" ? r : row;
  }
  const std::pair<const char*, const char*> mixes[] = {{"100/0", "read"}, {"65/35", "65_35"}, {"0/100", "write"}};
  for (const auto& [mix, label] : mixes) {
    for (size_t c = 0; c < columns.size() && row < rows.size(); ++c) {
      if (text(columns[c]) != mix) {
        continue;
      }
      const std::string base = fmt::format("rnd_4KiB_{}", label);
      auto cell = [&](const char* key) -> json {
        const json& grid = at(m, {key});
        const bool present = grid.is_array() && row < grid.size() && grid[row].is_array() && c < grid[row].size();
        return present ? grid[row][c] : json();
      };
      if (id == "iops") {
        add_number(out, id, base + "_iops", cell("iops"), "IOPS");
      } else {
        add_number(out, id, base + "_mean_ns", cell("latency_mean_ns"), "ns");
        add_number(out, id, base + "_p99_999_ns", cell("latency_p99_999_ns"), "ns");
        add_number(out, id, base + "_max_ns", cell("latency_max_ns"), "ns");
      }
    }
  }
}

void throughput_metrics(const json& test, std::vector<Metric>& out) {
  const json& table = at(test, {"table"});
  for (const json& row : table.is_array() ? table : json::array()) {
    const std::string size = text(at(row, {"block_size"}));
    add_number(out, "throughput", fmt::format("seq_{}_read_mb_per_s", size), at(row, {"read_mb_per_s"}), "MB/s");
    add_number(out, "throughput", fmt::format("seq_{}_write_mb_per_s", size), at(row, {"write_mb_per_s"}), "MB/s");
  }
}

void wsat_metrics(const json& test, std::vector<Metric>& out) {
  const json& samples = at(test, {"wsat", "samples"});
  if (!samples.is_array() || samples.empty()) {
    return;
  }
  const json& last = samples.back();
  add_number(out, "wsat", "final_iops", at(last, {"iops"}), "IOPS");
  add_number(out, "wsat", "final_mean_ns", at(last, {"latency_mean_ns"}), "ns");
  add_number(out, "wsat", "drive_fills", at(last, {"drive_fills"}), "drive fills");
}

void cbw_metrics(const json& test, std::vector<Metric>& out) {
  const json& points = at(test, {"cbw", "operating_points"});
  for (const json& p : points.is_array() ? points : json::array()) {
    const std::string name = text(at(p, {"name"}));
    add_number(out, "cbw", name + "_iops", at(p, {"iops"}), "IOPS");
    add_number(out, "cbw", name + "_mean_ns", at(p, {"latency_mean_ns"}), "ns");
  }
}

std::string steady_state_text(const json& test) {
  const json& phases = at(test, {"phases"});
  std::string out;
  for (const json& p : phases.is_array() ? phases : json::array()) {
    const json& ss = at(p, {"steady_state"});
    if (!ss.is_object()) {
      continue;
    }
    const bool attained = at(ss, {"attained"}).is_boolean() && ss.at("attained").get<bool>();
    out += fmt::format("{}{}: {}", out.empty() ? "" : "; ", text(at(p, {"phase"})),
                       attained ? fmt::format("attained at Round {}", at(ss, {"attained_round"}).dump())
                                : fmt::format("NOT attained ({} Rounds)", at(ss, {"rounds_run"}).dump()));
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
    matrix_metrics(test, out);
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
  if (!results.is_object() || text(at(results, {"kind"})) != "ptsuite.results") {
    throw UsageError(dir.string(), "not a ptsuite results document (no \"kind\": \"ptsuite.results\")");
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
  r.compliant = at(results, {"compliance", "compliant"}).is_boolean() && results["compliance"]["compliant"].get<bool>();
  r.compliance_summary = text(at(results, {"compliance", "summary"}));
  r.tested_by = text(at(results, {"config", "tested_by"}));
  r.tool_version = text(at(results, {"tool", "version"}));
  r.tool_git_revision = text(at(results, {"tool", "git_revision"}));
  if (results.contains("preflight")) {
    r.preflight_warnings = preflight_warnings(results);
  }
  for (const json& test : at(results, {"tests"})) {
    const std::string id = text(at(test, {"id"}));
    r.tests.push_back(id);
    const json& compliant = at(test, {"compliance", "compliant"});
    r.test_summaries.push_back({id, compliant.is_boolean() && compliant.get<bool>(),
                                text(at(test, {"compliance", "summary"})), steady_state_text(test)});
    for (Metric& m : headline_metrics(test)) {
      r.metrics.push_back(std::move(m));
    }
  }
  return r;
}

RunRecord record_from_run_dir(const fs::path& dir) {
  const fs::path path = dir / "results.json";
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    throw UsageError(dir.string(), "no results.json here: not a ptsuite run directory");
  }
  json results;
  try {
    results = json::parse(read_file(path));
  } catch (const json::parse_error&) {
    throw UsageError(path.string(), "not valid JSON");
  }
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
