#include <ptsuite/workload/spec_parse.hpp>

#include <fmt/format.h>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/text.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::workload {

namespace {

std::string lower(std::string_view s) {
  std::string out(trim(s));
  for (char& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) {
      return parts;
    }
    start = pos + 1;
  }
}

[[noreturn]] void bad(std::string_view what, std::string_view text, std::string_view expected) {
  throw UsageError(std::string(what), fmt::format("\"{}\" is not {}", text, expected));
}

// A plain decimal number (digits, optional fraction), fully consumed; no sign, no exponent.
bool take_plain_decimal(std::string_view text, double& out) {
  const std::string_view s = trim(text);
  if (s.empty()) {
    return false;
  }
  for (char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0 && c != '.') {
      return false;
    }
  }
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out, std::chars_format::fixed);
  return ec == std::errc() && ptr == s.data() + s.size() && std::isfinite(out);
}

int parse_cpu(std::string_view text, std::string_view what, std::string_view whole) {
  const std::string_view s = trim(text);
  int cpu = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), cpu);
  constexpr int k_max_cpu = 65535;
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size() || cpu < 0 || cpu > k_max_cpu) {
    bad(what, whole, "a CPU list; use e.g. 0,1 or 0-3,6");
  }
  return cpu;
}

}  // namespace

AccessPattern parse_access_pattern(std::string_view text, std::string_view what) {
  const std::string s = lower(text);
  if (s == "random" || s == "rand") {
    return AccessPattern::random;
  }
  if (s == "sequential" || s == "seq") {
    return AccessPattern::sequential;
  }
  bad(what, text, "a pattern; use random (rand) or sequential (seq)");
}

DataPattern parse_data_pattern(std::string_view text, std::string_view what) {
  const std::string s = lower(text);
  if (s == "random") {
    return DataPattern::random;
  }
  if (s == "refill") {
    return DataPattern::refill;
  }
  if (s == "zeros" || s == "zero") {
    return DataPattern::zeros;
  }
  bad(what, text, "a data pattern; use random, refill or zeros");
}

std::vector<BlockSizeWeight> parse_bs_split(std::string_view text, std::string_view what) {
  const std::vector<std::string_view> entries = split(trim(text), ':');
  std::vector<BlockSizeWeight> out;
  for (std::string_view entry : entries) {
    const size_t slash = entry.find('/');
    if (slash == std::string_view::npos) {
      if (entries.size() != 1) {
        bad(what, entry, "a SIZE/WEIGHT entry; use e.g. 512/4:4k/67:64k/3");
      }
      out.push_back({units::parse_size_bytes(entry, what), 1.0});
      continue;
    }
    double weight = 0;
    std::string_view weight_text = trim(entry.substr(slash + 1));
    if (!weight_text.empty() && weight_text.back() == '%') {
      weight_text.remove_suffix(1);
    }
    if (!take_plain_decimal(weight_text, weight) || weight <= 0) {
      throw UsageError(std::string(what),
                       fmt::format("the weight in \"{}\" must be a number greater than 0", trim(entry)));
    }
    out.push_back({units::parse_size_bytes(entry.substr(0, slash), what), weight});
  }
  return out;
}

std::vector<AccessZone> parse_zones(std::string_view text, std::string_view what) {
  std::vector<AccessZone> out;
  for (std::string_view entry : split(trim(text), ':')) {
    const std::vector<std::string_view> parts = split(entry, '/');
    if (parts.size() != 2) {
      bad(what, entry, "an IO%/RANGE% pair; use e.g. 50/5:30/15:20/80");
    }
    out.push_back({units::parse_percent(parts[0], what), units::parse_percent(parts[1], what)});
  }
  return out;
}

ActiveRangeSpec parse_range(std::string_view text, std::string_view what) {
  ActiveRangeSpec range;
  const std::string_view s = trim(text);
  const size_t colon = s.find(':');
  if (colon == std::string_view::npos) {
    range.pct = units::parse_percent(s, what);
    if (range.pct <= 0) {
      throw UsageError(std::string(what), fmt::format("{} is out of range; give more than 0 and at most 100 %", s));
    }
    return range;
  }
  range.offset_bytes = units::parse_size_bytes(s.substr(0, colon), what);
  range.length_bytes = units::parse_size_bytes(s.substr(colon + 1), what);
  return range;
}

ByteLimit parse_byte_limit(std::string_view text, std::string_view what) {
  const std::string_view s = trim(text);
  ByteLimit limit;
  if (!s.empty() && (s.back() == 'x' || s.back() == 'X')) {
    if (!take_plain_decimal(s.substr(0, s.size() - 1), limit.range_multiple) || limit.range_multiple <= 0) {
      bad(what, text, "a size or a multiple of the range; use e.g. 10GiB or 2x");
    }
    return limit;
  }
  limit.bytes = units::parse_size_bytes(s, what);
  if (limit.bytes == 0) {
    throw UsageError(std::string(what), "0 bytes is not a limit; give more than 0");
  }
  return limit;
}

std::vector<int> parse_cpu_list(std::string_view text, std::string_view what) {
  std::vector<int> cpus;
  for (std::string_view item : split(trim(text), ',')) {
    const size_t dash = item.find('-');
    if (dash == std::string_view::npos) {
      cpus.push_back(parse_cpu(item, what, text));
      continue;
    }
    const int first = parse_cpu(item.substr(0, dash), what, text);
    const int last = parse_cpu(item.substr(dash + 1), what, text);
    if (last < first) {
      bad(what, text, "a CPU list with ascending ranges (e.g. 0-3)");
    }
    for (int cpu = first; cpu <= last; ++cpu) {
      cpus.push_back(cpu);
    }
  }
  return cpus;
}

double parse_decimal(std::string_view text, std::string_view what) {
  double value = 0;
  if (!trim(text).empty() && trim(text).front() == '-') {
    throw UsageError(std::string(what), fmt::format("\"{}\" is negative; give 0 or more", trim(text)));
  }
  if (!take_plain_decimal(text, value)) {
    bad(what, text, "a decimal number; use e.g. 250 or 12.5");
  }
  return value;
}

}  // namespace ptsuite::workload
