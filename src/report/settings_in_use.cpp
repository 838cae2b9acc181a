#include "report/settings_in_use.hpp"

#include "report/results_read.hpp"

namespace ptsuite::report {

std::unordered_set<std::string> settings_in_use(const results::RunDocument& doc) {
  std::unordered_set<std::string> out;
  for (const results::TestRecord& test : doc.tests) {
    for (const results::ParameterRecord& p : test.header.parameters) {
      if (!p.setting.empty()) {
        out.insert(p.setting);
      }
    }
    out.insert(test.header.id + ".threads");
    out.insert(test.header.id + ".queue_depth");
  }
  for (const results::SettingRecord& s : doc.header.settings) {
    if (s.name.rfind("device.", 0) == 0) {
      out.insert(s.name);
    }
  }
  return out;
}

std::unordered_set<std::string> settings_in_use(const nlohmann::json& results) {
  std::unordered_set<std::string> out;
  for (const nlohmann::json& test : array(results, "tests")) {
    for (const nlohmann::json& p : array(test, "parameters")) {
      if (const std::string name = str(p, "setting"); !name.empty()) {
        out.insert(name);
      }
    }
    const std::string id = str(test, "id");
    out.insert(id + ".threads");
    out.insert(id + ".queue_depth");
  }
  for (const nlohmann::json& s : array(results, "settings")) {
    if (const std::string name = str(s, "name"); name.rfind("device.", 0) == 0) {
      out.insert(name);
    }
  }
  return out;
}

}  // namespace ptsuite::report
