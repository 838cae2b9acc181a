// The JSON form of a history record (history/run_record.hpp run_record_json).
#include <nlohmann/json.hpp>

#include <ptsuite/history/run_record.hpp>

namespace ptsuite::history {

namespace {

template <typename T>
nlohmann::json or_null(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json tests_json(const RunRecord& r, bool with_metrics) {
  nlohmann::json tests = nlohmann::json::array();
  for (const TestSummary& t : r.test_summaries) {
    nlohmann::json test{{"id", t.test_id},
                        {"compliant", t.compliant},
                        {"compliance_summary", t.compliance_summary},
                        {"steady_state", t.steady_state}};
    if (with_metrics) {
      nlohmann::json metrics = nlohmann::json::array();
      for (const Metric& m : r.metrics) {
        if (m.test_id == t.test_id) metrics.push_back({{"name", m.name}, {"value", m.value}, {"unit", m.unit}});
      }
      test["metrics"] = std::move(metrics);
    }
    tests.push_back(std::move(test));
  }
  return tests;
}

}  // namespace

nlohmann::json run_record_json(const RunRecord& r, bool with_metrics) {
  return nlohmann::json{{"id", r.id},
                        {"run_uid", r.run_uid},
                        {"run_dir", r.run_dir},
                        {"added_utc", r.added_utc},
                        {"updated_utc", r.updated_utc},
                        {"started_utc", r.started_utc},
                        {"finished_utc", r.finished_utc},
                        {"status", r.status},
                        {"simulated", r.simulated},  // a simulated drive's run (docs/sim.md)
                        {"device",
                         {{"vendor", r.device_vendor},
                          {"model", r.device_model},
                          {"serial", r.device_serial},
                          {"firmware", r.device_firmware},
                          {"transport", r.device_transport},
                          {"capacity_bytes", or_null(r.capacity_bytes)}}},
                        {"spec_revision", r.spec_revision},
                        {"spec_profile", r.spec_profile},
                        {"compliant", r.compliant},
                        {"compliance_summary", r.compliance_summary},
                        {"tested_by", r.tested_by},
                        {"tool_version", r.tool_version},
                        {"tool_git_revision", r.tool_git_revision},
                        {"manifest_sha256", r.manifest_sha256},
                        {"signature_fingerprint", r.signature_fingerprint},
                        {"signed_utc", r.signed_utc},
                        {"preflight_warnings", or_null(r.preflight_warnings)},
                        {"host", r.host},
                        {"labels", r.labels},
                        {"bundle_stored", r.bundle_stored},
                        {"tests", tests_json(r, with_metrics)}};
}

}  // namespace ptsuite::history
