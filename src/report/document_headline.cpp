// headline_lines(const results::Document&): the console's lines at the end of a run of any kind
// (report/headline.hpp), from the typed document only.
#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/report/app_report.hpp>
#include <ptsuite/report/campaign_report.hpp>
#include <ptsuite/report/capture_report.hpp>
#include <ptsuite/report/headline.hpp>
#include <ptsuite/report/replay_report.hpp>

namespace ptsuite::report {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t nl = text.find('\n', start);
    out.push_back(text.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

// Up to five reasons one per line; more (a quick run has ~35) as one line counting them by
// clause, the full list being in summary.txt and the report.
void add_reasons(const std::vector<std::string>& reasons, std::vector<std::string>& out) {
  constexpr size_t k_listed = 5;
  if (reasons.size() <= k_listed) {
    for (const std::string& r : reasons) out.push_back("  - " + r);
    return;
  }
  std::vector<std::pair<std::string, size_t>> by_clause;  // in order of first appearance
  for (const std::string& r : reasons) {
    const size_t test_end = r.find(": ");
    const size_t clause_end = test_end == std::string::npos ? std::string::npos : r.find(':', test_end + 2);
    const std::string clause =
        clause_end == std::string::npos ? "other" : r.substr(test_end + 2, clause_end - test_end - 2);
    const auto it = std::find_if(by_clause.begin(), by_clause.end(), [&](const auto& c) { return c.first == clause; });
    if (it == by_clause.end()) {
      by_clause.emplace_back(clause, 1);
    } else {
      ++it->second;
    }
  }
  std::string counts;
  for (const auto& [clause, n] : by_clause) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", clause, n);
  out.push_back(fmt::format("  {} findings, every one in summary.txt and the report: {}", reasons.size(), counts));
}

std::vector<std::string> kind_headline(const results::RunDocument& doc) {
  std::vector<std::string> out;
  if (doc.header.simulation) out.push_back(results::simulation_banner(*doc.header.simulation));
  out.push_back(fmt::format("status: {}; compliance: {}", doc.header.run.status, doc.compliance.summary));
  const std::vector<std::string> tests = headline_lines(doc);
  if (!tests.empty()) {
    out.push_back(doc.compliance.shortened
                      ? "headline (measurement-window values of a SHORTENED run: not PTS results to quote):"
                      : "headline (measurement-window values; every figure in summary.txt and the report):");
    out.insert(out.end(), tests.begin(), tests.end());
  }
  add_reasons(doc.compliance.reasons, out);
  return out;
}

std::vector<std::string> kind_headline(const results::ScenarioDocument& doc) {
  std::vector<std::string> out{fmt::format("status: {}", doc.status)};
  for (const results::PhaseRecord& p : doc.phases) {
    if (p.steps.empty() || p.kind == "fill") continue;
    const results::DirectionRecord& c = p.steps.back().aggregate.combined;
    out.push_back(fmt::format("  {:<20} {} step(s); last: {:.0f} IOPS, {:.1f} MB/s, mean {:.3f} ms", p.name,
                              p.steps.size(), c.iops, c.mb_per_s, c.latency.mean_ns / 1e6));
  }
  return out;
}

std::vector<std::string> kind_headline(const results::AppRun& run) { return lines_of(app_text(run)); }
std::vector<std::string> kind_headline(const results::ReplayRecord& r) { return lines_of(replay_text(r)); }
std::vector<std::string> kind_headline(const results::IoCharacterization& c) { return lines_of(capture_text(c)); }
// The campaign's first line and its outliers (the drives are in campaign.html and summary.txt).
std::vector<std::string> kind_headline(const results::CampaignSummary& c) {
  std::vector<std::string> out = lines_of(campaign_text(c));
  const auto drives =
      std::find_if(out.begin(), out.end(), [](const std::string& l) { return l.rfind("Drives ", 0) == 0; });
  out.erase(drives, out.end());
  return out;
}
std::vector<std::string> kind_headline(const results::Comparison& /*comparison*/) { return {}; }

}  // namespace

std::vector<std::string> headline_lines(const results::Document& doc) {
  return doc.visit([](const auto& record) { return kind_headline(record); });
}

}  // namespace ptsuite::report
