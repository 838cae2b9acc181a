#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/run_document.hpp>

namespace ptsuite::results {

using nlohmann::json;

const TestRecord* RunDocument::find_test(std::string_view id) const {
  for (const TestRecord& t : tests) {
    if (t.header.id == id) {
      return &t;
    }
  }
  return nullptr;
}

const json& RunDocument::source() const {
  static const json k_null;
  return source_json ? *source_json : k_null;
}

RunDocument read_run_document(json results) {
  return read_run_document(std::make_shared<const json>(std::move(results)));
}

RunDocument read_run_document(std::shared_ptr<const json> results) {
  RunDocument doc;
  doc.source_json = std::move(results);
  const json& j = doc.source();
  doc.header = read_run_header(j);
  doc.tests = read_each(array(j, "tests"), read_test_record);
  const json& compliance = at(j, "compliance");
  doc.has_compliance = compliance.is_object();
  doc.compliance = read_compliance(compliance);
  return doc;
}

}  // namespace ptsuite::results
