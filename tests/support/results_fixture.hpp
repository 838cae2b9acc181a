// Contract: small, deterministic results.json documents for reporter tests, produced by the
// REAL test classes (pts::make_test(...)->run, through the registry), the real round loop, window aggregation,
// statistics summaries, compliance evaluation and settings disclosure, over a fake step
// executor that models a plausible SSD instead of touching a device. Nothing here computes
// what the real code computes; the fake only invents what a device would have measured
// (IOPS, latency distributions, purge / write-cache / health records).
//
// Fixtures (checked in as tests/data/results/<name>.json, compact JSON as `ptsuite run`
// writes it):
//   steady        PTS-E 2.0.2 at spec defaults on an NVMe drive: IOPS and Latency; every
//                 phase attains steady state; the run is compliant.
//   not-attained  PTS-E 2.0.2 at spec defaults on a 4Kn NVMe drive whose write performance
//                 keeps oscillating: Latency (NOT attained after 25 Rounds; 0.5 KiB omitted),
//                 Throughput (1024 KiB attained, 128 KiB NOT attained), WSAT (4X capacity);
//                 compliant: SS NOT ACHIEVED (disclosed: the spec allows stopping at the cap).
//   quick         `--quick` on an 8 GiB scratch loop device: Throughput, WSAT (stops at its
//                 time limit), CBW and XSR: not compliant: shortened (plus discard purge, no
//                 write-cache control, 0.25X WIPC).
// Generated only, never checked in (tens of MB; tests/unit/report/results_size_test.cpp):
//   worst-case    a full five-test PTS-E 2.0.2 run on a 3.84 TB drive that never settles
//                 (every steady-state phase to the Round cap), dense histograms everywhere:
//                 the upper bound of a real run's results.json size.
// Together they cover every registered test; sizes are 0.5-0.9 MB each (an IOPS or CBW record alone
// holds >= 250 segment results of ~2 KB: 5 Rounds x 49-56 segments).
//
// The checked-in copies must equal what generate_results_fixture() produces; the test
// ResultsFixture.CheckedInCopiesAreCurrent fails otherwise. To regenerate after a change to
// the results model, the tests' logic, pts/ data or this generator:
//   PTSUITE_REGENERATE_FIXTURES=1 build/ptsuite_tests --gtest_filter='ResultsFixture.*'
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ptsuite::test_support {

// "steady", "not-attained", "quick".
std::vector<std::string> results_fixture_names();

// Runs the fixture's tests over the device model and assembles the results document.
// Deterministic: the same source tree gives the same document, byte for byte once serialized.
nlohmann::json generate_results_fixture(const std::string& name);

// The checked-in form: compact JSON (like results.json of a run) and a final newline.
std::string serialize_results_fixture(const nlohmann::json& document);

// <tests/data>/results/<name>.json
std::string results_fixture_path(const std::string& name);

// The checked-in copy, parsed once per process (throws std::runtime_error when unreadable).
const nlohmann::json& load_results_fixture(const std::string& name);

// The record of test `id` ("iops", "wsat", ...) in a results document's "tests" (throws
// std::runtime_error when the document has none).
const nlohmann::json& test_of(const nlohmann::json& doc, const std::string& id);

}  // namespace ptsuite::test_support
