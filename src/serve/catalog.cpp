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

// The ORDER BY column of a sort key; the default (date) for anything else.
std::string sort_column(const std::string& key) {
  static const std::map<std::string, std::string> k_columns = {
      {"date", "COALESCE(r.started_utc, '')"},
      {"id", "r.id"},
      {"test", "r.tests"},
      {"model", "COALESCE(r.device_model, '')"},
      {"firmware", "COALESCE(r.device_firmware, '')"},
      {"serial", "COALESCE(r.device_serial, '')"},
      {"host", "COALESCE(r.host, '')"},
      {"verdict", "r.compliant"},
  };
  const auto it = k_columns.find(key);
  return it == k_columns.end() ? k_columns.at("date") : it->second;
}

Where run_filter(const RunQuery& q) {
  Where w;
  w.equals("r.device_model", q.model);
  w.equals("r.device_firmware", q.firmware);
  w.equals("r.device_serial", q.serial);
  w.equals("r.host", q.host);
  if (!q.test.empty()) w.add("r.id IN (SELECT run_id FROM run_tests WHERE test_id = ?)", {q.test});
  if (!q.campaign.empty()) {
    w.add("r.id IN (SELECT run_id FROM run_labels WHERE key = 'campaign' AND value = ?)", {q.campaign});
  }
  if (q.verdict == "compliant") w.add("r.compliant = 1");
  if (q.verdict == "not") w.add("r.compliant = 0");
  if (!q.from.empty()) w.add("r.started_utc >= ?", {q.from});
  if (!q.to.empty()) w.add(fmt::format("SUBSTR(r.started_utc, 1, {}) <= ?", q.to.size()), {q.to});
  return w;
}

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
    row.serial = d.serial;
    row.model = d.model;
    row.firmware = d.firmware;
    row.host = d.node;
    by_serial[d.serial] = row;
  }
}

}  // namespace

RunPage Catalog::runs(const RunQuery& q) {
  const Where w = run_filter(q);
  RunPage page;
  const std::vector<Row> count = m_db.query("SELECT COUNT(*) FROM runs r" + w.sql, w.params);
  page.total = count.empty() ? 0 : static_cast<size_t>(integer(count[0], 0));
  const char* dir = q.descending ? "DESC" : "ASC";
  const std::string sql = fmt::format(
      "SELECT r.id, r.started_utc, r.status, r.device_model, r.device_firmware, r.device_serial, r.host, r.tests, "
      "r.compliant, r.compliance_summary, r.spec_revision, (SELECT l.value FROM run_labels l WHERE l.run_id = r.id "
      "AND l.key = 'campaign') FROM runs r{} ORDER BY {} {}, r.id {} LIMIT {} OFFSET {}",
      w.sql, sort_column(q.sort), dir, dir, bounded(q.limit), q.offset);
  for (const Row& row : m_db.query(sql, w.params)) {
    RunRow r;
    r.id = integer(row, 0);
    r.started_utc = text(row, 1);
    r.status = text(row, 2);
    r.model = text(row, 3);
    r.firmware = text(row, 4);
    r.serial = text(row, 5);
    r.host = text(row, 6);
    r.tests = text(row, 7);
    r.compliant = text(row, 8) == "1";
    r.compliance_summary = text(row, 9);
    r.spec_revision = text(row, 10);
    r.campaign = text(row, 11);
    page.rows.push_back(std::move(r));
  }
  return page;
}

