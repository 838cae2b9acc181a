// Contract: the text forms of workload settings, shared by the command line and pts/ data.
// Pure functions; each throws UsageError naming `what` (the option, e.g. "--bs-split") with
// the offending text. Range checks that need the target (capacity, logical block) are left to
// resolve(); these only check the syntax and signs.
//
//   pattern     "random" | "rand" | "sequential" | "seq"                     (case-insensitive)
//   data        "random" | "refill" | "zeros"
//   bs-split    SIZE/WEIGHT[:SIZE/WEIGHT...], e.g. "512/4:1k/1:4k/67:64k/3" (fio's bssplit);
//               weights are relative (> 0); a lone SIZE means that size only
//   zones       IO%/RANGE%[:...], e.g. "50/5:30/15:20/80" (fio's zoned distribution)
//   range       "75%" or "75" (percent of capacity), or OFFSET:LENGTH with sizes ("1GiB:4GiB")
//   bytes       a size ("10GiB") or a multiple of the active range ("2x", "0.5x")
//   cpus        "0,1,4-7"
//   decimal     non-negative decimal number ("250", "12.5") for --rate-mbps
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::workload {

AccessPattern parse_access_pattern(std::string_view text, std::string_view what);
DataPattern parse_data_pattern(std::string_view text, std::string_view what);
std::vector<BlockSizeWeight> parse_bs_split(std::string_view text, std::string_view what);
std::vector<AccessZone> parse_zones(std::string_view text, std::string_view what);
ActiveRangeSpec parse_range(std::string_view text, std::string_view what);

struct ByteLimit {
  uint64_t bytes = 0;         // set for a size
  double range_multiple = 0;  // set for "Nx"
};
ByteLimit parse_byte_limit(std::string_view text, std::string_view what);

std::vector<int> parse_cpu_list(std::string_view text, std::string_view what);
double parse_decimal(std::string_view text, std::string_view what);

}  // namespace ptsuite::workload
