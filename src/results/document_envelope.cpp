#include <ptsuite/results/document_envelope.hpp>

#include <nlohmann/json.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

using nlohmann::json;

DocumentEnvelope read_envelope(const json& document) {
  DocumentEnvelope e;
  e.is_object = document.is_object();
  if (!e.is_object) {
    return e;
  }
  const json& kind = at(document, "kind");
  e.kind = kind.is_string() ? kind.get<std::string>() : "";
  const json& version = at(document, "schema_version");
  if (version.is_number_integer()) {
    e.integer_schema_version = version.get<int64_t>();
  }
  if (version.is_number()) {
    e.numeric_schema_version = version.get<double>();
  }
  e.schema_version_text = version.is_null() ? "" : version.dump();
  e.has_tests_array = at(document, "tests").is_array();
  e.has_phases_array = at(document, "phases").is_array();
  e.has_app = document.contains("app");
  e.has_instances = document.contains("instances");
  return e;
}

}  // namespace ptsuite::results
