#include <ptsuite/report/html/markup.hpp>

#include <fmt/format.h>

#include <cmath>

#include <ptsuite/util/text.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::report::html {

using nlohmann::json;

namespace {

const std::string k_en_dash = "\u2013";

}  // namespace

std::string text(std::string_view raw) { return markup_escape(raw, MarkupFlavor::html); }
std::string attr(std::string_view raw) { return markup_escape(raw, MarkupFlavor::html); }

std::string element(std::string_view name, std::string_view css_class, std::string_view inner_html) {
  std::string out = "<" + std::string(name);
  if (!css_class.empty()) {
    out += " class=\"" + attr(css_class) + "\"";
  }
  out += ">";
  out += inner_html;
  out += "</" + std::string(name) + ">";
  return out;
}

std::string render_table(const Table& t) {
  std::string out = "<table";
  if (!t.css_class.empty()) {
    out += " class=\"" + attr(t.css_class) + "\"";
  }
  out += ">\n<thead><tr>";
  for (size_t c = 0; c < t.header.size(); ++c) {
    out += c >= t.first_numeric_column ? "<th class=\"num\">" : "<th>";
    out += text(t.header[c]) + "</th>";
  }
  out += "</tr></thead>\n<tbody>\n";
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string& cls = r < t.row_classes.size() ? t.row_classes[r] : std::string();
    out += cls.empty() ? "<tr>" : "<tr class=\"" + attr(cls) + "\">";
    for (size_t c = 0; c < t.header.size(); ++c) {
      out += c >= t.first_numeric_column ? "<td class=\"num\">" : "<td>";
      if (c < t.rows[r].size()) {
        out += t.rows[r][c];
      }
      out += "</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody></table>\n";
  return out;
}

std::string render_rows(const Rows& rows, std::string_view css_class) {
  std::string out = "<table class=\"" + attr(css_class) + "\"><tbody>\n";
  for (const auto& [label, value] : rows) {
    out += "<tr><th>" + text(label) + "</th><td>" + value + "</td></tr>\n";
  }
  out += "</tbody></table>\n";
  return out;
}

std::string grouped(double value, int decimals) {
  if (!std::isfinite(value)) {
    return k_en_dash;
  }
  std::string digits = fmt::format("{:.{}f}", std::fabs(value), decimals);
  const size_t dot = digits.find('.');
  const size_t int_len = dot == std::string::npos ? digits.size() : dot;
  std::string out;
  for (size_t i = 0; i < int_len; ++i) {
    if (i > 0 && (int_len - i) % 3 == 0) {
      out += ',';
    }
    out += digits[i];
  }
  out += digits.substr(int_len);
  // No "-0" / "-0.00": negative only when a non-zero digit shows.
  const bool nonzero = digits.find_first_not_of("0.") != std::string::npos;
  return (value < 0 && nonzero) ? "-" + out : out;
}

std::string fmt_iops(double iops) {
  const double a = std::fabs(iops);
  return grouped(iops, a >= 1000 ? 0 : (a >= 10 ? 1 : 2));
}

std::string fmt_mbps(double mb_per_s) { return grouped(mb_per_s, 1); }

std::string fmt_ms(double ns) { return std::isfinite(ns) ? grouped(ns / 1e6, 3) : k_en_dash; }

LatencyUnit latency_unit(double largest_ns) {
  const units::LatencyUnit u = units::latency_unit_for({largest_ns});
  return {units::latency_unit_symbol(u), units::in_latency_unit(1, u) > 0 ? 1 / units::in_latency_unit(1, u) : 1,
          units::latency_decimals(u)};
}

std::string fmt_latency(double ns, const LatencyUnit& unit) {
  return std::isfinite(ns) ? grouped(ns / unit.divisor, unit.decimals) : k_en_dash;
}

std::string fmt_latency(double ns, units::LatencyUnit unit) {
  return std::isfinite(ns) ? grouped(units::in_latency_unit(ns, unit), units::latency_decimals(unit)) : k_en_dash;
}

std::string fmt_number(double value) {
  if (!std::isfinite(value)) {
    return k_en_dash;
  }
  const double a = std::fabs(value);
  int decimals = 2;
  if (a > 0) {
    const int int_digits = static_cast<int>(std::floor(std::log10(a))) + 1;
    decimals = std::max(2, 4 - int_digits);
  }
  return grouped(value, std::min(decimals, 9));
}

std::string fmt_percent(double pct) {
  if (!std::isfinite(pct)) {
    return k_en_dash;
  }
  std::string s = fmt::format("{:.4f}", pct);
  while (s.back() == '0') {
    s.pop_back();
  }
  if (s.back() == '.') {
    s.pop_back();
  }
  return s + " %";
}

std::string kib_label(uint64_t bytes) {
  if (bytes % 1024 == 0) {
    return fmt::format("{} KiB", bytes / 1024);
  }
  std::string s = fmt::format("{:.4f}", static_cast<double>(bytes) / 1024.0);
  while (s.back() == '0') {
    s.pop_back();
  }
  if (s.back() == '.') {
    s.pop_back();
  }
  return s + " KiB";
}

std::string fmt_bytes(uint64_t bytes) {
  const double b = static_cast<double>(bytes);
  std::string dec;
  if (b >= 1e12) {
    dec = fmt::format("{:.2f} TB", b / 1e12);
  } else if (b >= 1e9) {
    dec = fmt::format("{:.2f} GB", b / 1e9);
  } else {
    dec = fmt::format("{:.1f} MB", b / 1e6);
  }
  return dec + " (" + units::format_size_human(bytes) + ")";
}

std::string fmt_duration_ns(uint64_t ns) {
  constexpr uint64_t s = 1'000'000'000;
  if (ns == 0) {
    return "0 s";
  }
  if (ns % (3600 * s) == 0) {
    return fmt::format("{} h", ns / (3600 * s));
  }
  if (ns % (60 * s) == 0) {
    return fmt::format("{} min", ns / (60 * s));
  }
  std::string v = fmt::format("{:.3f}", static_cast<double>(ns) / 1e9);
  while (v.back() == '0') {
    v.pop_back();
  }
  if (v.back() == '.') {
    v.pop_back();
  }
  return v + " s";
}

std::string fmt_capacity_multiple(double multiple) {
  if (!std::isfinite(multiple)) {
    return k_en_dash;
  }
  std::string v = fmt::format("{:.3f}", multiple);
  while (v.back() == '0') {
    v.pop_back();
  }
  if (v.back() == '.') {
    v.pop_back();
  }
  return v + "X";
}

std::string revision_label(std::string_view revision) {
  if (revision == "e1.1") {
    return "PTS-E 1.1";
  }
  if (!revision.empty() && std::isdigit(static_cast<unsigned char>(revision.front())) != 0) {
    return "PTS " + std::string(revision);
  }
  return std::string(revision);
}

std::string id_of(std::string_view prefix) {
  std::string out(prefix);
  for (char& c : out) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
    if (!ok) {
      c = '-';
    }
  }
  return out;
}

}  // namespace ptsuite::report::html
