// Contract: the CSV report, one tidy file per test (<test id>.csv), rendered only from a
// results.json document (report_writer.hpp); every number is copied from the document, never
// computed. Deterministic: the same results give byte-identical files.
//
// A simulated run's files (results.json "simulation") start with one line before the header:
// "# SIMULATED drive (model M, seed S): not a measurement of a real drive".
// Format (RFC 4180): a header row, then one row per value; fields separated by ',', rows
// ended by CRLF, a field quoted ("...", inner quotes doubled) only when it holds ',', '"', CR
// or LF. Numbers use '.' as the decimal point whatever the process locale, no thousands
// separators and no exponent (shortest fixed notation that reads back to the same double;
// integers as integers); booleans are 1 / 0 with unit "bool". Every row has every column;
// a key that does not apply is an empty field. Columns (docs/report-formats.md):
//   test, phase, record, round, sample, segment, pattern, rw_mix, block_size, threads,
//   queue_depth, direction, metric, value, unit
// record is what the row belongs to:
//   round            a segment of a Round: per direction (read, write, combined) ios, bytes,
//                    iops, mb_per_s, latency_mean/min/max/stddev and latency_p<percentile>;
//                    elapsed and cpu_user / cpu_system without a direction
//   window           the same per-direction metrics aggregated over the measurement window
//                    (round = "window")
//   steady_state     per phase (rounds_run, attained, attained_round, window_first_round, ...)
//                    and per tracking variable (average, slope, intercept, data/slope
//                    excursion measured and allowed, data_ok, slope_ok, attained, the
//                    90 %/110 % band)
//   tracking_check   each steady-state check (round, attained)
//   wipc             the WIPC segment's metrics plus bytes_target and capacity_multiple
//   prewrite         CBW pre-writes: summary metrics, their per-interval raw counters and
//                    the IOPS-over-time series (sample = interval number)
//   wsat_sample      WSAT samples (sample = sample number): end_time, tgbw, drive_fills, iops,
//                    latency_mean, latency_p99.999, latency_max, and per-direction metrics
//   wsat             the WSAT totals (written_bytes, target_bytes, elapsed, samples)
//   cbw_grid         CBW TC x QD grid values (iops, latency_mean, host_cpu)
//   operating_point  CBW Max/Mid/Min operating points (segment = max|mid|min)
//   capture          response-time captures: per-direction metrics and the confidence-level
//                    series (sample = point number: latency_upper in ns, cumulative in %)
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/run_document.hpp>

namespace ptsuite::report {

struct CsvFile {
  std::string test_id;    // "iops"
  std::string file_name;  // "iops.csv"
  std::string content;
};

// The column names, in order.
const std::vector<std::string>& csv_columns();

// One file per test record of the document, in document order.
std::vector<CsvFile> render_csv(const results::RunDocument& doc);

// The file of one test record.
std::string render_test_csv(const results::TestRecord& test);

// The CSV spelling of a number: shortest round-trip fixed notation with '.' ("0.0000015",
// "5097.227052596965", "3000000"), locale-independent.
std::string csv_number(double value);

}  // namespace ptsuite::report
