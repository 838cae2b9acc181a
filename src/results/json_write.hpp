// Contract: small writer helpers shared by the results module's JSON writers (internal to
// src/results). `optional_json(v)`: the value, or JSON null when the optional is empty (a member
// the writer always emits, null meaning "not known").
#pragma once

#include <nlohmann/json.hpp>

#include <optional>

namespace ptsuite::results {

template <typename T>
nlohmann::json optional_json(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

}  // namespace ptsuite::results
