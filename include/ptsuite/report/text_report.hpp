// Contract: the text summary (summary.txt), rendered only from a results.json document
// (report_writer.hpp); it copies and formats numbers, never computes results. Deterministic,
// plain ASCII-friendly UTF-8, lines of at most ~100 columns, ends with '\n'.
//
// Content: the run (spec revision and profile, device, target, tested-by, status, times,
// settings changed from the spec defaults) and its compliance verdict with every reason;
// then per test: TOIO and ActiveRange, each phase's steady-state outcome ("attained in Rounds
// a-b" or "NOT ACHIEVED after n Rounds") with every tracking variable's average and measured
// vs allowed excursions, the key numbers (IOPS matrix; Throughput MB/s table; Latency table
// with IOPS, ART, 99.999 % and MRT; WSAT first and final samples, TGBW and drive fills; CBW
// operating points), response-time captures (ART, 99.99 %, 99.999 %, MRT), and the test's
// compliance verdict with its reasons. Latencies are shown in ms, MB is decimal.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/results/run_document.hpp>

namespace ptsuite::report {

std::string render_text(const results::RunDocument& doc);

}  // namespace ptsuite::report
