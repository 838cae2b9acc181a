#include "report/settings_in_use.hpp"

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
    const bool simulated_drive = doc.header.simulation && s.name.rfind("sim.", 0) == 0;
    if (s.name.rfind("device.", 0) == 0 || simulated_drive) {
      out.insert(s.name);
    }
  }
  return out;
}

}  // namespace ptsuite::report
