// Contract: what the benchmark drivers print, parsed into the app results' figures
// (results/app_run.hpp). Pure functions over text, so every format is pinned by tests on real
// output (tests/data/app/):
//   pgbench (PostgreSQL 15): the summary on stdout ("tps = ... (without initial connection
//     time)", "latency average", "latency stddev", "number of transactions actually processed",
//     "number of failed transactions"), the progress lines of -P on stderr ("progress: 1.0 s,
//     1787.8 tps, lat 1.104 ms stddev 1.999, 0 failed"), and the per-transaction logs of -l
//     ("client transaction latency_us script epoch_s us"): exact percentiles come from those.
//   sysbench 1.0.20: the interval lines of --report-interval ("[ 1s ] thds: 2 tps: 706.96
//     qps: ... lat (ms,99%): 18.28 err/s: 0.00 ..."), the SQL and latency statistics, and the
//     --histogram table (milliseconds, bucket value and count): its percentiles and standard
//     deviation are computed from the buckets (resolution about 2 %, said in the results).
// Lines that do not match are skipped; a summary without its key lines throws SystemError
// naming the driver (the run then fails with the driver's output in the log).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <ptsuite/results/app_run.hpp>
#include <ptsuite/stats/latency_histogram.hpp>

namespace ptsuite::app {

struct DriverSummary {
  double tps = 0;
  double qps = 0;
  uint64_t transactions = 0;
  uint64_t failed = 0;
  double latency_mean_ms = 0;
  double latency_stddev_ms = 0;  // NaN when not reported
  double latency_max_ms = 0;     // NaN when not reported
  double duration_s = 0;
};

DriverSummary parse_pgbench_summary(std::string_view stdout_text);
std::vector<results::AppInterval> parse_pgbench_progress(std::string_view stderr_text);
// Adds every transaction's latency (microseconds in the log) to `histogram` in ns; returns the
// number of lines read.
uint64_t add_pgbench_log(std::string_view log_text, stats::LatencyHistogram& histogram);

struct SysbenchOutput {
  DriverSummary summary;
  std::vector<results::AppInterval> series;
  std::vector<std::pair<double, uint64_t>> histogram_ms;  // (bucket value ms, count)
};
SysbenchOutput parse_sysbench(std::string_view text);

// Percentiles, mean and stddev of a (value, count) histogram (sysbench's), in ns.
results::AppLatency latency_from_buckets(const std::vector<std::pair<double, uint64_t>>& buckets_ms);
// sysbench's figures as the results hold them: mean and maximum exact, as sysbench prints them;
// 95 / 99 / 99.9 % and stddev from its --histogram buckets. A bucket's value lies up to half a
// bucket (about 1 %) above the samples in it, so a percentile in the maximum's bucket can read
// above the exact maximum (773.683 ms next to max 769.650 ms): such a percentile is the maximum
// (the samples at that rank are at most the maximum), and `source` says which figures are exact
// and which bucket values, and how many percentiles were capped.
results::AppLatency sysbench_latency(const SysbenchOutput& output);
// The same from an exact histogram plus the exact mean/stddev the driver printed.
results::AppLatency latency_from_histogram(const stats::LatencyHistogram& histogram, double mean_ms, double stddev_ms);

}  // namespace ptsuite::app
