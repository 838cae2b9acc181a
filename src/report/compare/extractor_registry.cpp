// The registry of value extractors by results kind (compare_extractor.hpp), expanded from the
// document kinds list (results/document_kinds.def): one make_<name>_extractor() per kind with
// compare = true.
#include <ptsuite/report/compare_extractor.hpp>

#include <memory>

#include "report/compare/extractors.hpp"

namespace ptsuite::report::compare {

namespace {

const std::vector<std::unique_ptr<ValueExtractor>>& registry() {
  static const std::vector<std::unique_ptr<ValueExtractor>> extractors = [] {
    std::vector<std::unique_ptr<ValueExtractor>> v;
#define PTSUITE_DOCUMENT(name, kind, Record, reader, file, html_file, schema, history, compare, title) \
  if constexpr (compare) v.push_back(make_##name##_extractor());
#include <ptsuite/results/document_kinds.def>
    return v;
  }();
  return extractors;
}

}  // namespace

const ValueExtractor* find_extractor(std::string_view kind) {
  for (const auto& e : registry()) {
    if (e->kind() == kind) {
      return e.get();
    }
  }
  return nullptr;
}

std::vector<std::string> extractor_kinds() {
  std::vector<std::string> kinds;
  for (const auto& e : registry()) {
    kinds.emplace_back(e->kind());
  }
  return kinds;
}

}  // namespace ptsuite::report::compare
