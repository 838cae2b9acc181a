// The fleet's drives in the history database (history/drives.hpp).
#include <ptsuite/history/drives.hpp>

#include <ptsuite/util/clock.hpp>

namespace ptsuite::history {

namespace {

// Labels in one column as "k=v" lines (keys and values hold no newline: util/labels.hpp).
std::string labels_column(const Labels& labels) {
  std::string out;
  for (const auto& [key, value] : labels) out += key + "=" + value + "\n";
  return out;
}

Labels labels_of_column(const std::string& text) {
  Labels out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t nl = text.find('\n', start);
    const std::string line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    if (const size_t eq = line.find('='); eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
    start = nl == std::string::npos ? text.size() : nl + 1;
  }
  return out;
}

}  // namespace

void register_drive(Backend& backend, const FleetDrive& d) {
  WriteTransaction transaction(backend);
  (void)backend.query("DELETE FROM fleet_drives WHERE serial = ?", {d.serial});
  (void)backend.query(
      "INSERT INTO fleet_drives (serial, node, model, firmware, capacity_bytes, transport, gres_type, file, labels, "
      "seen_utc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      {d.serial, d.node, d.model, d.firmware,
       d.capacity_bytes ? Value(std::to_string(*d.capacity_bytes)) : std::nullopt, d.transport, d.gres_type, d.file,
       labels_column(d.labels), utc_now_iso8601()});
  transaction.commit();
}

std::vector<FleetDrive> registered_drives(Backend& backend, const std::string& model, const std::string& firmware,
                                          const Labels& labels) {
  std::string where;
  std::vector<Value> params;
  if (!model.empty()) {
    where += " WHERE model = ?";
    params.emplace_back(model);
  }
  if (!firmware.empty()) {
    where += where.empty() ? " WHERE firmware = ?" : " AND firmware = ?";
    params.emplace_back(firmware);
  }
  std::vector<FleetDrive> out;
  for (const Row& row : backend.query("SELECT serial, node, model, firmware, capacity_bytes, transport, gres_type, "
                                      "file, labels, seen_utc FROM fleet_drives" +
                                          where + " ORDER BY serial",
                                      params)) {
    FleetDrive d;
    d.serial = row.at(0).value_or("");
    d.node = row.at(1).value_or("");
    d.model = row.at(2).value_or("");
    d.firmware = row.at(3).value_or("");
    if (row.at(4)) d.capacity_bytes = std::stoull(*row.at(4));
    d.transport = row.at(5).value_or("");
    d.gres_type = row.at(6).value_or("");
    d.file = row.at(7).value_or("");
    d.labels = labels_of_column(row.at(8).value_or(""));
    d.seen_utc = row.at(9).value_or("");
    bool match = true;
    for (const auto& [key, value] : labels) {
      const auto it = d.labels.find(key);
      match = match && it != d.labels.end() && it->second == value;
    }
    if (match) out.push_back(std::move(d));
  }
  return out;
}

}  // namespace ptsuite::history
