// Contract: the fleet's drives in the shared history database (table fleet_drives, migration 3;
// docs/fleet.md "Inventory"): each host's `ptsuite fleet inventory --register` writes its drives
// (one row per serial: the node that holds it, model, firmware, capacity, transport, the GRES
// Type and File, the drive's labels such as rack and slot), and `ptsuite fleet submit --model M`
// / `--label k=v` picks drives from them. A drive registered again (moved to another host,
// relabelled, new firmware) replaces its row. Errors: as history/backend.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/history/backend.hpp>
#include <ptsuite/util/labels.hpp>

namespace ptsuite::history {

struct FleetDrive {
  std::string serial;  // normalized: the GRES Type
  std::string node;
  std::string model, firmware, transport;
  std::optional<uint64_t> capacity_bytes;
  std::string gres_type, file;
  Labels labels;
  std::string seen_utc;  // when it was last registered
};

void register_drive(Backend& backend, const FleetDrive& drive);
// Every registered drive matching: model ("" = any), firmware ("" = any), every label; by serial.
std::vector<FleetDrive> registered_drives(Backend& backend, const std::string& model, const std::string& firmware,
                                          const Labels& labels);

}  // namespace ptsuite::history
