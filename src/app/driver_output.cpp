// Parsing pgbench and sysbench output (app/driver_output.hpp).
#include <ptsuite/app/driver_output.hpp>

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <regex>
#include <string>

#include <ptsuite/util/error.hpp>

namespace ptsuite::app {

namespace {

constexpr double k_ns_per_ms = 1e6;

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

double to_double(const std::string& s) { return std::strtod(s.c_str(), nullptr); }
uint64_t to_u64(const std::string& s) { return std::strtoull(s.c_str(), nullptr, 10); }

// The first capture of `re` in `text`, or "" when it does not match.
std::string find(std::string_view text, const std::regex& re) {
  std::cmatch m;
  return std::regex_search(text.begin(), text.end(), m, re) ? m[1].str() : "";
}

}  // namespace

DriverSummary parse_pgbench_summary(std::string_view text) {
  static const std::regex k_tps(R"(tps = ([0-9.]+) \(without initial connection time\))");
  static const std::regex k_txns(R"(number of transactions actually processed: ([0-9]+))");
  static const std::regex k_failed(R"(number of failed transactions: ([0-9]+))");
  static const std::regex k_lat(R"(latency average = ([0-9.]+) ms)");
  static const std::regex k_stddev(R"(latency stddev = ([0-9.]+) ms)");
  static const std::regex k_duration(R"(duration: ([0-9]+) s)");
  DriverSummary s;
  const std::string tps = find(text, k_tps);
  const std::string txns = find(text, k_txns);
  if (tps.empty() || txns.empty()) {
    throw SystemError("pgbench printed no summary (tps, transactions processed): see its output in the run log");
  }
  s.tps = to_double(tps);
  s.transactions = to_u64(txns);
  s.failed = to_u64(find(text, k_failed));
  s.latency_mean_ms = to_double(find(text, k_lat));
  const std::string stddev = find(text, k_stddev);
  s.latency_stddev_ms = stddev.empty() ? std::nan("") : to_double(stddev);
  s.latency_max_ms = std::nan("");
  s.duration_s = to_double(find(text, k_duration));
  return s;
}

std::vector<results::AppInterval> parse_pgbench_progress(std::string_view text) {
  static const std::regex k_line(
      R"(^progress: ([0-9.]+) s, ([0-9.]+) tps, lat ([0-9.]+) ms(?: stddev ([0-9.]+|NaN))?(?:, ([0-9]+) failed)?)");
  std::vector<results::AppInterval> out;
  for (std::string_view line : lines_of(text)) {
    std::cmatch m;
    if (!std::regex_search(line.begin(), line.end(), m, k_line)) continue;
    results::AppInterval i;
    i.end_s = to_double(m[1].str());
    i.tps = to_double(m[2].str());
    i.qps = 0;
    i.latency_mean_ms = to_double(m[3].str());
    i.latency_p99_ms = std::nan("");
    // "N failed": the interval's failed transactions; intervals are 1 s (-P 1).
    i.errors_per_s = m[5].matched ? to_double(m[5].str()) : 0;
    out.push_back(i);
  }
  return out;
}

uint64_t add_pgbench_log(std::string_view text, stats::LatencyHistogram& histogram) {
  uint64_t n = 0;
  for (std::string_view line : lines_of(text)) {
    // client_id transaction_no latency_us script_no epoch_s epoch_us; a failed transaction
    // logs "failed" (or "skipped") in the latency column and is not a latency.
    size_t field = 0;
    size_t pos = 0;
    while (field < 2 && pos < line.size()) {
      pos = line.find(' ', pos);
      if (pos == std::string_view::npos) break;
      ++pos;
      ++field;
    }
    if (field != 2 || pos >= line.size()) continue;
    uint64_t us = 0;
    const auto [ptr, ec] = std::from_chars(line.data() + pos, line.data() + line.size(), us);
    if (ec != std::errc() || ptr == line.data() + pos || (ptr != line.data() + line.size() && *ptr != ' ')) continue;
    histogram.record(us * 1000);
    ++n;
  }
  return n;
}

namespace {

void parse_sysbench_interval(std::string_view line, std::vector<results::AppInterval>& out) {
  static const std::regex k_line(
      R"(^\[ *([0-9.]+)s \] thds: [0-9]+ tps: ([0-9.]+) qps: ([0-9.]+) .*lat \(ms,[0-9.]+%\): ([0-9.]+) err/s: ([0-9.]+))");
  std::cmatch m;
  if (!std::regex_search(line.begin(), line.end(), m, k_line)) return;
  out.push_back({to_double(m[1].str()), to_double(m[2].str()), to_double(m[3].str()), std::nan(""),
                 to_double(m[4].str()), to_double(m[5].str())});
}

}  // namespace

SysbenchOutput parse_sysbench(std::string_view text) {
  static const std::regex k_bucket(R"(^ *([0-9.]+) \|[* ]*([0-9]+)\s*$)");
  static const std::regex k_txns(R"(transactions: +([0-9]+) +\(([0-9.]+) per sec\.\))");
  static const std::regex k_queries(R"(queries: +([0-9]+) +\(([0-9.]+) per sec\.\))");
  static const std::regex k_errors(R"(ignored errors: +([0-9]+))");
  static const std::regex k_avg(R"(avg: +([0-9.]+))");
  static const std::regex k_max(R"(max: +([0-9.]+))");
  static const std::regex k_time(R"(total time: +([0-9.]+)s)");
  SysbenchOutput out;
  bool in_histogram = false;
  for (std::string_view line : lines_of(text)) {
    if (line.starts_with("Latency histogram")) {
      in_histogram = true;
      continue;
    }
    if (in_histogram) {
      std::cmatch m;
      if (std::regex_match(line.begin(), line.end(), m, k_bucket)) {
        out.histogram_ms.emplace_back(to_double(m[1].str()), to_u64(m[2].str()));
        continue;
      }
      if (line.find("value") != std::string_view::npos) continue;  // the table's heading
      in_histogram = false;
    }
    parse_sysbench_interval(line, out.series);
  }
  std::cmatch m;
  if (!std::regex_search(text.begin(), text.end(), m, k_txns)) {
    throw SystemError("sysbench printed no SQL statistics (transactions): see its output in the run log");
  }
  out.summary.transactions = to_u64(m[1].str());
  out.summary.tps = to_double(m[2].str());
  if (std::regex_search(text.begin(), text.end(), m, k_queries)) out.summary.qps = to_double(m[2].str());
  out.summary.failed = to_u64(find(text, k_errors));
  const size_t latency_at = text.find("Latency (ms):");
  const std::string_view latency = latency_at == std::string_view::npos ? std::string_view() : text.substr(latency_at);
  out.summary.latency_mean_ms = to_double(find(latency, k_avg));
  out.summary.latency_max_ms = to_double(find(latency, k_max));
  out.summary.latency_stddev_ms = std::nan("");
  out.summary.duration_s = to_double(find(text, k_time));
  return out;
}

results::AppLatency latency_from_buckets(const std::vector<std::pair<double, uint64_t>>& buckets_ms) {
  results::AppLatency l;
  l.source = "sysbench --histogram buckets (about 2 % wide)";
  uint64_t total = 0;
  double sum = 0;
  double sum_sq = 0;
  for (const auto& [v, n] : buckets_ms) {
    total += n;
    sum += v * static_cast<double>(n);
    sum_sq += v * v * static_cast<double>(n);
  }
  if (total == 0) return l;
  const double mean = sum / static_cast<double>(total);
  l.mean_ns = mean * k_ns_per_ms;
  l.stddev_ns = std::sqrt(std::max(0.0, sum_sq / static_cast<double>(total) - mean * mean)) * k_ns_per_ms;
  // Nearest rank: the smallest bucket value with at least ceil(p x N) samples at or below it.
  const auto at_percentile = [&](double p) {
    const auto rank = static_cast<uint64_t>(std::ceil(p / 100.0 * static_cast<double>(total)));
    uint64_t seen = 0;
    for (const auto& [v, n] : buckets_ms) {
      seen += n;
      if (seen >= rank) return static_cast<uint64_t>(std::llround(v * k_ns_per_ms));
    }
    return static_cast<uint64_t>(std::llround(buckets_ms.back().first * k_ns_per_ms));
  };
  l.p95_ns = at_percentile(95);
  l.p99_ns = at_percentile(99);
  l.p999_ns = at_percentile(99.9);
  l.max_ns = at_percentile(100);
  return l;
}

results::AppLatency sysbench_latency(const SysbenchOutput& output) {
  results::AppLatency l = latency_from_buckets(output.histogram_ms);
  l.mean_ns = output.summary.latency_mean_ms * k_ns_per_ms;
  l.max_ns = static_cast<uint64_t>(std::llround(output.summary.latency_max_ms * k_ns_per_ms));
  size_t capped = 0;
  for (uint64_t* p : {&l.p95_ns, &l.p99_ns, &l.p999_ns}) {
    if (l.max_ns > 0 && *p > l.max_ns) {
      *p = l.max_ns;
      ++capped;
    }
  }
  l.source = fmt::format(
      "mean and max exact (as sysbench prints them); 95 / 99 / 99.9 % and stddev from sysbench --histogram bucket "
      "values (buckets about 2 % wide){}",
      capped > 0 ? fmt::format(", {} in the maximum's bucket shown as the exact maximum", capped) : "");
  return l;
}

results::AppLatency latency_from_histogram(const stats::LatencyHistogram& h, double mean_ms, double stddev_ms) {
  results::AppLatency l;
  l.source = "pgbench per-transaction log (-l), every transaction";
  l.mean_ns = mean_ms * k_ns_per_ms;
  l.stddev_ns = stddev_ms * k_ns_per_ms;
  l.p95_ns = h.value_at_percentile_ns(95);
  l.p99_ns = h.value_at_percentile_ns(99);
  l.p999_ns = h.value_at_percentile_ns(99.9);
  l.max_ns = h.value_at_percentile_ns(100);
  return l;
}

}  // namespace ptsuite::app
