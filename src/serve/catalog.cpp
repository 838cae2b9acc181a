// The pages' queries (serve/catalog.hpp). Every value from a request is a bound parameter;
// numbers (limits, offsets, the length of a date prefix) are inlined only as integers this
// code formatted; sort keys map to a fixed column list.
#include <ptsuite/serve/catalog.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <utility>

#include <ptsuite/history/drives.hpp>
#include <ptsuite/util/base64.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>

namespace ptsuite::serve {

namespace {

using history::Row;
using history::Value;

struct Where {
  std::string sql;
  std::vector<Value> params;
  void add(const std::string& clause, std::vector<Value> values = {}) {
    sql += (sql.empty() ? " WHERE " : " AND ") + clause;
    params.insert(params.end(), values.begin(), values.end());
  }
  void equals(const std::string& column, const std::string& value) {
    if (!value.empty()) add(column + " = ?", {value});
  }
};

std::string text(const Row& row, size_t i) { return row.at(i).value_or(""); }
int64_t integer(const Row& row, size_t i) { return row.at(i) ? std::stoll(*row.at(i)) : 0; }

// The one reader of a run's row: these columns of `runs r`, in this order (run_of_row()).
constexpr const char* k_run_columns =
    "r.id, r.run_uid, r.started_utc, r.finished_utc, r.status, r.device_vendor, r.device_model, r.device_serial, "
    "r.device_firmware, r.host, r.compliant, r.compliance_summary, r.tests, r.spec_revision, r.run_dir, "
    "r.bundle_manifest_sha256, (SELECT l.value FROM run_labels l WHERE l.run_id = r.id AND l.key = 'campaign'), "
    "r.simulated";
constexpr size_t k_run_column_count = 18;

std::vector<std::string> split_tests(const std::string& tests) {
  std::vector<std::string> out;
  for (size_t start = 0; start < tests.size();) {
    const size_t comma = std::min(tests.find(',', start), tests.size());
    out.push_back(tests.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

history::RunRecord run_of_row(const Row& row) {
  history::RunRecord r;
  r.id = integer(row, 0);
  std::string* const texts[] = {&r.run_uid,      &r.started_utc,   &r.finished_utc,    &r.status, &r.device_vendor,
                                &r.device_model, &r.device_serial, &r.device_firmware, &r.host};
  for (size_t i = 0; i < std::size(texts); ++i) *texts[i] = text(row, 1 + i);
  r.compliant = text(row, 10) == "1";
  r.compliance_summary = text(row, 11);
  r.tests = split_tests(text(row, 12));
  r.spec_revision = text(row, 13);
  r.run_dir = text(row, 14);
  r.bundle_stored = row.at(15).has_value();
  if (row.at(16)) r.labels.insert_or_assign("campaign", *row.at(16));
  r.simulated = text(row, 17) == "1";
  return r;
}

// The sort expressions: each matches an index of history migration 4 (an expression index on
// COALESCE(column, ''), then the start time and the id), so a page of the list reads its rows
// from the index instead of sorting every run.
constexpr const char* k_date_key = "COALESCE(r.started_utc, '')";

std::string order_by(const std::string& key, bool descending) {
  static const std::map<std::string, std::string> k_columns = {
      {"test", "r.tests"},
      {"model", "COALESCE(r.device_model, '')"},
      {"firmware", "COALESCE(r.device_firmware, '')"},
      {"serial", "COALESCE(r.device_serial, '')"},
      {"host", "COALESCE(r.host, '')"},
      {"verdict", "r.compliant"},
  };
  const char* dir = descending ? "DESC" : "ASC";
  if (key == "id") return fmt::format("r.id {}", dir);
  const auto it = k_columns.find(key);
  const std::string date = fmt::format("{} {}, r.id {}", k_date_key, dir, dir);
  return it == k_columns.end() ? date : fmt::format("{} {}, {}", it->second, dir, date);
}

Where device_filter(const std::string& model, const std::string& firmware, const std::string& serial,
                    const std::string& host) {
  Where w;
  w.equals("COALESCE(r.device_model, '')", model);
  w.equals("COALESCE(r.device_firmware, '')", firmware);
  w.equals("COALESCE(r.device_serial, '')", serial);
  w.equals("COALESCE(r.host, '')", host);
  return w;
}

// The SQL condition of a kind (run_kind() in SQL); "" for a kind that is not one.
std::string kind_condition(const std::string& kind) {
  static const std::map<std::string, std::string> prefixes = {
      {"scenario", "scenario %"}, {"app", "app %"}, {"replay", "replay %"}, {"capture", "capture"}};
  if (const auto it = prefixes.find(kind); it != prefixes.end()) {
    return "COALESCE(r.spec_revision, '') LIKE '" + it->second + "'";
  }
  if (kind != "pts") return "";
  std::string none;
  for (const auto& [other, prefix] : prefixes) {
    none += (none.empty() ? "" : " AND ") + ("COALESCE(r.spec_revision, '') NOT LIKE '" + prefix + "'");
  }
  return "(" + none + ")";
}

Where run_filter(const RunQuery& q) {
  Where w = device_filter(q.model, q.firmware, q.serial, q.host);
  if (!q.kind.empty()) {
    const std::string kind = kind_condition(q.kind);
    w.add(kind.empty() ? "1 = 0" : kind);  // an unknown kind matches no run
  }
  if (!q.test.empty()) w.add("r.id IN (SELECT run_id FROM run_tests WHERE test_id = ?)", {q.test});
  if (!q.campaign.empty()) {
    w.add("r.id IN (SELECT run_id FROM run_labels WHERE key = 'campaign' AND value = ?)", {q.campaign});
  }
  if (q.verdict == "compliant") w.add("r.compliant = 1");
  if (q.verdict == "not") w.add("r.compliant = 0 AND " + kind_condition("pts"));
  if (q.verdict == "none") w.add("NOT " + kind_condition("pts"));
  if (!q.from.empty()) w.add("r.started_utc >= ?", {q.from});
  if (!q.to.empty()) w.add(fmt::format("SUBSTR(r.started_utc, 1, {}) <= ?", q.to.size()), {q.to});
  return w;
}

}  // namespace

std::string run_kind(const history::RunRecord& r) {
  const std::string& revision = r.spec_revision;
  for (const char* kind : {"scenario", "app", "replay"}) {
    if (revision.rfind(std::string(kind) + " ", 0) == 0) return kind;
  }
  return revision == "capture" ? "capture" : "pts";
}

namespace {

size_t bounded(size_t limit) { return std::clamp<size_t>(limit, 1, k_max_download_rows); }

// Metrics of these runs, by run id, in (test, name) order.
std::map<int64_t, std::vector<history::Metric>> metrics_of(history::Backend& db, const std::string& run_ids_sql,
                                                           const std::vector<Value>& params) {
  std::map<int64_t, std::vector<history::Metric>> out;
  for (const Row& row : db.query("SELECT run_id, test_id, name, value, unit FROM run_metrics WHERE run_id IN (" +
                                     run_ids_sql + ") ORDER BY run_id, test_id, name",
                                 params)) {
    out[integer(row, 0)].push_back({text(row, 1), text(row, 2), std::stod(text(row, 3)), text(row, 4)});
  }
  return out;
}

std::string id_list(const std::vector<int64_t>& ids) {
  std::string out;
  for (const int64_t id : ids) out += (out.empty() ? "" : ", ") + std::to_string(id);
  return out.empty() ? "0" : out;
}

// The figures a drive row shows: the first of these its last run has (the 4 KiB random IOPS,
// 128 KiB sequential MB/s, WSAT's final IOPS, CBW's maximum, a scenario's last step).
std::vector<history::Metric> headline_of(const std::vector<history::Metric>& metrics) {
  static const std::array<const char*, 8> k_names = {"rnd_4KiB_read_iops",
                                                     "rnd_4KiB_write_iops",
                                                     "seq_128KiB_read_mb_per_s",
                                                     "seq_128KiB_write_mb_per_s",
                                                     "final_iops",
                                                     "max_iops",
                                                     "last_step_iops",
                                                     "last_step_mb_per_s"};
  std::vector<history::Metric> out;
  for (const char* name : k_names) {
    const auto it =
        std::find_if(metrics.begin(), metrics.end(), [&](const history::Metric& m) { return m.name == name; });
    if (it != metrics.end() && out.size() < 4) out.push_back(*it);
  }
  return out;
}

void add_registered_drives(history::Backend& db, const DriveQuery& q, std::map<std::string, DriveRow>& by_serial) {
  if (!q.host.empty() && !q.label.empty()) return;
  for (const history::FleetDrive& d : history::registered_drives(db, q.model, q.firmware, {})) {
    if (by_serial.count(d.serial) != 0 || (!q.serial.empty() && d.serial != q.serial)) continue;
    if (!q.host.empty() && d.node != q.host) continue;
    if (!q.label.empty()) {
      const size_t eq = q.label.find('=');
      const auto it = d.labels.find(q.label.substr(0, eq));
      if (eq == std::string::npos || it == d.labels.end() || it->second != q.label.substr(eq + 1)) continue;
    }
    DriveRow row;
    row.last.device_serial = d.serial;
    row.last.device_model = d.model;
    row.last.device_firmware = d.firmware;
    row.last.host = d.node;
    by_serial[d.serial] = row;
  }
}

// Metrics and labels of `out`'s runs (their ids are `ids_sql` with `params`), by run id.
void add_details(history::Backend& db, const std::string& ids_sql, const std::vector<Value>& params,
                 std::vector<history::RunRecord>& out, bool with_metrics) {
  std::map<int64_t, size_t> index;
  for (size_t i = 0; i < out.size(); ++i) index[out[i].id] = i;
  if (with_metrics) {
    for (auto& [id, metrics] : metrics_of(db, ids_sql, params)) {
      const auto it = index.find(id);
      if (it != index.end()) out[it->second].metrics = std::move(metrics);
    }
  }
  for (const Row& row :
       db.query("SELECT run_id, key, value FROM run_labels WHERE run_id IN (" + ids_sql + ")", params)) {
    const auto it = index.find(integer(row, 0));
    if (it != index.end()) out[it->second].labels[text(row, 1)] = text(row, 2);
  }
}

std::vector<history::RunRecord> read_runs(history::Backend& db, const std::string& sql,
                                          const std::vector<Value>& params) {
  std::vector<history::RunRecord> out;
  for (const Row& row : db.query(sql, params)) out.push_back(run_of_row(row));
  return out;
}

}  // namespace

RunPage Catalog::runs(const RunQuery& q) {
  const Where w = run_filter(q);
  RunPage page;
  const std::vector<Row> count = m_db.query("SELECT COUNT(*) FROM runs r" + w.sql, w.params);
  page.total = count.empty() ? 0 : static_cast<size_t>(integer(count[0], 0));
  page.rows = read_runs(m_db,
                        fmt::format("SELECT {} FROM runs r{} ORDER BY {} LIMIT {} OFFSET {}", k_run_columns, w.sql,
                                    order_by(q.sort, q.descending), bounded(q.limit), q.offset),
                        w.params);
  return page;
}

DrivePage Catalog::drives(const DriveQuery& q) {
  Where w = device_filter(q.model, q.firmware, q.serial, q.host);
  if (!q.label.empty()) {
    const size_t eq = q.label.find('=');
    w.add("r.id IN (SELECT run_id FROM run_labels WHERE key = ? AND value = ?)",
          {q.label.substr(0, eq), eq == std::string::npos ? std::string() : q.label.substr(eq + 1)});
  }
  // Each serial's latest matching run and its number of runs, in one pass of the database
  // over the serial index (window functions: SQLite 3.25+, PostgreSQL).
  const std::string sql = fmt::format(
      "SELECT {}, d.n FROM (SELECT r.id, COUNT(*) OVER (PARTITION BY COALESCE(r.device_serial, '')) AS n, "
      "ROW_NUMBER() OVER (PARTITION BY COALESCE(r.device_serial, '') ORDER BY {} DESC, r.id DESC) AS k FROM runs r{}) "
      "d "
      "JOIN runs r ON r.id = d.id WHERE d.k = 1",
      k_run_columns, k_date_key, w.sql);
  std::map<std::string, DriveRow> by_serial;
  for (const Row& row : m_db.query(sql, w.params)) {
    DriveRow d;
    d.last = run_of_row(row);
    d.runs = static_cast<size_t>(integer(row, k_run_column_count));
    by_serial[d.last.device_serial] = std::move(d);
  }
  add_registered_drives(m_db, q, by_serial);
  std::vector<DriveRow> all;
  all.reserve(by_serial.size());
  for (auto& [serial, row] : by_serial) all.push_back(std::move(row));
  std::stable_sort(all.begin(), all.end(), [](const DriveRow& a, const DriveRow& b) {
    return std::tie(a.last.device_model, a.last.device_firmware, a.last.device_serial) <
           std::tie(b.last.device_model, b.last.device_firmware, b.last.device_serial);
  });
  DrivePage page;
  page.total = all.size();
  const size_t begin = std::min(q.offset, all.size());
  const size_t end = std::min(all.size(), begin + bounded(q.limit));
  page.rows.assign(std::make_move_iterator(all.begin() + static_cast<ptrdiff_t>(begin)),
                   std::make_move_iterator(all.begin() + static_cast<ptrdiff_t>(end)));
  std::vector<int64_t> ids;
  for (const DriveRow& d : page.rows) {
    if (d.last.id != 0) ids.push_back(d.last.id);
  }
  const auto metrics = metrics_of(m_db, id_list(ids), {});
  for (DriveRow& d : page.rows) {
    const auto it = metrics.find(d.last.id);
    if (it != metrics.end()) d.headline = headline_of(it->second);
  }
  return page;
}

std::vector<CampaignRow> Catalog::campaigns() {
  std::vector<CampaignRow> out;
  for (const Row& row : m_db.query("SELECT l.value, COUNT(*), COUNT(DISTINCT r.device_serial), MAX(r.started_utc) "
                                   "FROM run_labels l JOIN runs r ON r.id = l.run_id WHERE l.key = 'campaign' "
                                   "GROUP BY l.value ORDER BY MAX(r.started_utc) DESC, l.value LIMIT " +
                                   std::to_string(k_max_download_rows))) {
    out.push_back(
        {text(row, 0), static_cast<size_t>(integer(row, 1)), static_cast<size_t>(integer(row, 2)), text(row, 3)});
  }
  return out;
}

std::optional<history::RunRecord> Catalog::run(int64_t id) { return m_store.get(id); }

std::vector<history::RunRecord> Catalog::runs_with_metrics(const std::string& column, const std::string& value,
                                                           size_t max_runs, bool with_metrics) {
  std::string where;
  if (column == "campaign") {
    where = "r.id IN (SELECT run_id FROM run_labels WHERE key = 'campaign' AND value = ?)";
  } else if (column == "device_model" || column == "device_serial") {
    where = "COALESCE(r." + column + ", '') = ?";
  } else {
    throw std::invalid_argument("runs_with_metrics: unknown column " + column);
  }
  // The latest max_runs, oldest first.
  const std::string ids =
      fmt::format("SELECT id FROM (SELECT r.id FROM runs r WHERE {} ORDER BY {} DESC, r.id DESC LIMIT {}) latest",
                  where, k_date_key, max_runs);
  std::vector<history::RunRecord> out = read_runs(
      m_db, fmt::format("SELECT {} FROM runs r WHERE r.id IN ({}) ORDER BY {}, r.id", k_run_columns, ids, k_date_key),
      {value});
  add_details(m_db, ids, {value}, out, with_metrics);
  return out;
}

TrendRuns Catalog::trend(const std::string& model, size_t max_runs) {
  TrendRuns trend;
  // The model's latest max_runs (id, serial, firmware), oldest first: the last seen of a
  // (firmware, serial) is its latest run.
  std::map<std::pair<std::string, std::string>, int64_t> latest;
  std::vector<Row> rows = m_db.query(
      fmt::format("SELECT r.id, COALESCE(r.device_serial, ''), COALESCE(r.device_firmware, '') FROM runs r WHERE "
                  "COALESCE(r.device_model, '') = ? ORDER BY {} DESC, r.id DESC LIMIT {}",
                  k_date_key, max_runs),
      {model});
  std::reverse(rows.begin(), rows.end());
  for (const Row& row : rows) {
    latest[{text(row, 2), text(row, 1)}] = integer(row, 0);
    if (std::find(trend.firmware.begin(), trend.firmware.end(), text(row, 2)) == trend.firmware.end()) {
      trend.firmware.push_back(text(row, 2));
    }
  }
  trend.runs = rows.size();
  std::vector<int64_t> ids;
  for (const auto& [key, id] : latest) ids.push_back(id);
  const std::string id_sql = id_list(ids);
  trend.latest = read_runs(m_db, fmt::format("SELECT {} FROM runs r WHERE r.id IN ({})", k_run_columns, id_sql), {});
  add_details(m_db, id_sql, {}, trend.latest, true);
  return trend;
}

std::optional<std::string> Catalog::results_text(const history::RunRecord& run) {
  if (run.bundle_stored) {
    const std::vector<Row> rows = m_db.query(
        "SELECT content_base64 FROM run_files WHERE run_id = ? AND path = 'results.json'", {std::to_string(run.id)});
    if (!rows.empty()) {
      return base64_decode(text(rows[0], 0), fmt::format("history run {} results.json", run.id));
    }
  }
  std::error_code ec;
  const std::filesystem::path path = std::filesystem::path(run.run_dir) / "results.json";
  if (run.run_dir.empty() || !std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  return read_input_file(path, k_document_json_limits.max_bytes, "");
}

std::vector<history::BundleFile> Catalog::bundle(int64_t id) { return m_store.bundle_files(id); }

}  // namespace ptsuite::serve
