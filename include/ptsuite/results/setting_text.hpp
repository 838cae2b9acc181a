// Contract: a recorded setting's value (results::SettingRecord::value: open JSON, the type its
// `type` names) as summary.txt and compare print it: strings as they are, null as "", a list's
// elements joined with ", ", anything else in its JSON spelling ("25", "0.5", "true"). The one
// reader of a setting value's JSON for the report; pure; thread-safe.
#pragma once

#include <string>

#include <ptsuite/results/run_header.hpp>

namespace ptsuite::results {

std::string setting_value_text(const SettingRecord& setting);

}  // namespace ptsuite::results
