// Contract: the one tolerant read-access family for results documents (results.json, workload
// and scenario results, comparison documents). Reporters render whatever a document holds,
// also a partial one (an interrupted run, an older or newer writer), so a missing or mistyped
// member reads as null / "" / NaN / [] instead of throwing. The typed records' readers
// (results/*.hpp) are built on it; report code reads the parts not yet typed through it.
// Header-only, no state beyond two shared immutable sentinels; safe from any thread.
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ptsuite/util/units.hpp>

namespace ptsuite::results {

// j[key], or a shared null when j is not an object or has no such member.
inline const nlohmann::json& at(const nlohmann::json& j, std::string_view key) {
  static const nlohmann::json k_null;
  if (!j.is_object()) {
    return k_null;
  }
  const auto it = j.find(key);
  return it == j.end() ? k_null : *it;
}

// j[path[0]][path[1]]..., null as soon as a step is missing.
inline const nlohmann::json& at(const nlohmann::json& j, std::initializer_list<std::string_view> path) {
  const nlohmann::json* node = &j;
  for (std::string_view key : path) {
    node = &at(*node, key);
  }
  return *node;
}

// Not an array index: a literal 0 would otherwise convert to a null key and crash.
const nlohmann::json& at(const nlohmann::json& j, int index) = delete;

// Synonym of at(j, key), kept for the code that reads "member" more naturally.
inline const nlohmann::json& member(const nlohmann::json& j, std::string_view key) { return at(j, key); }

// j[key] when it is an array, else a shared empty array.
inline const nlohmann::json& array(const nlohmann::json& j, std::string_view key) {
  static const nlohmann::json k_empty = nlohmann::json::array();
  const nlohmann::json& v = at(j, key);
  return v.is_array() ? v : k_empty;
}

// j[i] when j is an array long enough, else null.
inline const nlohmann::json& element(const nlohmann::json& j, size_t i) {
  static const nlohmann::json k_null;
  return j.is_array() && i < j.size() ? j[i] : k_null;
}

// A number as double; NaN unless j is a number.
inline double num(const nlohmann::json& j) { return j.is_number() ? j.get<double>() : std::nan(""); }

// A count as uint64; `fallback` unless j is a non-negative integer.
inline uint64_t count(const nlohmann::json& j, uint64_t fallback = 0) {
  return j.is_number_unsigned() ? j.get<uint64_t>() : fallback;
}

// A 32-bit count (threads, queue depths, Round and sample numbers); 0 unless a count that fits.
inline uint32_t count32(const nlohmann::json& j) {
  const uint64_t n = count(j);
  return n <= UINT32_MAX ? static_cast<uint32_t>(n) : 0;
}

// The 32-bit counts of an array (count32 of each element); empty unless `j` is an array.
inline std::vector<uint32_t> counts32(const nlohmann::json& j) {
  std::vector<uint32_t> out;
  if (j.is_array()) {
    out.reserve(j.size());
    for (const nlohmann::json& v : j) {
      out.push_back(count32(v));
    }
  }
  return out;
}

// read(element) for each element of `j` when it is an array, in order; empty otherwise (the
// array readers of the typed records: read_captures(), read_round_phases(), ...).
template <typename Read>
auto read_each(const nlohmann::json& j, Read read) -> std::vector<decltype(read(j))> {
  std::vector<decltype(read(j))> out;
  if (j.is_array()) {
    out.reserve(j.size());
    for (const nlohmann::json& element : j) {
      out.push_back(read(element));
    }
  }
  return out;
}

// Strings as they are, booleans and integers in their JSON spelling, floating-point numbers in
// their shortest round-trip form (20.0 -> "20"), "" for anything else.
inline std::string str(const nlohmann::json& j) {
  if (j.is_string()) {
    return j.get<std::string>();
  }
  if (j.is_boolean()) {
    return j.get<bool>() ? "true" : "false";
  }
  if (j.is_number_integer() || j.is_number_unsigned()) {
    return j.dump();
  }
  if (j.is_number_float()) {
    return fmt::format("{}", j.get<double>());
  }
  return "";
}

// str(at(j, key)).
inline std::string str(const nlohmann::json& j, std::string_view key) { return str(at(j, key)); }

// A boolean; `fallback` unless j is one.
inline bool flag(const nlohmann::json& j, bool fallback = false) { return j.is_boolean() ? j.get<bool>() : fallback; }

// A nullable boolean: nullopt unless j is a boolean.
inline std::optional<bool> opt_flag(const nlohmann::json& j) {
  return j.is_boolean() ? std::optional<bool>(j.get<bool>()) : std::nullopt;
}

// A nullable count: nullopt unless j is a non-negative integer.
inline std::optional<uint64_t> opt_count(const nlohmann::json& j) {
  return j.is_number_unsigned() ? std::optional<uint64_t>(j.get<uint64_t>()) : std::nullopt;
}

// A nullable number: nullopt unless j is a number.
inline std::optional<double> opt_num(const nlohmann::json& j) {
  return j.is_number() ? std::optional<double>(j.get<double>()) : std::nullopt;
}

// A nullable text: nullopt unless j is a string.
inline std::optional<std::string> opt_str(const nlohmann::json& j) {
  return j.is_string() ? std::optional<std::string>(j.get<std::string>()) : std::nullopt;
}

// str() of each element of an array; empty unless j is an array.
inline std::vector<std::string> strs(const nlohmann::json& j) {
  std::vector<std::string> out;
  if (j.is_array()) {
    out.reserve(j.size());
    for (const nlohmann::json& v : j) {
      out.push_back(str(v));
    }
  }
  return out;
}

// A byte count as the block-size spelling of the results ("4KiB", "0.5KiB", "1MiB"); "" unless
// a non-negative integer.
inline std::string size_text(const nlohmann::json& bytes) {
  return bytes.is_number_unsigned() ? units::format_size_binary(bytes.get<uint64_t>()) : std::string();
}

}  // namespace ptsuite::results
