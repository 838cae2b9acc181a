#include <ptsuite/history/export.hpp>

#include <fmt/format.h>

#include <ptsuite/util/labels.hpp>
#include <ptsuite/util/text.hpp>

namespace ptsuite::history {

namespace {

std::string join_tests(const std::vector<std::string>& tests) {
  std::string out;
  for (const std::string& t : tests) {
    out += (out.empty() ? "" : ",") + t;
  }
  return out;
}

std::vector<std::string> run_fields(const RunRecord& r) {
  return {std::to_string(r.id),
          r.run_uid,
          r.run_dir,
          r.started_utc,
          r.finished_utc,
          r.status,
          r.device_vendor,
          r.device_model,
          r.device_serial,
          r.device_firmware,
          r.device_transport,
          r.capacity_bytes ? std::to_string(*r.capacity_bytes) : "",
          r.spec_revision,
          r.spec_profile,
          join_tests(r.tests),
          r.compliant ? "true" : "false",
          r.compliance_summary,
          r.tested_by,
          r.tool_version,
          r.tool_git_revision,
          r.manifest_sha256,
          r.signature_fingerprint,
          r.signed_utc,
          r.preflight_warnings ? std::to_string(*r.preflight_warnings) : "",
          r.host,
          labels_text(r.labels)};
}

void append_row(std::string& out, const std::vector<std::string>& fields) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i != 0) {
      out += ',';
    }
    out += csv_field(fields[i]);
  }
  out += "\n";
}

}  // namespace

const std::vector<std::string>& export_csv_columns() {
  static const std::vector<std::string> k_columns = {"id",
                                                     "run_uid",
                                                     "run_dir",
                                                     "started_utc",
                                                     "finished_utc",
                                                     "status",
                                                     "device_vendor",
                                                     "device_model",
                                                     "device_serial",
                                                     "device_firmware",
                                                     "transport",
                                                     "capacity_bytes",
                                                     "spec_revision",
                                                     "spec_profile",
                                                     "tests",
                                                     "compliant",
                                                     "compliance",
                                                     "tested_by",
                                                     "ptsuite_version",
                                                     "ptsuite_git_revision",
                                                     "manifest_sha256",
                                                     "signature_fingerprint",
                                                     "signed_utc",
                                                     "preflight_warnings",
                                                     "host",
                                                     "labels",
                                                     "test",
                                                     "test_compliant",
                                                     "test_compliance",
                                                     "steady_state",
                                                     "metric",
                                                     "value",
                                                     "unit"};
  return k_columns;
}

std::string export_csv(const std::vector<RunRecord>& runs) {
  std::string out;
  append_row(out, export_csv_columns());
  for (const RunRecord& r : runs) {
    const std::vector<std::string> run = run_fields(r);
    if (r.test_summaries.empty()) {
      std::vector<std::string> row = run;
      row.resize(export_csv_columns().size());
      append_row(out, row);
    }
    for (const TestSummary& t : r.test_summaries) {
      std::vector<std::string> test = run;
      test.insert(test.end(), {t.test_id, t.compliant ? "true" : "false", t.compliance_summary, t.steady_state});
      bool any = false;
      for (const Metric& m : r.metrics) {
        if (m.test_id == t.test_id) {
          std::vector<std::string> row = test;
          row.insert(row.end(), {m.name, fmt::format("{}", m.value), m.unit});
          append_row(out, row);
          any = true;
        }
      }
      if (!any) {
        test.resize(export_csv_columns().size());
        append_row(out, test);
      }
    }
  }
  return out;
}

}  // namespace ptsuite::history
