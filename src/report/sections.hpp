// Private to the report module: the report's half of the test registry
// (pts/procedures/registry.hpp holds the other half, keyed by the same id). One entry per test:
// its HTML pages (report/html/test_pages.hpp), its part of summary.txt and its own rows of
// <test>.csv. Everything a test record shares (header, purges, WIPC, Round phases, captures,
// compliance) is rendered by the reporters themselves; a section only adds the test's own
// block, which it reads as its typed record (results::read_* of include/ptsuite/results/). A
// test without an entry (a results.json from a newer ptsuite) gets the generic pages and no
// own text or CSV rows. Adding a test: docs/adding-a-test.md.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/report/html/test_pages.hpp>
#include <ptsuite/results/run_document.hpp>
#include <ptsuite/results/test_record.hpp>

#include "report/csv_writer.hpp"

namespace ptsuite::report {

struct TestSections {
  std::string_view test_id;
  std::vector<html::Page> (*html_pages)(const results::RunDocument& doc, const results::TestRecord& test,
                                        html::IdSource& ids);
  std::string (*text_section)(const results::TestRecord& test);                            // may be null
  void (*csv_rows)(csv::CsvWriter& w, const csv::Keys& base, const results::TestRecord&);  // may be null
};

std::span<const TestSections> all_sections();
// The entry of a test id, or null when the report has none.
const TestSections* find_sections(std::string_view test_id);

// The tests' text sections (text_report.cpp, xsr_sections.cpp).
std::string iops_text(const results::TestRecord& test);
std::string throughput_text(const results::TestRecord& test);
std::string latency_text(const results::TestRecord& test);
std::string wsat_text(const results::TestRecord& test);
std::string cbw_text(const results::TestRecord& test);
std::string xsr_text(const results::TestRecord& test);
std::string hir_text(const results::TestRecord& test);
std::string dirth_text(const results::TestRecord& test);
std::string ecw_text(const results::TestRecord& test);
std::string endurance_text(const results::TestRecord& test);
std::string latency_sweep_text(const results::TestRecord& test);
std::string claims_text(const results::TestRecord& test);
std::string rww_sweep_demand_text(const results::TestRecord& test);
std::string rww_sweep_text(const results::TestRecord& test);    // rww_sections.cpp
std::string rww_streams_text(const results::TestRecord& test);  // rww_sections.cpp
std::string rww_replay_text(const results::TestRecord& test);   // rww_sections.cpp

// The tests' own CSV rows (csv_report.cpp, xsr_sections.cpp).
namespace csv {
void wsat_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test);
void cbw_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test);
void xsr_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test);
void hir_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test);
void dirth_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test);
void ecw_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test);
void endurance_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test);
void latency_sweep_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test);
void claims_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test);
void rww_sweep_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test);
void rww_streams_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test);  // rww_sections.cpp
void rww_replay_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test);   // rww_sections.cpp
}  // namespace csv

}  // namespace ptsuite::report
