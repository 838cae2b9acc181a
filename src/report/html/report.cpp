// render_html(): the summary pages, then each test's pages in run order, numbered as one
// document (html/page.hpp).
#include <ptsuite/report/html_report.hpp>

#include <fmt/format.h>

#include <ptsuite/report/html/figures.hpp>
#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page.hpp>
#include <ptsuite/report/html/test_pages.hpp>

#include "report/sections.hpp"

namespace ptsuite::report {

using nlohmann::json;

namespace {

std::vector<html::Page> pages_of(const json& results, const json& test, html::IdSource& ids) {
  const TestSections* sections = find_sections(html::str(html::at(test, "id")));
  return sections != nullptr ? sections->html_pages(results, test, ids) : html::generic_test_pages(results, test);
}

}  // namespace

std::string render_html(const json& results) {
  html::IdSource ids;
  std::vector<std::pair<std::string, std::vector<html::Page>>> tests;
  for (const json& test : html::at(results, "tests")) {
    tests.emplace_back(html::str(html::at(test, "id")), pages_of(results, test, ids));
  }
  // A spec-sheet validation (`ptsuite validate`: the claims record alone) opens on its verdict
  // and claims table: what its reader came for. Every other report opens on the run summary.
  const bool validation = tests.size() == 1 && tests.front().first == "claims";
  // The summary lists each test's page range; its own length does not depend on the ranges.
  size_t next = validation ? 1 : html::summary_pages(results, {}).size() + 1;
  std::map<std::string, std::string> ranges;
  for (const auto& [id, pages] : tests) {
    ranges[id] = pages.empty() ? "\u2013" : fmt::format("{}\u2013{}", next, next + pages.size() - 1);
    next += pages.size();
  }
  std::vector<html::Page> all;
  if (!validation) {
    all = html::summary_pages(results, ranges);
  }
  for (auto& [id, pages] : tests) {
    for (html::Page& p : pages) {
      all.push_back(std::move(p));
    }
  }
  if (validation) {
    for (html::Page& p : html::summary_pages(results, ranges)) {
      all.push_back(std::move(p));
    }
  }
  const std::string model = html::str(html::at(results, {"device", "model"}));
  const std::string title = fmt::format("SNIA PTS report \u2013 {} \u2013 {}", model.empty() ? "device" : model,
                                        html::revision_label(html::str(html::at(results, {"spec", "revision"}))));
  const std::string footer = fmt::format(
      "{} {} (git {}) \u00b7 results schema {} \u00b7 rendered from results.json only",
      html::str(html::at(results, {"tool", "name"})), html::str(html::at(results, {"tool", "version"})),
      html::str(html::at(results, {"tool", "git_revision"})), html::str(html::at(results, "schema_version")));
  return html::render_document(all, title, footer);
}

}  // namespace ptsuite::report
