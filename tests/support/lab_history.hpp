// Test and bench helper: a lab's results history of any size (`ptsuite serve`'s tests and
// bench/serve_scale.sh): `runs` runs over `drives` drives of `models` models, three firmware
// versions in turn, a host per 16 drives, a campaign label per `campaign_runs` runs, each run a
// copy of the checked-in "steady" results fixture's record with its own run uid, serial, dates
// and figures (scaled by a per-drive factor, so spreads are not zero). Deterministic.
#pragma once

#include <cstddef>
#include <string>

#include <ptsuite/history/run_record.hpp>
#include <ptsuite/history/store.hpp>

namespace ptsuite::test_support {

struct LabShape {
  size_t runs = 120;
  size_t drives = 24;
  size_t models = 2;
  size_t campaign_runs = 40;
  std::string run_root = "/lab/runs";  // run directories (not created)
};

history::RunRecord lab_record(const LabShape& shape, size_t index);
// Adds every run (HistoryStore::add, one transaction each).
void fill_lab_history(history::HistoryStore& store, const LabShape& shape);

}  // namespace ptsuite::test_support
