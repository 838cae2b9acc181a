#include <ptsuite/history/store.hpp>

#include <fmt/format.h>

#include <ptsuite/history/migrations.hpp>
#include <ptsuite/util/base64.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::history {

namespace {

// The text columns of `runs` and the RunRecord members they hold, in one place for insert,
// update and select.
struct TextColumn {
  const char* name;
  std::string RunRecord::*member;
};
constexpr TextColumn k_text_columns[] = {
    {"run_dir", &RunRecord::run_dir},
    {"started_utc", &RunRecord::started_utc},
    {"finished_utc", &RunRecord::finished_utc},
    {"status", &RunRecord::status},
    {"device_vendor", &RunRecord::device_vendor},
    {"device_model", &RunRecord::device_model},
    {"device_serial", &RunRecord::device_serial},
    {"device_firmware", &RunRecord::device_firmware},
    {"device_transport", &RunRecord::device_transport},
    {"spec_revision", &RunRecord::spec_revision},
    {"spec_profile", &RunRecord::spec_profile},
    {"compliance_summary", &RunRecord::compliance_summary},
    {"tested_by", &RunRecord::tested_by},
    {"tool_version", &RunRecord::tool_version},
    {"tool_git_revision", &RunRecord::tool_git_revision},
    {"manifest_sha256", &RunRecord::manifest_sha256},
    {"signature_fingerprint", &RunRecord::signature_fingerprint},
    {"signed_utc", &RunRecord::signed_utc},
    {"host", &RunRecord::host},
};
// Then, in this order: capacity_bytes, tests, compliant, preflight_warnings, simulated.
constexpr size_t k_other_columns = 5;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) {
    out += (out.empty() ? "" : ",") + s;
  }
  return out;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    start = comma == std::string::npos ? text.size() : comma + 1;
  }
  return out;
}

std::string column_list() {
  std::string out;
  for (const TextColumn& c : k_text_columns) {
    out += std::string(c.name) + ", ";
  }
  return out + "capacity_bytes, tests, compliant, preflight_warnings, simulated";
}

std::vector<Value> column_values(const RunRecord& r) {
  std::vector<Value> values;
  for (const TextColumn& c : k_text_columns) {
    values.emplace_back(r.*c.member);
  }
  values.push_back(r.capacity_bytes ? Value(std::to_string(*r.capacity_bytes)) : std::nullopt);
  values.emplace_back(join(r.tests));
  values.emplace_back(r.compliant ? "1" : "0");
  values.push_back(r.preflight_warnings ? Value(std::to_string(*r.preflight_warnings)) : std::nullopt);
  values.emplace_back(r.simulated ? "1" : "0");
  return values;
}

// A row of SELECT id, run_uid, added_utc, updated_utc, bundle_manifest_sha256, <column_list()>.
RunRecord record_from_row(const Row& row) {
  RunRecord r;
  r.id = std::stoll(row.at(0).value_or("0"));
  r.run_uid = row.at(1).value_or("");
  r.added_utc = row.at(2).value_or("");
  r.updated_utc = row.at(3).value_or("");
  r.bundle_stored = row.at(4).has_value();
  size_t i = 5;
  for (const TextColumn& c : k_text_columns) {
    r.*c.member = row.at(i++).value_or("");
  }
  if (row.at(i)) {
    r.capacity_bytes = std::stoull(*row.at(i));
  }
  r.tests = split(row.at(i + 1).value_or(""));
  r.compliant = row.at(i + 2).value_or("0") == "1";
  if (row.at(i + 3)) {
    r.preflight_warnings = std::stoll(*row.at(i + 3));
  }
  r.simulated = row.at(i + 4).value_or("0") == "1";
  return r;
}

std::string select_runs(const std::string& where) {
  return "SELECT id, run_uid, added_utc, updated_utc, bundle_manifest_sha256, " + column_list() + " FROM runs" + where +
         " ORDER BY started_utc, id";
}

std::string placeholders(size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out += i == 0 ? "?" : ", ?";
  }
  return out;
}

// Doubles as text that reads back exactly (17 significant digits).
std::string number_text(double v) { return fmt::format("{:.17g}", v); }

}  // namespace

HistoryStore::HistoryStore(std::unique_ptr<Backend> backend) : m_backend(std::move(backend)) {
  (void)apply_migrations(*m_backend, history_migrations());
}

HistoryStore HistoryStore::open(const HistoryDb& db) { return HistoryStore(open_backend(db)); }

