#include <ptsuite/results/drive_identity.hpp>

#include <nlohmann/json.hpp>

#include <ptsuite/results/json_read.hpp>

#include "results/json_write.hpp"

namespace ptsuite::results {

using nlohmann::json;

json to_json(const DriveIdentity& id) {
  return {{"vendor", optional_json(id.vendor)},       {"model", optional_json(id.model)},
          {"serial", optional_json(id.serial)},       {"firmware", optional_json(id.firmware)},
          {"transport", optional_json(id.transport)}, {"capacity_bytes", optional_json(id.capacity_bytes)}};
}

DriveIdentity read_drive_identity(const json& j) {
  return {opt_str(at(j, "vendor")),   opt_str(at(j, "model")),     opt_str(at(j, "serial")),
          opt_str(at(j, "firmware")), opt_str(at(j, "transport")), opt_count(at(j, "capacity_bytes"))};
}

}  // namespace ptsuite::results
