// Private to the report module: the report's half of the test registry
// (pts/procedures/registry.hpp holds the other half), both expanded from the one test list
// (results/test_kinds.def). One entry per test:
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
  std::string (*text_section)(const results::TestRecord& test);
  void (*csv_rows)(csv::CsvWriter& w, const csv::Keys& base, const results::TestRecord&);
};

std::span<const TestSections> all_sections();
// The entry of a test id, or null when the report has none.
const TestSections* find_sections(std::string_view test_id);

// Every test of the one list (results/test_kinds.def) has its text section `<name>_text` and its
// own CSV rows `csv::<name>_rows` (text_report.cpp, csv_report.cpp, <test>_sections.cpp).
#define PTSUITE_TEST(name, id, group, block_key, Record, schema_def) \
  std::string name##_text(const results::TestRecord& test);
#include <ptsuite/results/test_kinds.def>
std::string rww_sweep_demand_text(const results::TestRecord& test);

namespace csv {
#define PTSUITE_TEST(name, id, group, block_key, Record, schema_def) \
  void name##_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test);
#include <ptsuite/results/test_kinds.def>
}  // namespace csv

}  // namespace ptsuite::report
