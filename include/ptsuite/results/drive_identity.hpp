// Contract: the identity of the drive a run measured, as the results documents that carry it
// spell it ({vendor, model, serial, firmware, transport, capacity_bytes}: a scenario run's
// targets, compare.json's runs, an app run's identity). One record, embedded by
// results::ScenarioTarget and results::ComparedRun. Members are nullopt where the run did not
// know them (JSON null or absent). The reader is tolerant like every results reader
// (results/json_read.hpp): text members that are strings, a capacity that is a non-negative
// integer, nullopt for anything else; never throws. The writer spells nullopt as null (members
// in key order, as every nlohmann object). Plain value; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace ptsuite::results {

struct DriveIdentity {
  std::optional<std::string> vendor;
  std::optional<std::string> model;
  std::optional<std::string> serial;
  std::optional<std::string> firmware;
  std::optional<std::string> transport;
  std::optional<uint64_t> capacity_bytes;
};

nlohmann::json to_json(const DriveIdentity& identity);
DriveIdentity read_drive_identity(const nlohmann::json& identity);

}  // namespace ptsuite::results
