// render_html(): the summary pages, then each test's pages in run order, numbered as one
// document (html/page.hpp). The document is read once (results::RunDocument) and every page
// builder takes the typed records.
#include <ptsuite/report/html_report.hpp>

#include <fmt/format.h>

#include <ptsuite/report/html/figures.hpp>
#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page.hpp>
#include <ptsuite/report/html/test_pages.hpp>
#include <ptsuite/results/test_kinds.hpp>

#include "report/sections.hpp"

namespace ptsuite::report {

namespace {

std::vector<html::Page> pages_of(const results::RunDocument& doc, const results::TestRecord& test,
                                 html::IdSource& ids) {
  const TestSections* sections = find_sections(test.header.id);
  return sections != nullptr ? sections->html_pages(doc, test, ids) : html::generic_test_pages(doc, test);
}

}  // namespace

std::string render_html(const results::RunDocument& doc) {
  html::IdSource ids;
  std::vector<std::pair<std::string, std::vector<html::Page>>> tests;
  for (const results::TestRecord& test : doc.tests) {
    tests.emplace_back(test.header.id, pages_of(doc, test, ids));
  }
  // A spec-sheet validation (`ptsuite validate`: the claims record alone) opens on its verdict
  // and claims table: what its reader came for. Every other report opens on the run summary.
  const bool validation = tests.size() == 1 && tests.front().first == results::test_kind::claims::id;
  // The summary lists each test's page range; its own length does not depend on the ranges.
  size_t next = validation ? 1 : html::summary_pages(doc, {}).size() + 1;
  std::map<std::string, std::string> ranges;
  for (const auto& [id, pages] : tests) {
    ranges[id] = pages.empty() ? "\u2013" : fmt::format("{}\u2013{}", next, next + pages.size() - 1);
    next += pages.size();
  }
  std::vector<html::Page> all;
  if (!validation) {
    all = html::summary_pages(doc, ranges);
  }
  for (auto& [id, pages] : tests) {
    for (html::Page& p : pages) {
      all.push_back(std::move(p));
    }
  }
  if (validation) {
    for (html::Page& p : html::summary_pages(doc, ranges)) {
      all.push_back(std::move(p));
    }
  }
  const results::RunHeader& h = doc.header;
  const std::string& model = h.device.model;
  const std::string title = fmt::format("SNIA PTS report \u2013 {} \u2013 {}", model.empty() ? "device" : model,
                                        html::revision_label(h.spec.revision));
  const std::string footer =
      fmt::format("{}{} {} (git {}) \u00b7 results schema {} \u00b7 rendered from results.json only",
                  h.simulation ? "SIMULATED drive, not a measurement \u00b7 " : "", h.tool.name, h.tool.version,
                  h.tool.git_revision, h.schema_version);
  return html::render_document(all, title, footer);
}

}  // namespace ptsuite::report
