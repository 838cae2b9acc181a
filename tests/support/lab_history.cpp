// A lab's results history of any size (lab_history.hpp).
#include "support/lab_history.hpp"

#include <fmt/format.h>

#include "support/results_fixture.hpp"

namespace ptsuite::test_support {

history::RunRecord lab_record(const LabShape& shape, size_t index) {
  static const history::RunRecord k_base =
      history::record_from_results(load_results_fixture("steady"), "/lab/runs/base");
  history::RunRecord r = k_base;
  const size_t drive = index % shape.drives;
  const size_t model = drive % shape.models;
  r.run_uid = fmt::format("lab-{:08}", index);
  r.run_dir = fmt::format("{}/run-{:06}", shape.run_root, index);
  r.device_serial = fmt::format("S{:04}LAB{:04}", model, drive);
  r.device_model = fmt::format("LAB MODEL {}", model);
  r.device_firmware = fmt::format("FW{}", 1 + (index * 3) / std::max<size_t>(shape.runs, 1));
  r.host = fmt::format("host-{:02}", drive / 16);
  // One run a minute from 2026-01-01: days, hours and minutes of index.
  r.started_utc = fmt::format("2026-{:02}-{:02}T{:02}:{:02}:00Z", 1 + index / (28 * 24 * 60) % 12,
                              1 + index / (24 * 60) % 28, index / 60 % 24, index % 60);
  r.finished_utc = r.started_utc;
  r.labels = {{"campaign", fmt::format("c{:03}", index / std::max<size_t>(shape.campaign_runs, 1))}};
  r.compliant = index % 7 != 0;
  r.compliance_summary = r.compliant ? "COMPLIANT" : "NOT COMPLIANT: steady state not attained";
  const double factor = 0.9 + 0.01 * static_cast<double>(drive % 20);
  for (history::Metric& m : r.metrics) m.value *= factor;
  r.manifest_sha256.clear();
  return r;
}

void fill_lab_history(history::HistoryStore& store, const LabShape& shape) {
  for (size_t i = 0; i < shape.runs; ++i) (void)store.add(lab_record(shape, i));
}

}  // namespace ptsuite::test_support