HistoryStore HistoryStore::open_readonly(const HistoryDb& db) {
  std::unique_ptr<Backend> backend = open_backend_readonly(db);
  const int known = history_migrations().back().version;
  int version = 0;
  try {
    const std::vector<Row> rows = backend->query("SELECT MAX(version) FROM ptsuite_schema");
    version = rows.empty() || !rows[0][0] ? 0 : std::stoi(*rows[0][0]);
  } catch (const SystemError&) {
    version = 0;  // no version table: not (yet) a ptsuite history
  }
  if (version < known) {
    throw UsageError("--db", fmt::format("{} is not a ptsuite history at schema version {} (it has {}); open it once "
                                         "with `ptsuite history list --db ...` to create or upgrade it",
                                         backend->describe(), known, version));
  }
  if (version > known) {
    throw UsageError("--db", fmt::format("the history database {} has schema version {}, newer than this ptsuite "
                                         "knows ({}); upgrade ptsuite",
                                         backend->describe(), version, known));
  }
  return HistoryStore(std::move(backend), NoMigration{});
}

// Tests, metrics, labels and (with `files`) the bundle of run `id`, whose rows of those tables
// are gone (a new run, or deleted by add()).
void HistoryStore::store_details(const RunRecord& record, const std::string& id, const std::vector<BundleFile>* files) {
  for (size_t i = 0; i < record.test_summaries.size(); ++i) {
    const TestSummary& t = record.test_summaries[i];
    (void)m_backend->query(
        "INSERT INTO run_tests (run_id, position, test_id, compliant, compliance_summary, steady_state) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        {id, std::to_string(i), t.test_id, t.compliant ? "1" : "0", t.compliance_summary, t.steady_state});
  }
  for (const Metric& m : record.metrics) {
    (void)m_backend->query("INSERT INTO run_metrics (run_id, test_id, name, value, unit) VALUES (?, ?, ?, ?, ?)",
                           {id, m.test_id, m.name, number_text(m.value), m.unit});
  }
  for (const auto& [key, value] : record.labels) {
    (void)m_backend->query("INSERT INTO run_labels (run_id, key, value) VALUES (?, ?, ?)", {id, key, value});
  }
  if (files == nullptr) {
    // A bundle stored with an earlier state of the run (another manifest) no longer matches it.
    const std::vector<Row> stored = m_backend->query("SELECT bundle_manifest_sha256 FROM runs WHERE id = ?", {id});
    if (!stored.empty() && stored[0][0] && *stored[0][0] != record.manifest_sha256) {
      (void)m_backend->query("DELETE FROM run_files WHERE run_id = ?", {id});
      (void)m_backend->query("UPDATE runs SET bundle_manifest_sha256 = NULL WHERE id = ?", {id});
    }
    return;
  }
  (void)m_backend->query("DELETE FROM run_files WHERE run_id = ?", {id});
  for (const BundleFile& f : *files) {
    (void)m_backend->query(
        "INSERT INTO run_files (run_id, path, size_bytes, sha256, content_base64) VALUES (?, ?, ?, ?, ?)",
        {id, f.path, std::to_string(f.size_bytes), f.sha256, base64_encode(f.content)});
  }
  (void)m_backend->query("UPDATE runs SET bundle_manifest_sha256 = ? WHERE id = ?", {record.manifest_sha256, id});
}

AddResult HistoryStore::add(const RunRecord& record, bool replace, const std::vector<BundleFile>* files) {
  static_assert(k_other_columns == 5, "column_values() and record_from_row() list five more columns");
  WriteTransaction transaction(*m_backend);
  const std::string now = utc_now_iso8601();
  AddResult result;
  const std::vector<Row> existing =
      m_backend->query("SELECT id, run_dir FROM runs WHERE run_uid = ?", {record.run_uid});
  if (!existing.empty() && !replace && existing[0].at(1).value_or("") != record.run_dir) {
    throw UsageError("RUN_DIR",
                     fmt::format("run {} in the history was recorded from {}, not {}; pass --replace to replace it "
                                 "(e.g. the directory was moved)",
                                 existing[0].at(0).value_or("?"), existing[0].at(1).value_or("?"), record.run_dir));
  }
  std::vector<Value> values = column_values(record);
  if (existing.empty()) {
    std::vector<Value> params = {record.run_uid, now, now};
    params.insert(params.end(), values.begin(), values.end());
    const std::vector<Row> rows =
        m_backend->query("INSERT INTO runs (run_uid, added_utc, updated_utc, " + column_list() + ") VALUES (" +
                             placeholders(params.size()) + ") RETURNING id",
                         params);
    result.id = std::stoll(rows.at(0).at(0).value());
  } else {
    result.id = std::stoll(existing[0][0].value());
    result.updated = true;
    std::string set = "updated_utc = ?";
    for (const TextColumn& c : k_text_columns) {
      set += fmt::format(", {} = ?", c.name);
    }
    set += ", capacity_bytes = ?, tests = ?, compliant = ?, preflight_warnings = ?, simulated = ?";
    std::vector<Value> params = {now};
    params.insert(params.end(), values.begin(), values.end());
    params.emplace_back(std::to_string(result.id));
    (void)m_backend->query("UPDATE runs SET " + set + " WHERE id = ?", params);
    for (const char* table : {"run_tests", "run_metrics", "run_labels"}) {
      (void)m_backend->query(fmt::format("DELETE FROM {} WHERE run_id = ?", table), {std::to_string(result.id)});
    }
  }
  store_details(record, std::to_string(result.id), files);
  transaction.commit();
  return result;
}

void HistoryStore::load_details(RunRecord& r, bool with_metrics) {
  const std::string id = std::to_string(r.id);
  for (const Row& row : m_backend->query("SELECT key, value FROM run_labels WHERE run_id = ?", {id})) {
    r.labels[row.at(0).value_or("")] = row.at(1).value_or("");
  }
  for (const Row& row :
       m_backend->query("SELECT test_id, compliant, compliance_summary, steady_state FROM run_tests WHERE run_id = ? "
                        "ORDER BY position",
                        {id})) {
    r.test_summaries.push_back(
        {row.at(0).value_or(""), row.at(1).value_or("0") == "1", row.at(2).value_or(""), row.at(3).value_or("")});
  }
  if (!with_metrics) {
    return;
  }
  // Metrics in the run's test order, then by name.
  for (const std::string& test : r.tests) {
    for (const Row& row : m_backend->query(
             "SELECT name, value, unit FROM run_metrics WHERE run_id = ? AND test_id = ? ORDER BY name", {id, test})) {
      r.metrics.push_back({test, row.at(0).value_or(""), std::stod(row.at(1).value_or("0")), row.at(2).value_or("")});
    }
  }
}

std::vector<RunRecord> HistoryStore::list(const RunFilter& filter, bool with_metrics) {
  std::string where;
  std::vector<Value> params;
  if (!filter.model.empty()) {
    where += " WHERE device_model = ?";
    params.emplace_back(filter.model);
  }
  if (!filter.serial.empty()) {
    where += where.empty() ? " WHERE device_serial = ?" : " AND device_serial = ?";
    params.emplace_back(filter.serial);
  }
  for (const auto& [key, value] : filter.labels) {
    where += where.empty() ? " WHERE " : " AND ";
    where += "id IN (SELECT run_id FROM run_labels WHERE key = ? AND value = ?)";
    params.emplace_back(key);
    params.emplace_back(value);
  }
  std::vector<RunRecord> out;
  for (const Row& row : m_backend->query(select_runs(where), params)) {
    out.push_back(record_from_row(row));
    load_details(out.back(), with_metrics);
  }
  return out;
}

std::optional<RunRecord> HistoryStore::get(int64_t id) {
  const std::vector<Row> rows = m_backend->query(select_runs(" WHERE id = ?"), {std::to_string(id)});
  if (rows.empty()) {
    return std::nullopt;
  }
  RunRecord r = record_from_row(rows[0]);
  load_details(r, true);
  return r;
}

std::vector<BundleFile> HistoryStore::bundle_files(int64_t id) {
  std::vector<BundleFile> out;
  for (const Row& row :
       m_backend->query("SELECT path, size_bytes, sha256, content_base64 FROM run_files WHERE run_id = ? ORDER BY path",
                        {std::to_string(id)})) {
    const std::string path = row.at(0).value_or("");
    out.push_back({path, std::stoull(row.at(1).value_or("0")), row.at(2).value_or(""),
                   base64_decode(row.at(3).value_or(""), fmt::format("history run {} file {}", id, path))});
  }
  return out;
}

std::optional<int64_t> HistoryStore::id_of(const std::string& run_uid) {
  const std::vector<Row> rows = m_backend->query("SELECT id FROM runs WHERE run_uid = ?", {run_uid});
  if (rows.empty() || !rows[0][0]) return std::nullopt;
  return std::stoll(*rows[0][0]);
}

RunRecord HistoryStore::get_or_throw(int64_t id) {
  std::optional<RunRecord> r = get(id);
  if (!r) {
    throw UsageError("ID", fmt::format("no run {} in the history ({}); list them with `ptsuite history list`", id,
                                       m_backend->describe()));
  }
  return *r;
}

}  // namespace ptsuite::history
