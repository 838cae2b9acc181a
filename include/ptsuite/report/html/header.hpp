// Contract: the content of the SNIA page header (pts-spec.md §4.1) from results.json: the
// Test Platform column (results.platform, results.tool, results.config.engine, results.target),
// the Device Under Test column (results.device plus, per test, the purge method and whether it
// is a PTS purge from test.purges[], and the write-cache state from test.write_cache), and the
// shared rows of the Set-up and Test Parameters columns (data pattern, ActiveRange, WIPC with
// TOIO and amount, steady-state rounds and rules). Each test's page builder adds its own rows.
// Pure functions; they only select and format values present in the document.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page.hpp>
#include <ptsuite/results/round_phase.hpp>

namespace ptsuite::report::html {

// The header of the summary pages (test = run-wide values).
PageHeader summary_header(const nlohmann::json& results);
// The header of one test's pages: platform and DUT columns filled here, `setup` and `params`
// become the Set-up Parameters and Test Parameters columns.
PageHeader test_header(const nlohmann::json& results, const nlohmann::json& test, Rows setup, Rows params);

Rows platform_rows(const nlohmann::json& results);
// `test` may be null (summary): purge and write cache are then summarised over all tests.
Rows dut_rows(const nlohmann::json& results, const nlohmann::json& test);

// Set-up rows every test shares: Data Pattern, AR (and amount), each WIPC of test.preconditioning
// ("PC1"), then the given WDPC description ("PC2", empty = none), the SS rounds of every phase,
// and Notes (SS NOT ACHIEVED, shortened, omitted block sizes).
Rows common_setup_rows(const nlohmann::json& results, const nlohmann::json& test, const std::string& wdpc);

// A phase name that is a block size ("1MiB", the Throughput phases) in KiB ("1024 KiB");
// any other name ("main", "precondition") unchanged.
std::string size_label(const std::string& name);
std::string phase_name(const results::RoundPhase& phase);
// The i-th phase, or a shared empty one (a record without that phase).
const results::RoundPhase& phase_at(const std::vector<results::RoundPhase>& phases, size_t i);

// "TC 4 / QD 32 (TOIO 128)"; "–" for a null TOIO.
std::string toio_text(const nlohmann::json& toio);
// The rounds of a phase's measurement window with the verdict:
// "Rounds 2–6, steady state at Round 6" or "Rounds 2–6, SS NOT ACHIEVED (6 Rounds run)" (HTML).
std::string ss_rounds_html(const results::RoundPhase& phase);
// Test-parameter rows of a round loop: segment length and count, SS window and limits, the
// round rule (first check, maximum) and the tracking variables.
Rows round_loop_rows(const results::RoundPhase& phase);
// Test-parameter rows of a R/W-mix x block-size matrix test (IOPS, Latency): stimulus, the
// mixes and block sizes of its matrix, TOIO, then round_loop_rows(phase).
Rows matrix_loop_rows(const std::vector<std::string>& mixes, const std::vector<std::string>& block_sizes,
                      const nlohmann::json& toio, const results::RoundPhase& phase);
// The write-cache cell (HTML): what the profile requires and what was set and verified.
std::string write_cache_html(const nlohmann::json& test);
// The purge cell (HTML) of one test: each distinct method, "PTS purge" or "NOT a PTS purge".
std::string purge_html(const nlohmann::json& test);
// "RND (random data)" for "random"; zeros are flagged as not PTS data.
std::string data_pattern_html(const nlohmann::json& pattern);

}  // namespace ptsuite::report::html
