// Contract: the HTML writing primitives of the report: escaping, a few element builders, and
// the number and unit formatting every report page shares. Pure functions of their input:
// thread-safe, no IO, no locale (fmt only), no clock, so the same input gives the same bytes.
//
// Escaping: text() and attr() escape & < > " ' and break every "//" into "/&#47;", so no
// string taken from results.json can form a URL-like "//" sequence in the document (the
// report's promise: no external reference anywhere). Element builders take already-escaped
// inner HTML and escape attribute values themselves.
//
// Units (the report's conventions, stated on the summary page):
//   IOPS   fmt_iops: grouped thousands, 0 decimals from 1000 up, 1 from 10, else 2
//   MB/s   fmt_mbps: decimal MB (10^6 bytes), 1 decimal, grouped
//   time   fmt_ms: nanoseconds -> milliseconds with 3 decimals (microsecond resolution);
//          fmt_latency: in the unit a table chose by magnitude (us below 1 ms, docs/units.md)
//   sizes  kib_label: bytes -> "0.5 KiB", "4 KiB", "1024 KiB" (binary, as the PTS writes them)
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/json_read.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::report::html {

// Escaped text for element content.
std::string text(std::string_view raw);
// Escaped text for a double-quoted attribute value.
std::string attr(std::string_view raw);

// <name class="css_class">inner</name>; `css_class` may be empty (no attribute).
std::string element(std::string_view name, std::string_view css_class, std::string_view inner_html);

// A table: a header row of (escaped here) titles and rows of already-escaped cell HTML.
// `css_class` goes on the <table>. Cells of a row beyond the header count are dropped,
// missing ones are written empty.
struct Table {
  std::string css_class;
  std::vector<std::string> header;             // plain text
  std::vector<std::vector<std::string>> rows;  // cell HTML
  std::vector<std::string> row_classes;        // optional class per row ("" = none)
  size_t first_numeric_column = 1;             // columns from here are right-aligned
};
std::string render_table(const Table& table);

// A definition list as a two-column table of (label, value-HTML) rows.
using Rows = std::vector<std::pair<std::string, std::string>>;  // label text, value HTML
std::string render_rows(const Rows& rows, std::string_view css_class);

// --- numbers -------------------------------------------------------------------------------
// NaN / infinite values format as an en dash ("–").
std::string grouped(double value, int decimals);  // 1234567.891, 1 -> "1,234,567.9"
std::string fmt_iops(double iops);
std::string fmt_mbps(double mb_per_s);
std::string fmt_ms(double ns);  // 22772.6 -> "0.023"
// The unit of a latency chart or table whose values reach `largest_ns` (units::latency_unit_for's
// rule over that one value): a name and divisor for axis labels and scaled series.
struct LatencyUnit {
  std::string name;    // "\u00b5s" or "ms"
  double divisor = 1;  // shown value = ns / divisor
  int decimals = 1;    // \u00b5s: 1 (0.1 us), ms: 3 (1 us)
};
LatencyUnit latency_unit(double largest_ns);
std::string fmt_latency(double ns, const LatencyUnit& unit);  // grouped; NaN -> en dash
// A latency in a table's unit (units::latency_unit_for over the table's values): us with 1
// decimal, ms with 3, grouped ("1,234.5").
std::string fmt_latency(double ns, units::LatencyUnit unit);
std::string fmt_number(double value);                // 4 significant digits, >= 2 decimals
std::string fmt_percent(double pct);                 // 99.999 -> "99.999 %", 20 -> "20 %"
std::string kib_label(uint64_t bytes);               // 512 -> "0.5 KiB"
std::string fmt_bytes(uint64_t bytes);               // 536870912 -> "536.9 MB (512 MiB)"
std::string fmt_duration_ns(uint64_t ns);            // 500000000 -> "0.5 s", 60e9 -> "1 min"
std::string fmt_capacity_multiple(double multiple);  // 0.25 -> "0.25X", 2 -> "2X"

// "2.0.2" -> "PTS 2.0.2", "e1.1" -> "PTS-E 1.1"; anything else verbatim.
std::string revision_label(std::string_view revision);

// --- results.json access: the one tolerant family (results/json_read.hpp) -----------------
using results::at;
using results::num;
using results::str;

// An element id: `prefix` with every character outside [A-Za-z0-9_-] replaced by '-'.
std::string id_of(std::string_view prefix);

}  // namespace ptsuite::report::html
