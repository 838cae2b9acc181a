// The host's drives as Slurm GRES (fleet/inventory.hpp).
#include <ptsuite/fleet/inventory.hpp>

#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>

namespace ptsuite::fleet {

Inventory take_inventory(const std::vector<device::DriveEntry>& drives, const std::string& node,
                         const std::string& gres_name) {
  Inventory inv{node, gres_name, {}, {}};
  std::map<std::string, size_t> uses;  // normalized serial -> how many drives carry it
  for (const device::DriveEntry& d : drives) {
    if (!d.effective_serial().empty()) ++uses[device::normalize_serial(d.effective_serial())];
  }
  for (const device::DriveEntry& d : drives) {
    const std::string serial = device::normalize_serial(d.effective_serial());
    if (!d.refused.empty()) {
      inv.excluded.push_back({d.path, "refused for writes: " + d.refused});
    } else if (serial.empty()) {
      inv.excluded.push_back({d.path, "no serial: name it in the asset registry (docs/fleet.md)"});
    } else if (uses[serial] > 1) {
      inv.excluded.push_back(
          {d.path, fmt::format("serial {} names {} devices (namespaces of one controller, or two paths to one disk)",
                               serial, uses[serial])});
    } else {
      inv.drives.push_back({serial, d.effective_serial(), d.serial.empty(), d.by_id.empty() ? d.path : d.by_id, d.path,
                            d.model, d.firmware, device::to_string(d.transport), d.capacity_bytes});
    }
  }
  return inv;
}

std::string node_gres_line(const Inventory& inv) {
  std::string gres;
  for (const InventoryDrive& d : inv.drives) {
    gres += fmt::format("{}{}:{}:1", gres.empty() ? "" : ",", inv.gres_name, d.serial);
  }
  return fmt::format("NodeName={} Gres={}", inv.node, gres);
}

std::vector<std::string> gres_conf_lines(const Inventory& inv) {
  std::vector<std::string> out;
  for (const InventoryDrive& d : inv.drives) {
    out.push_back(fmt::format("NodeName={} Name={} Type={} File={}", inv.node, inv.gres_name, d.serial, d.file));
  }
  return out;
}

void to_json(nlohmann::json& j, const Inventory& inv) {
  nlohmann::json drives = nlohmann::json::array();
  for (const InventoryDrive& d : inv.drives) {
    drives.push_back({{"serial", d.serial},
                      {"reported_serial", d.reported_serial},
                      {"asset", d.asset},
                      {"file", d.file},
                      {"path", d.path},
                      {"model", d.model},
                      {"firmware", d.firmware},
                      {"transport", d.transport},
                      {"capacity_bytes", d.capacity_bytes}});
  }
  nlohmann::json excluded = nlohmann::json::array();
  for (const ExcludedDrive& e : inv.excluded) excluded.push_back({{"path", e.path}, {"reason", e.reason}});
  j = nlohmann::json{{"node", inv.node},
                     {"gres_name", inv.gres_name},
                     {"slurm_conf", node_gres_line(inv)},
                     {"gres_conf", gres_conf_lines(inv)},
                     {"drives", drives},
                     {"excluded", excluded}};
}

}  // namespace ptsuite::fleet