DrivePage Catalog::drives(const DriveQuery& q) {
  Where w;
  w.equals("r.device_model", q.model);
  w.equals("r.device_firmware", q.firmware);
  w.equals("r.device_serial", q.serial);
  w.equals("r.host", q.host);
  if (!q.label.empty()) {
    const size_t eq = q.label.find('=');
    w.add("r.id IN (SELECT run_id FROM run_labels WHERE key = ? AND value = ?)",
          {q.label.substr(0, eq), eq == std::string::npos ? std::string() : q.label.substr(eq + 1)});
  }
  // One pass over the matching runs, oldest first: the last one seen of a serial is its latest.
  std::map<std::string, DriveRow> by_serial;
  for (const Row& row : m_db.query("SELECT r.id, COALESCE(r.device_serial, ''), r.device_model, r.device_firmware, "
                                   "r.host, r.started_utc, r.compliant, r.compliance_summary FROM runs r" +
                                       w.sql + " ORDER BY COALESCE(r.started_utc, ''), r.id",
                                   w.params)) {
    DriveRow& d = by_serial[text(row, 1)];
    d.serial = text(row, 1);
    d.model = text(row, 2);
    d.firmware = text(row, 3);
    d.host = text(row, 4);
    d.runs += 1;
    d.last_run_id = integer(row, 0);
    d.last_started_utc = text(row, 5);
    d.last_compliant = text(row, 6) == "1";
    d.last_verdict = text(row, 7);
  }
  add_registered_drives(m_db, q, by_serial);
  std::vector<DriveRow> all;
  all.reserve(by_serial.size());
  for (auto& [serial, row] : by_serial) all.push_back(std::move(row));
  std::stable_sort(all.begin(), all.end(), [](const DriveRow& a, const DriveRow& b) {
    return std::tie(a.model, a.firmware, a.serial) < std::tie(b.model, b.firmware, b.serial);
  });
  DrivePage page;
  page.total = all.size();
  const size_t begin = std::min(q.offset, all.size());
  const size_t end = std::min(all.size(), begin + bounded(q.limit));
  page.rows.assign(std::make_move_iterator(all.begin() + static_cast<ptrdiff_t>(begin)),
                   std::make_move_iterator(all.begin() + static_cast<ptrdiff_t>(end)));
  std::vector<int64_t> ids;
  for (const DriveRow& d : page.rows) {
    if (d.last_run_id != 0) ids.push_back(d.last_run_id);
  }
  const auto metrics = metrics_of(m_db, id_list(ids), {});
  for (DriveRow& d : page.rows) {
    const auto it = metrics.find(d.last_run_id);
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
                                                           size_t max_runs) {
  std::string where;
  if (column == "campaign") {
    where = "r.id IN (SELECT run_id FROM run_labels WHERE key = 'campaign' AND value = ?)";
  } else if (column == "device_model" || column == "device_serial") {
    where = "COALESCE(r." + column + ", '') = ?";
  } else {
    throw std::invalid_argument("runs_with_metrics: unknown column " + column);
  }
  // The latest max_runs, oldest first.
  const std::string ids = fmt::format(
      "SELECT id FROM (SELECT r.id, r.started_utc FROM runs r WHERE {} ORDER BY COALESCE(r.started_utc, '') DESC, r.id "
      "DESC LIMIT {}) latest",
      where, max_runs);
  std::vector<history::RunRecord> out;
  std::map<int64_t, size_t> index;
  for (const Row& row : m_db.query("SELECT r.id, r.run_uid, r.started_utc, r.finished_utc, r.status, r.device_vendor, "
                                   "r.device_model, r.device_serial, r.device_firmware, r.host, r.compliant, "
                                   "r.compliance_summary, r.tests, r.spec_revision, r.run_dir FROM runs r WHERE r.id "
                                   "IN (" +
                                       ids + ") ORDER BY COALESCE(r.started_utc, ''), r.id",
                                   {value})) {
    history::RunRecord r;
    r.id = integer(row, 0);
    r.run_uid = text(row, 1);
    r.started_utc = text(row, 2);
    r.finished_utc = text(row, 3);
    r.status = text(row, 4);
    r.device_vendor = text(row, 5);
    r.device_model = text(row, 6);
    r.device_serial = text(row, 7);
    r.device_firmware = text(row, 8);
    r.host = text(row, 9);
    r.compliant = text(row, 10) == "1";
    r.compliance_summary = text(row, 11);
    r.spec_revision = text(row, 13);
    r.run_dir = text(row, 14);
    index[r.id] = out.size();
    out.push_back(std::move(r));
  }
  for (auto& [id, metrics] : metrics_of(m_db, ids, {value})) {
    const auto it = index.find(id);
    if (it != index.end()) out[it->second].metrics = std::move(metrics);
  }
  for (const Row& row :
       m_db.query("SELECT run_id, key, value FROM run_labels WHERE run_id IN (" + ids + ")", {value})) {
    const auto it = index.find(integer(row, 0));
    if (it != index.end()) out[it->second].labels[text(row, 1)] = text(row, 2);
  }
  return out;
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
