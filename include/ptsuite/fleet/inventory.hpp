// Contract: this host's drives as Slurm GRES (docs/fleet.md "Inventory"): `ptsuite fleet
// inventory --slurm` prints the NodeName line's Gres= part and one gres.conf line per drive,
// "NodeName=NODE Name=GRES Type=SERIAL File=PATH": Type the drive's serial normalized for Slurm
// (device::normalize_serial), File its /dev/disk/by-id link (a name that follows the drive
// across reboots) or its /dev node when udev made none. Drives the safety rules refuse
// (mounted, swap, held, the root disk), drives without a serial or asset serial, and drives
// whose normalized serials collide are left out, each with the reason.
// take_inventory() is pure (over device::list_drives()'s entries); nothing here touches a device.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <ptsuite/device/drives.hpp>

namespace ptsuite::fleet {

// Slurm 22.05 writes device rules (ConstrainDevices) only for GRES names with a plugin; nic's
// plugin only exports an OpenMPI variable, so "nic" is the name that confines (docs/fleet.md).
inline constexpr const char* k_default_gres_name = "nic";

struct InventoryDrive {
  std::string serial;           // normalized: the GRES Type and the job name's tail
  std::string reported_serial;  // as the drive reports it (or its asset serial)
  bool asset = false;           // the serial is the asset registry's
  std::string file;             // gres.conf File=
  std::string path;             // /dev/<kernel name>
  std::string model, firmware, transport;
  uint64_t capacity_bytes = 0;
};

struct ExcludedDrive {
  std::string path;
  std::string reason;
};

struct Inventory {
  std::string node;
  std::string gres_name;
  std::vector<InventoryDrive> drives;
  std::vector<ExcludedDrive> excluded;
};

Inventory take_inventory(const std::vector<device::DriveEntry>& drives, const std::string& node,
                         const std::string& gres_name);
// "NodeName=h1 Gres=nic:S1:1,nic:S2:1" ("NodeName=h1 Gres=" without drives).
std::string node_gres_line(const Inventory& inventory);
std::vector<std::string> gres_conf_lines(const Inventory& inventory);
void to_json(nlohmann::json& j, const Inventory& inventory);

}  // namespace ptsuite::fleet
