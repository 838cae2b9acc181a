// Contract: a setting (pts/settings.hpp) as results.json discloses it: results/run_header.hpp's
// SettingRecord ("changed" when the value differs from the default; the provenance tag as its
// letter). results/record_writers.hpp is the one writer: pts's to_json writes record_of(). A
// pure conversion; the run's settings list and a test's TOIO settings are written with it.
#pragma once

#include <ptsuite/pts/settings.hpp>
#include <ptsuite/results/run_header.hpp>

namespace ptsuite::pts {

results::SettingRecord record_of(const SettingRecord& record);

}  // namespace ptsuite::pts
