// Contract: parsing and formatting of the units ptsuite accepts on the command line and in
// pts/ data files. Pure functions, thread-safe, no PTS knowledge. Parse errors throw
// UsageError naming the option (pass the option name as `what`).
//
// Accepted spellings (docs/units.md is the user-facing copy):
//   sizes      "4096", "4k", "4K", "4KB", "4KiB", "4Ki", "0.5KiB", "1m", "1MiB", "2GiB", "1TiB".
//              Every size suffix is BINARY (k = 1024), whether written k, KB or KiB: as in fio
//              and SSD datasheets, where "4KB random" means 4096 bytes. A bare number is
//              bytes. "512b"/"512B" is bytes. Fractions must come out to a whole byte count.
//   durations  "30" (seconds), "30s", "500ms", "250us", "1m", "1min", "2h", "1d", and sums
//              such as "1h30m". Results are in nanoseconds.
//   percents   "70", "70%", "12.5".
//   rates      MB/s are DECIMAL (1 MB = 10^6 bytes) everywhere in ptsuite's output.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptsuite::units {

inline constexpr uint64_t k_kib = 1024;
inline constexpr uint64_t k_mib = 1024 * k_kib;
inline constexpr uint64_t k_gib = 1024 * k_mib;
inline constexpr uint64_t k_tib = 1024 * k_gib;
inline constexpr double k_decimal_mb = 1e6;  // MB/s in every output is 10^6 bytes per second
inline constexpr uint64_t k_ns_per_s = 1'000'000'000;

uint64_t parse_size_bytes(std::string_view text, std::string_view what);
uint64_t parse_duration_ns(std::string_view text, std::string_view what);
double parse_percent(std::string_view text, std::string_view what);  // 0..100 inclusive
uint64_t parse_count(std::string_view text, std::string_view what);  // "1000", "10k"=10000, "1M"
// A drive capacity as drive makers write it: decimal kB / MB / GB / TB / PB (10^3n bytes:
// "3.84TB" = 3,840,000,000,000) and binary KiB / MiB / GiB / TiB / PiB; a bare number is bytes.
// Sizes elsewhere (block sizes, --scratch-size) stay binary (parse_size_bytes).
uint64_t parse_capacity_bytes(std::string_view text, std::string_view what);

// "4KiB", "0.5KiB", "1MiB", "1536B" (exact, binary units, shortest exact form).
std::string format_size_binary(uint64_t bytes);
// "2.00 GiB" style, 2 decimals, for human summaries.
std::string format_size_human(uint64_t bytes);
// "1h02m03s", "45.2s", "850ms".
std::string format_duration(uint64_t ns);

// Latency units (docs/units.md "What ptsuite prints"): reviews speak microseconds below 1 ms
// ("78 us", not "0.078 ms"), so every table that prints latencies picks one unit for the whole
// table by the magnitude of what it holds: us (1 decimal) when the median of its latencies
// (finite and > 0) is below 1 ms, else ms (3 decimals). An empty set is ms.
enum class LatencyUnit { us, ms };
LatencyUnit latency_unit_for(std::vector<double> values_ns);
double in_latency_unit(double ns, LatencyUnit unit);
int latency_decimals(LatencyUnit unit);             // us: 1, ms: 3
const char* latency_unit_name(LatencyUnit unit);    // "us" / "ms" (ASCII: consoles and CSV)
const char* latency_unit_symbol(LatencyUnit unit);  // "\u00b5s" / "ms" (reports)
// One latency on its own (a console line): "476.4us", "1.452ms", "2.310s"; "-" for NaN.
std::string format_latency(double ns);

}  // namespace ptsuite::units
