// The report's half of the test registry (sections.hpp): one line per test.
#include "report/sections.hpp"

#include <array>

namespace ptsuite::report {

namespace {

// The size follows the list: a new test is one line here, no count to keep in step.
const auto k_sections = std::to_array<TestSections>({
    {"iops", html::iops_pages, iops_text, nullptr},
    {"throughput", html::throughput_pages, throughput_text, nullptr},
    {"latency", html::latency_pages, latency_text, nullptr},
    {"wsat", html::wsat_pages, wsat_text, csv::wsat_rows},
    {"cbw", html::cbw_pages, cbw_text, csv::cbw_rows},
    {"hir", html::hir_pages, hir_text, csv::hir_rows},
    {"xsr", html::xsr_pages, xsr_text, csv::xsr_rows},
    {"dirth", html::dirth_pages, dirth_text, csv::dirth_rows},
    {"ecw", html::ecw_pages, ecw_text, csv::ecw_rows},
    {"endurance-write", html::endurance_write_pages, endurance_text, csv::endurance_rows},
    {"latency-sweep", html::latency_sweep_pages, latency_sweep_text, csv::latency_sweep_rows},
    {"rww-sweep", html::rww_sweep_pages, rww_sweep_text, csv::rww_sweep_rows},
    {"rww-streams", html::rww_streams_pages, rww_streams_text, csv::rww_streams_rows},
    {"rww-replay", html::rww_replay_pages, rww_replay_text, csv::rww_replay_rows},
    {"claims", html::claims_pages, claims_text, csv::claims_rows},
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
