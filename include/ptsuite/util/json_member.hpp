// Contract: strict reading of one member of a JSON object that ptsuite wrote itself (segment
// records, statistics, steady-state verdicts read back from a journal): the member must be
// there, or the read fails with UsageError (exit 2) naming `where` - never a default. One
// implementation for the readers in stats, pts and their callers (user-written files go
// through json_fields.hpp, results documents through results/json_read.hpp, which tolerate).
//   required_member(j, "ios", "segment")  -> j["ios"], or "segment: missing key \"ios\"",
//                                            "segment: expected a JSON object"
//   required_as<T>(j, "ios", "segment")   -> the member as T, or "segment: \"ios\" is
//                                            malformed: <nlohmann's reason>"
// Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ptsuite/util/error.hpp>

namespace ptsuite {

[[nodiscard]] const nlohmann::json& required_member(const nlohmann::json& j, std::string_view key,
                                                    const std::string& where);

template <class T>
[[nodiscard]] T required_as(const nlohmann::json& j, std::string_view key, const std::string& where) {
  const nlohmann::json& member = required_member(j, key, where);
  try {
    return member.get<T>();
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(where, fmt::format("\"{}\" is malformed: {}", key, e.what()));
  }
}

}  // namespace ptsuite
