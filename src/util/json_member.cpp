#include <ptsuite/util/json_member.hpp>

namespace ptsuite {

const nlohmann::json& required_member(const nlohmann::json& j, std::string_view key, const std::string& where) {
  if (!j.is_object()) {
    throw UsageError(where, "expected a JSON object");
  }
  const auto it = j.find(key);
  if (it == j.end()) {
    throw UsageError(where, fmt::format("missing key \"{}\"", key));
  }
  return *it;
}

}  // namespace ptsuite
