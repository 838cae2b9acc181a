// Contract: the content of the SNIA page header (pts-spec.md §4.1) from the typed results
// document (results::RunDocument): the Test Platform column (the run header's platform, tool,
// config.engine and target), the Device Under Test column (its device plus, per test, the purge
// method and whether it is a PTS purge from the record's purges, and the write-cache state from
// its header's write_cache record), and the shared rows of the Set-up and Test Parameters
// columns (data pattern, ActiveRange, WIPC with TOIO and amount, steady-state rounds and rules).
// Each test's page builder adds its own rows.
// Pure functions; they only select and format values present in the document.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page.hpp>
#include <ptsuite/results/purge.hpp>
#include <ptsuite/results/round_phase.hpp>
#include <ptsuite/results/run_document.hpp>
#include <ptsuite/results/run_header.hpp>
#include <ptsuite/results/test_record.hpp>

namespace ptsuite::report::html {

// The header of the summary pages (test = run-wide values).
PageHeader summary_header(const results::RunDocument& doc);
// The header of one test's pages: platform and DUT columns filled here, `setup` and `params`
// become the Set-up Parameters and Test Parameters columns.
PageHeader test_header(const results::RunHeader& run, const results::TestRecord& test, Rows setup, Rows params);

Rows platform_rows(const results::RunHeader& run);
// The DUT column of one test's pages: the device, the test's purge and write cache.
Rows dut_rows(const results::RunHeader& run, const results::TestRecord& test);
// The DUT column of the summary: purge and write cache summarised over all tests.
Rows dut_rows(const results::RunDocument& doc);

// Set-up rows every test shares: Data Pattern, AR (and amount), each WIPC of the test's
// preconditioning ("PC1"), then the given WDPC description ("PC2", empty = none), the SS rounds
// of every phase, and Notes (SS NOT ACHIEVED, shortened, omitted block sizes).
Rows common_setup_rows(const results::RunHeader& run, const results::TestRecord& test, const std::string& wdpc);

// A phase name that is a block size ("1MiB", the Throughput phases) in KiB ("1024 KiB");
// any other name ("main", "precondition") unchanged.
std::string size_label(const std::string& name);
std::string phase_name(const results::RoundPhase& phase);
// The i-th phase, or a shared empty one (a record without that phase).
const results::RoundPhase& phase_at(const std::vector<results::RoundPhase>& phases, size_t i);

// "TC 4 / QD 32 (TOIO 128)"; "–" for a record without TOIO (a TC x QD grid).
std::string toio_text(const std::optional<results::ToioRecord>& toio);
// The rounds of a phase's measurement window with the verdict:
// "Rounds 2–6, steady state at Round 6" or "Rounds 2–6, SS NOT ACHIEVED (6 Rounds run)" (HTML).
std::string ss_rounds_html(const results::RoundPhase& phase);
// Test-parameter rows of a round loop: segment length and count, SS window and limits, the
// round rule (first check, maximum) and the tracking variables.
Rows round_loop_rows(const results::RoundPhase& phase);
// Test-parameter rows of a R/W-mix x block-size matrix test (IOPS, Latency): stimulus, the
// mixes and block sizes of its matrix, TOIO, then round_loop_rows(phase).
Rows matrix_loop_rows(const std::vector<std::string>& mixes, const std::vector<std::string>& block_sizes,
                      const std::optional<results::ToioRecord>& toio, const results::RoundPhase& phase);
// The write-cache cell (HTML): what the profile requires and what was set and verified.
std::string write_cache_html(const results::TestHeader& test);
// The purge cell (HTML) of one test: each distinct method, "PTS purge" or "NOT a PTS purge".
std::string purge_html(const std::vector<results::PurgeRecord>& purges);
// "RND (random data)" for "random"; zeros are flagged as not PTS data.
std::string data_pattern_html(const std::string& pattern);

}  // namespace ptsuite::report::html
