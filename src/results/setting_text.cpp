#include <ptsuite/results/setting_text.hpp>

#include <nlohmann/json.hpp>

namespace ptsuite::results {

namespace {

std::string text_of(const nlohmann::json& v) {
  if (v.is_string()) {
    return v.get<std::string>();
  }
  if (v.is_null()) {
    return {};
  }
  if (v.is_array()) {
    std::string out;
    for (const nlohmann::json& e : v) {
      out += (out.empty() ? "" : ", ") + text_of(e);
    }
    return out;
  }
  return v.dump();
}

}  // namespace

std::string setting_value_text(const SettingRecord& setting) { return text_of(setting.value); }

}  // namespace ptsuite::results
