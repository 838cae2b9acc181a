// The report's half of the test registry (sections.hpp), expanded from the one test list.
#include "report/sections.hpp"

#include <array>

namespace ptsuite::report {

namespace {

// One entry per line of the one test list (results/test_kinds.def): its functions by name.
const auto k_sections = std::to_array<TestSections>({
#define PTSUITE_TEST(name, id, group, block_key, Record, schema_def) \
  {id, html::name##_pages, name##_text, csv::name##_rows},
#include <ptsuite/results/test_kinds.def>
});

}  // namespace

std::span<const TestSections> all_sections() { return k_sections; }

const TestSections* find_sections(std::string_view test_id) {
  for (const TestSections& s : k_sections) {
    if (s.test_id == test_id) {
      return &s;
    }
  }
  return nullptr;
}

}  // namespace ptsuite::report
