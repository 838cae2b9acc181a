#include <ptsuite/util/units.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/int128.hpp>
#include <ptsuite/util/text.hpp>

namespace ptsuite::units {

namespace {

// A decimal number held exactly as numerator / 10^decimals, so that "0.5KiB" and "1.5s"
// convert to whole bytes and nanoseconds without floating-point rounding.
struct ExactDecimal {
  uint128_t numerator = 0;
  uint64_t denominator = 1;
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// Consumes a non-negative decimal number from the front of `s`. Returns false when `s` does
// not start with a digit (or ".digit"), or the number has more than 18 fraction digits.
bool take_decimal(std::string_view& s, ExactDecimal& out) {
  size_t i = 0;
  bool any_digit = false;
  out = ExactDecimal{};
  constexpr uint128_t k_limit = static_cast<uint128_t>(1) << 100;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) != 0) {
    out.numerator = out.numerator * 10 + static_cast<unsigned>(s[i] - '0');
    if (out.numerator > k_limit) {
      return false;
    }
    any_digit = true;
    ++i;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    int decimals = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) != 0) {
      if (++decimals > 18) {
        return false;
      }
      out.numerator = out.numerator * 10 + static_cast<unsigned>(s[i] - '0');
      out.denominator *= 10;
      any_digit = true;
      ++i;
    }
  }
  if (!any_digit) {
    return false;
  }
  s.remove_prefix(i);
  return true;
}

// numerator * multiplier / denominator when it is a whole number that fits in uint64_t.
bool scale_exact(const ExactDecimal& d, uint64_t multiplier, uint64_t& out) {
  const uint128_t product = d.numerator * multiplier;
  if (d.numerator != 0 && product / d.numerator != multiplier) {
    return false;
  }
  if (product % d.denominator != 0) {
    return false;
  }
  const uint128_t value = product / d.denominator;
  if (value > std::numeric_limits<uint64_t>::max()) {
    return false;
  }
  out = static_cast<uint64_t>(value);
  return true;
}

bool size_multiplier(const std::string& suffix, uint64_t& mult) {
  struct Entry {
    const char* spelling;
    uint64_t multiplier;
  };
  static constexpr std::array<Entry, 18> k_table{{
      {"", 1},
      {"b", 1},
      {"k", k_kib},
      {"kb", k_kib},
      {"ki", k_kib},
      {"kib", k_kib},
      {"m", k_mib},
      {"mb", k_mib},
      {"mi", k_mib},
      {"mib", k_mib},
      {"g", k_gib},
      {"gb", k_gib},
      {"gi", k_gib},
      {"gib", k_gib},
      {"t", k_tib},
      {"tb", k_tib},
      {"ti", k_tib},
      {"tib", k_tib},
  }};
  for (const Entry& e : k_table) {
    if (suffix == e.spelling) {
      mult = e.multiplier;
      return true;
    }
  }
  return false;
}

bool duration_multiplier(const std::string& unit, uint64_t& mult) {
  struct Entry {
    const char* spelling;
    uint64_t ns;
  };
  static constexpr std::array<Entry, 13> k_table{{
      {"ns", 1},
      {"us", 1'000},
      {"ms", 1'000'000},
      {"s", k_ns_per_s},
      {"sec", k_ns_per_s},
      {"secs", k_ns_per_s},
      {"m", 60 * k_ns_per_s},
      {"min", 60 * k_ns_per_s},
      {"mins", 60 * k_ns_per_s},
      {"h", 3600 * k_ns_per_s},
      {"hr", 3600 * k_ns_per_s},
      {"hrs", 3600 * k_ns_per_s},
      {"d", 86400 * k_ns_per_s},
  }};
  for (const Entry& e : k_table) {
    if (unit == e.spelling) {
      mult = e.ns;
      return true;
    }
  }
  return false;
}

[[noreturn]] void bad(std::string_view what, std::string_view text, std::string_view hint) {
  throw UsageError(std::string(what), fmt::format("\"{}\" is not {}", text, hint));
}

}  // namespace

uint64_t parse_size_bytes(std::string_view text, std::string_view what) {
  constexpr std::string_view k_hint =
      "a size; use e.g. 4096, 4k, 4KiB, 0.5KiB, 1MiB, 2GiB (all suffixes are binary, k = 1024)";
  std::string_view s = trim(text);
  if (!s.empty() && s.front() == '-') {
    throw UsageError(std::string(what), fmt::format("\"{}\" is negative; sizes must be positive", text));
  }
  ExactDecimal number;
  if (!take_decimal(s, number)) {
    bad(what, text, k_hint);
  }
  uint64_t mult = 0;
  if (!size_multiplier(lower(trim(s)), mult)) {
    bad(what, text, k_hint);
  }
  uint64_t bytes = 0;
  if (!scale_exact(number, mult, bytes)) {
    throw UsageError(std::string(what), fmt::format("\"{}\" is not a whole number of bytes or is too large", text));
  }
  return bytes;
}

