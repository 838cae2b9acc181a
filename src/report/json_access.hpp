// Private to the report module: tolerant read access to a results document. Reporters render
// whatever a results.json holds (also a partial one: an interrupted run, an older writer), so
// a missing or mistyped member reads as null / "" / [] instead of throwing.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/util/units.hpp>

namespace ptsuite::report {

// j[key], or null when j is not an object or has no such member.
inline const nlohmann::json& member(const nlohmann::json& j, const std::string& key) {
  static const nlohmann::json null_json;
  if (!j.is_object()) {
    return null_json;
  }
  const auto it = j.find(key);
  return it == j.end() ? null_json : *it;
}

// j[key] as a string: strings as they are, numbers and booleans in their JSON spelling, "" else.
inline std::string str(const nlohmann::json& j, const std::string& key) {
  const nlohmann::json& v = member(j, key);
  if (v.is_string()) {
    return v.get<std::string>();
  }
  if (v.is_number() || v.is_boolean()) {
    return v.dump();
  }
  return {};
}

// j[key] when it is an array, else an empty array.
inline const nlohmann::json& array(const nlohmann::json& j, const std::string& key) {
  static const nlohmann::json empty = nlohmann::json::array();
  const nlohmann::json& v = member(j, key);
  return v.is_array() ? v : empty;
}

// A byte count as the block-size spelling of the results ("4KiB", "0.5KiB", "1MiB").
inline std::string size_text(const nlohmann::json& bytes) {
  return bytes.is_number_unsigned() ? units::format_size_binary(bytes.get<uint64_t>()) : std::string();
}

}  // namespace ptsuite::report
