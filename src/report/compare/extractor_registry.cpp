// The registry of value extractors by results kind (compare_extractor.hpp): PTS results,
// scenario results, app runs and replay records; a new kind adds its factory to registry().
#include <ptsuite/report/compare_extractor.hpp>

#include <memory>

#include "report/compare/extractors.hpp"

namespace ptsuite::report::compare {

namespace {

const std::vector<std::unique_ptr<ValueExtractor>>& registry() {
  static const std::vector<std::unique_ptr<ValueExtractor>> extractors = [] {
    std::vector<std::unique_ptr<ValueExtractor>> v;
    v.push_back(make_results_extractor());
    v.push_back(make_scenario_extractor());
    v.push_back(make_app_extractor());
    v.push_back(make_replay_extractor());
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