uint64_t parse_capacity_bytes(std::string_view text, std::string_view what) {
  constexpr std::string_view k_hint = "a capacity; use e.g. 3.84TB, 960GB (decimal) or 894GiB, 1TiB (binary)";
  std::string_view s = trim(text);
  if (!s.empty() && s.front() == '-') {
    throw UsageError(std::string(what), fmt::format("\"{}\" is negative; capacities must be positive", text));
  }
  ExactDecimal number;
  if (!take_decimal(s, number)) {
    bad(what, text, k_hint);
  }
  const std::string suffix = lower(trim(s));
  static constexpr std::array<std::pair<std::string_view, uint64_t>, 12> k_units{{{"", 1},
                                                                                  {"b", 1},
                                                                                  {"kb", 1'000},
                                                                                  {"mb", 1'000'000},
                                                                                  {"gb", 1'000'000'000},
                                                                                  {"tb", 1'000'000'000'000},
                                                                                  {"pb", 1'000'000'000'000'000},
                                                                                  {"kib", k_kib},
                                                                                  {"mib", k_mib},
                                                                                  {"gib", k_gib},
                                                                                  {"tib", k_tib},
                                                                                  {"pib", k_tib * 1024}}};
  const auto unit = std::find_if(k_units.begin(), k_units.end(), [&](const auto& u) { return u.first == suffix; });
  if (unit == k_units.end()) {
    bad(what, text, k_hint);
  }
  uint64_t bytes = 0;
  if (!scale_exact(number, unit->second, bytes)) {
    throw UsageError(std::string(what), fmt::format("\"{}\" is not a whole number of bytes or is too large", text));
  }
  return bytes;
}

uint64_t parse_duration_ns(std::string_view text, std::string_view what) {
  constexpr std::string_view k_hint = "a duration; use e.g. 30 (seconds), 30s, 500ms, 5m, 2h, 1h30m";
  std::string_view s = trim(text);
  if (!s.empty() && s.front() == '-') {
    throw UsageError(std::string(what), fmt::format("\"{}\" is negative; durations must be positive", text));
  }
  if (s.empty()) {
    bad(what, text, k_hint);
  }
  uint128_t total = 0;
  while (!s.empty()) {
    ExactDecimal number;
    if (!take_decimal(s, number)) {
      bad(what, text, k_hint);
    }
    size_t n = 0;
    while (n < s.size() && std::isalpha(static_cast<unsigned char>(s[n])) != 0) {
      ++n;
    }
    const std::string unit = lower(s.substr(0, n));
    s.remove_prefix(n);
    uint64_t mult = 0;
    if (unit.empty()) {
      // A bare number is seconds, but only on its own: "1h30" is ambiguous.
      if (total != 0 || !s.empty()) {
        bad(what, text, k_hint);
      }
      mult = k_ns_per_s;
    } else if (!duration_multiplier(unit, mult)) {
      bad(what, text, k_hint);
    }
    uint64_t part = 0;
    if (!scale_exact(number, mult, part)) {
      throw UsageError(std::string(what),
                       fmt::format("\"{}\" is not a whole number of nanoseconds or is too large", text));
    }
    total += part;
    s = trim(s);
  }
  if (total > std::numeric_limits<uint64_t>::max()) {
    throw UsageError(std::string(what), fmt::format("\"{}\" is too large", text));
  }
  return static_cast<uint64_t>(total);
}

double parse_percent(std::string_view text, std::string_view what) {
  std::string_view s = trim(text);
  if (!s.empty() && s.back() == '%') {
    s.remove_suffix(1);
  }
  if (!s.empty() && s.front() == '-') {
    throw UsageError(std::string(what), fmt::format("{} is out of range; give a percentage from 0 to 100", text));
  }
  ExactDecimal number;
  if (!take_decimal(s, number) || !trim(s).empty()) {
    bad(what, text, "a percentage; use e.g. 70, 70%, 12.5");
  }
  const double value = static_cast<double>(number.numerator) / static_cast<double>(number.denominator);
  if (value > 100.0) {
    throw UsageError(std::string(what), fmt::format("{} is out of range; give a percentage from 0 to 100", text));
  }
  return value;
}

uint64_t parse_count(std::string_view text, std::string_view what) {
  constexpr std::string_view k_hint = "a count; use e.g. 1000, 10k (=10000), 2M (=2000000)";
  std::string_view s = trim(text);
  if (!s.empty() && s.front() == '-') {
    throw UsageError(std::string(what), fmt::format("\"{}\" is negative; counts must be positive", text));
  }
  ExactDecimal number;
  if (!take_decimal(s, number)) {
    bad(what, text, k_hint);
  }
  const std::string suffix = lower(trim(s));
  uint64_t mult = 0;
  if (suffix.empty()) {
    mult = 1;
  } else if (suffix == "k") {
    mult = 1'000;
  } else if (suffix == "m") {
    mult = 1'000'000;
  } else if (suffix == "g") {
    mult = 1'000'000'000;
  } else {
    bad(what, text, k_hint);
  }
  uint64_t value = 0;
  if (!scale_exact(number, mult, value)) {
    throw UsageError(std::string(what), fmt::format("\"{}\" is not a whole number or is too large", text));
  }
  return value;
}

std::string format_size_binary(uint64_t bytes) {
  struct Unit {
    uint64_t size;
    const char* name;
  };
  static constexpr std::array<Unit, 4> k_units{{{k_tib, "TiB"}, {k_gib, "GiB"}, {k_mib, "MiB"}, {k_kib, "KiB"}}};
  if (bytes == 0) {
    return "0B";
  }
  for (const Unit& u : k_units) {
    if (bytes % u.size == 0) {
      return fmt::format("{}{}", bytes / u.size, u.name);
    }
  }
  // PTS names sub-KiB multiples of 512 B as 0.5, 1.5, 2.5 ... KiB.
  if (bytes % 512 == 0) {
    return fmt::format("{}.5KiB", bytes / k_kib);
  }
  return fmt::format("{}B", bytes);
}

std::string format_size_human(uint64_t bytes) {
  struct Unit {
    uint64_t size;
    const char* name;
  };
  static constexpr std::array<Unit, 4> k_units{{{k_tib, "TiB"}, {k_gib, "GiB"}, {k_mib, "MiB"}, {k_kib, "KiB"}}};
  for (const Unit& u : k_units) {
    if (bytes >= u.size) {
      return fmt::format("{:.2f} {}", static_cast<double>(bytes) / static_cast<double>(u.size), u.name);
    }
  }
  return fmt::format("{} B", bytes);
}

std::string format_duration(uint64_t ns) {
  const uint64_t s = ns / k_ns_per_s;
  if (s >= 3600) {
    return fmt::format("{}h{:02}m{:02}s", s / 3600, (s / 60) % 60, s % 60);
  }
  if (s >= 60) {
    return fmt::format("{}m{:02}s", s / 60, s % 60);
  }
  if (ns >= k_ns_per_s) {
    return fmt::format("{:.1f}s", static_cast<double>(ns) / 1e9);
  }
  if (ns >= 1'000'000) {
    return fmt::format("{}ms", ns / 1'000'000);
  }
  return fmt::format("{:.1f}us", static_cast<double>(ns) / 1e3);
}

LatencyUnit latency_unit_for(std::vector<double> values_ns) {
  std::erase_if(values_ns, [](double v) { return !(v > 0) || !std::isfinite(v); });
  if (values_ns.empty()) return LatencyUnit::ms;
  const auto mid = values_ns.begin() + static_cast<std::ptrdiff_t>(values_ns.size() / 2);
  std::nth_element(values_ns.begin(), mid, values_ns.end());
  return *mid < 1e6 ? LatencyUnit::us : LatencyUnit::ms;
}

double in_latency_unit(double ns, LatencyUnit unit) { return ns / (unit == LatencyUnit::us ? 1e3 : 1e6); }
int latency_decimals(LatencyUnit unit) { return unit == LatencyUnit::us ? 1 : 3; }
const char* latency_unit_name(LatencyUnit unit) { return unit == LatencyUnit::us ? "us" : "ms"; }
const char* latency_unit_symbol(LatencyUnit unit) { return unit == LatencyUnit::us ? "\u00b5s" : "ms"; }

std::string format_latency(double ns) {
  if (!std::isfinite(ns)) return "-";
  if (ns >= 1e9) return fmt::format("{:.3f}s", ns / 1e9);
  if (ns >= 1e6) return fmt::format("{:.3f}ms", ns / 1e6);
  return fmt::format("{:.1f}us", ns / 1e3);
}

}  // namespace ptsuite::units
