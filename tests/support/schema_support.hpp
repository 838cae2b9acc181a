// Shared by the results-schema tests: the embedded results schema and a readable list of
// validation errors (the first 20).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/json_schema.hpp"

namespace ptsuite::pts::schema_test {

inline const nlohmann::json& schema() {
  static const nlohmann::json s = embedded_schema("results");
  return s;
}

inline std::string joined(const std::vector<std::string>& errors) {
  std::string out;
  for (size_t i = 0; i < errors.size() && i < 20; ++i) {
    out += "\n  " + errors[i];
  }
  if (errors.size() > 20) {
    out += "\n  ... " + std::to_string(errors.size() - 20) + " more";
  }
  return out;
}

}  // namespace ptsuite::pts::schema_test
