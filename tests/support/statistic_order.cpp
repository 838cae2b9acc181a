#include "support/statistic_order.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <regex>

namespace ptsuite::test_support {

namespace {

enum class Stat { none, min, mean, percentile, max };

constexpr double k_rank_min = -1;
constexpr double k_rank_max = 101;

struct Column {
  Stat stat = Stat::none;
  double rank = 0;      // percentile; k_rank_min / k_rank_max for min and max
  std::string of;       // what it is a statistic of ("" = the group before it)
  double unit_ns = 0;   // the heading's unit (0: none given)
  std::string heading;  // as written, for messages
  bool closed = false;  // one of a "p50 / p99 / max" heading's parts: later columns do not join it
};

struct Value {
  double lo = 0;  // the displayed value less half a unit of its last digit, in ns (or as is)
  double hi = 0;
  std::string text;
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

// Text of a piece of HTML: tags dropped, the entities the reports write decoded.
std::string html_text(const std::string& html) {
  std::string out;
  bool tag = false;
  for (const char c : html) {
    if (tag) {
      tag = c != '>';
    } else if (c == '<') {
      tag = true;
    } else {
      out += c;
    }
  }
  for (const auto& [entity, plain] : {std::pair<std::string, std::string>{"&lt;", "<"},
                                      {"&gt;", ">"},
                                      {"&quot;", "\""},
                                      {"&#39;", "'"},
                                      {"&#47;", "/"},
                                      {"&#8211;", "\u2013"},
                                      {"&amp;", "&"}}) {
    for (size_t p = out.find(entity); p != std::string::npos; p = out.find(entity, p + plain.size())) {
      out.replace(p, entity.size(), plain);
    }
  }
  return out;
}

double unit_of(const std::string& word) {
  if (word == "ns") return 1;
  if (word == "us" || word == "\u00b5s") return 1e3;
  if (word == "ms") return 1e6;
  if (word == "s") return 1e9;
  return 0;
}

// The heading's unit: "(ms)", "(µs)", a trailing " ms" word, "_ns" / "_ms" / "_us".
double heading_unit(const std::string& h, std::string& rest) {
  static const std::regex k_paren(R"(\((ns|us|\xC2\xB5s|ms|s)\))");
  static const std::regex k_word(R"((?:^|[ _])(ns|us|\xC2\xB5s|ms)$)");
  std::smatch m;
  if (std::regex_search(h, m, k_paren)) {
    rest = m.prefix().str() + " " + m.suffix().str();
    return unit_of(m[1].str());
  }
  if (std::regex_search(h, m, k_word)) {
    rest = m.prefix().str();
    return unit_of(m[1].str());
  }
  rest = h;
  return 0;
}

Column classify_uncached(const std::string& heading) {
  Column c;
  c.heading = heading;
  std::string h = lower(trim(heading));
  for (char& ch : h) {
    if (ch == '_') ch = ' ';
  }
  std::string rest;
  c.unit_ns = heading_unit(h, rest);
  static const std::regex k_not_ordered(R"(\b(mrt|art|stddev|std dev|standard deviation|sigma)\b)");
  if (std::regex_search(rest, k_not_ordered)) return c;
  static const std::regex k_pct(
      R"((?:^|[^\w.])p(\d+(?:\.\d+)?)\b|\b(\d+(?:\.\d+)?) ?%|\b(\d+(?:\.\d+)?)(?:st|nd|rd|th) percentile)");
  static const std::regex k_max(R"(\b(max|maximum)\b)");
  static const std::regex k_min(R"(\b(min|minimum)\b)");
  static const std::regex k_mean(R"(\b(mean|average|avg)\b)");
  std::smatch m;
  if (std::regex_search(rest, m, k_pct)) {
    c.stat = Stat::percentile;
    c.rank = std::stod(m[1].matched ? m[1].str() : m[2].matched ? m[2].str() : m[3].str());
    if (c.rank <= 0 || c.rank > 100) return Column{Stat::none, 0, "", 0, heading};
  } else if (std::regex_search(rest, m, k_max)) {
    c.stat = Stat::max;
    c.rank = k_rank_max;
  } else if (std::regex_search(rest, m, k_min)) {
    c.stat = Stat::min;
    c.rank = k_rank_min;
  } else if (std::regex_search(rest, m, k_mean)) {
    c.stat = Stat::mean;
  } else {
    return c;
  }
  std::string of = m.prefix().str() + " " + m.suffix().str();
  std::string key;
  for (const char ch : of) {
    if (std::isalnum(static_cast<unsigned char>(ch)) != 0) {
      key += ch;
    } else if (!key.empty() && key.back() != ' ') {
      key += ' ';
    }
  }
  c.of = trim(key);
  return c;
}

// Headings repeat (every record of a long CSV names the same metrics): classified once each.
Column classify(const std::string& heading) {
  thread_local std::map<std::string, Column> cache;
  const auto it = cache.find(heading);
  if (it != cache.end()) return it->second;
  return cache.emplace(heading, classify_uncached(heading)).first->second;
}

// The leading number of a cell ("1,234.5", "0.078 ms", "-3"), with its rounding half-unit.
std::optional<Value> parse_value(const std::string& cell, double unit_ns) {
  const std::string s = trim(cell);
  static const std::regex k_number(R"(^([<>\xE2\x89\xA4~]*)\s*(-?[0-9][0-9,]*(?:\.([0-9]+))?)\s*([a-z\xC2\xB5]*))");
  std::smatch m;
  if (!std::regex_search(s, m, k_number) || !m[1].str().empty()) return std::nullopt;
  std::string digits = m[2].str();
  digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
  const double v = std::stod(digits);
  const double half = 0.5 * std::pow(10.0, -static_cast<double>(m[3].length()));
  const double unit = unit_of(m[4].str());
  const double scale = unit > 0 ? unit : (unit_ns > 0 ? unit_ns : 1);
  return Value{(v - half) * scale, (v + half) * scale, s};
}

struct Findings {
  std::vector<std::string> violations;
  size_t pairs = 0;  // ordered pairs of values compared
};

struct Cell {
  const Column* column;
  Value value;
};

// Checks the ordered statistics of one row, group by group.
void check_row(const std::vector<Cell>& cells, const std::vector<std::string>& group_of, const std::string& where,
               Findings& out) {
  for (size_t a = 0; a < cells.size(); ++a) {
    for (size_t b = 0; b < cells.size(); ++b) {
      if (a == b || group_of[a] != group_of[b]) continue;
      const Column& ca = *cells[a].column;
      const Column& cb = *cells[b].column;
      bool ordered = false;  // cells[a] must not exceed cells[b]
      if (ca.stat != Stat::mean && cb.stat != Stat::mean) {
        ordered = ca.rank < cb.rank;
      } else if (ca.stat == Stat::mean) {
        ordered = cb.stat == Stat::max;
      } else {
        ordered = ca.stat == Stat::min;
      }
      // Rounding half up, a shown value v stands for [v - half, v + half): out of order only
      // when every value a stands for exceeds every value b stands for.
      out.pairs += ordered ? 1 : 0;
      if (ordered && cells[a].value.lo >= cells[b].value.hi) {
        out.violations.push_back(
            fmt::format("{}: {} {} > {} {}", where, ca.heading, cells[a].value.text, cb.heading, cells[b].value.text));
      }
    }
  }
}

// The group of each statistic column: its "of", or the group of the statistic column before it
// (whose unit it takes when it names none); a column with a unit after a group without one
// starts a group of its own ("QD mean", "max", then "mean ms": the latency is not the QD's).
std::vector<std::string> groups(std::vector<Column>& columns) {
  std::vector<std::string> out;
  std::string current;
  double unit = 0;
  size_t anonymous = 0;
  bool closed = false;
  for (Column& c : columns) {
    if (c.of.empty() && closed && !c.closed) {
      current = fmt::format("#{}", ++anonymous);
      unit = c.unit_ns;
    } else if (!c.of.empty()) {
      current = c.of;
      unit = c.unit_ns;
    } else if (c.unit_ns != 0 && unit == 0 && !out.empty()) {
      current = fmt::format("#{}", ++anonymous);
      unit = c.unit_ns;
    } else if (c.unit_ns == 0) {
      c.unit_ns = unit;
    } else {
      unit = c.unit_ns;
    }
    closed = c.closed;
    out.push_back(current);
  }
  return out;
}

// Heading cells (a "p50 / p99 / max" heading is expanded into its parts) and one row's values.
struct Layout {
  std::vector<Column> columns;     // per heading part
  std::vector<size_t> heading_of;  // per part: the heading (cell) index
  std::vector<size_t> part_of;     // per part: its index within the cell's "/" parts
  std::vector<size_t> parts_in;    // per heading: how many parts
};

Layout layout_of(const std::vector<std::string>& headings) {
  Layout l;
  for (size_t h = 0; h < headings.size(); ++h) {
    std::vector<std::string> parts;
    std::string unit;
    const std::string& text = headings[h];
    size_t start = 0;
    if (text.find(" / ") != std::string::npos) {
      for (size_t p = text.find(" / ");; p = text.find(" / ", start)) {
        parts.push_back(text.substr(start, p == std::string::npos ? std::string::npos : p - start));
        if (p == std::string::npos) break;
        start = p + 3;
      }
    }
    size_t stats = 0;
    for (const std::string& p : parts) stats += classify(p).stat != Stat::none ? 1 : 0;
    if (parts.size() < 2 || stats != parts.size()) parts = {text};
    // The unit written once at the end ("p50 / p99 / max (us)") applies to every part.
    std::string rest;
    const double shared_unit = heading_unit(lower(parts.back()), rest);
    for (size_t i = 0; i < parts.size(); ++i) {
      Column c = classify(parts[i]);
      if (c.unit_ns == 0) c.unit_ns = shared_unit;
      if (i > 0 && c.stat != Stat::none) c.of = "";
      c.closed = parts.size() > 1;
      l.columns.push_back(c);
      l.heading_of.push_back(h);
      l.part_of.push_back(i);
    }
    l.parts_in.push_back(parts.size());
  }
  return l;
}

void check_table(const std::vector<std::string>& headings, const std::vector<std::vector<std::string>>& rows,
                 const std::string& where, Findings& out) {
  const Layout l = layout_of(headings);
  std::vector<Column> stat_columns;
  std::vector<size_t> stat_parts;
  for (size_t i = 0; i < l.columns.size(); ++i) {
    if (l.columns[i].stat == Stat::none) continue;
    stat_columns.push_back(l.columns[i]);
    stat_parts.push_back(i);
  }
  if (stat_columns.size() < 2) return;
  const std::vector<std::string> group = groups(stat_columns);
  for (size_t r = 0; r < rows.size(); ++r) {
    std::vector<Cell> cells;
    std::vector<std::string> cell_group;
    for (size_t k = 0; k < stat_parts.size(); ++k) {
      const size_t part = stat_parts[k];
      const size_t h = l.heading_of[part];
      if (h >= rows[r].size()) continue;
      std::string cell = rows[r][h];
      if (l.parts_in[h] > 1) {  // "a / b / c" under "p50 / p99 / max"
        std::vector<std::string> values;
        size_t start = 0;
        for (size_t p = cell.find('/');; p = cell.find('/', start)) {
          values.push_back(cell.substr(start, p == std::string::npos ? std::string::npos : p - start));
          if (p == std::string::npos) break;
          start = p + 1;
        }
        if (values.size() != l.parts_in[h]) continue;
        cell = values[l.part_of[part]];
      }
      if (const std::optional<Value> v = parse_value(cell, stat_columns[k].unit_ns)) {
        cells.push_back({&stat_columns[k], *v});
        cell_group.push_back(group[k]);
      }
    }
    std::string row_name = rows[r].empty() ? "" : trim(rows[r][0]);
    check_row(cells, cell_group, fmt::format("{}: row {} ({})", where, r + 1, row_name), out);
  }
}

// The cells of every <tag ...>...</tag> in `html` from `from` to `to`.
std::vector<std::string> cells_of(const std::string& html, const std::string& tag) {
  std::vector<std::string> out;
  const std::string open = "<" + tag;
  const std::string close = "</" + tag + ">";
  for (size_t p = html.find(open); p != std::string::npos; p = html.find(open, p + 1)) {
    const char after = p + open.size() < html.size() ? html[p + open.size()] : '>';
    if (after != '>' && after != ' ') continue;
    const size_t body = html.find('>', p);
    const size_t end = html.find(close, body);
    if (body == std::string::npos || end == std::string::npos) break;
    out.push_back(html_text(html.substr(body + 1, end - body - 1)));
    p = end;
  }
  return out;
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(std::move(line));
    start = nl + 1;
  }
  return out;
}

// Display width of a UTF-8 line up to byte `n` (the text reports align by characters).
size_t width_to(const std::string& s, size_t n) {
  size_t w = 0;
  for (size_t i = 0; i < n && i < s.size(); ++i) w += (static_cast<unsigned char>(s[i]) & 0xC0U) != 0x80U ? 1 : 0;
  return w;
}

// The word of `line` that ends at display column `end` (exclusive), or "" when none does.
std::string word_ending_at(const std::string& line, size_t end) {
  size_t byte = 0;
  size_t w = 0;
  while (byte < line.size() && w < end) {
    if ((static_cast<unsigned char>(line[byte]) & 0xC0U) != 0x80U) ++w;
    ++byte;
  }
  while (byte < line.size() && (static_cast<unsigned char>(line[byte]) & 0xC0U) == 0x80U) ++byte;
  if (w != end || byte == 0 || line[byte - 1] == ' ' || (byte < line.size() && line[byte] != ' ')) return "";
  const size_t start = line.rfind(' ', byte - 1);
  return line.substr(start == std::string::npos ? 0 : start + 1, byte - (start == std::string::npos ? 0 : start + 1));
}

// (a) of the text format: a heading line's statistic words and the values right-aligned below.
void check_text_tables(const std::vector<std::string>& lines, const std::string& where, Findings& out) {
  static const std::regex k_heading(
      R"((?:^|\s)((?:[a-z]+ )?(?:mean|max|min|mrt|art|p\d+(?:\.\d+)?|\d+(?:\.\d+)? %|stddev)(?: ms| us| \((?:ms|us|\xC2\xB5s)\))?)(?=\s|$))",
      std::regex::icase);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::vector<std::pair<std::string, size_t>> headings;  // text, end column
    for (auto it = std::sregex_iterator(lines[i].begin(), lines[i].end(), k_heading); it != std::sregex_iterator();
         ++it) {
      const size_t end = static_cast<size_t>(it->position(1) + it->length(1));
      headings.emplace_back((*it)[1].str(), width_to(lines[i], end));
    }
    size_t stats = 0;
    for (const auto& h : headings) stats += classify(h.first).stat != Stat::none ? 1 : 0;
    if (stats < 2) continue;
    std::vector<std::string> names;
    for (const auto& h : headings) names.push_back(h.first);
    std::vector<std::vector<std::string>> rows;
    for (size_t j = i + 1; j < lines.size() && !trim(lines[j]).empty(); ++j) {
      std::vector<std::string> row;
      for (const auto& h : headings) row.push_back(word_ending_at(lines[j], h.second));
      rows.push_back(std::move(row));
    }
    check_table(names, rows, fmt::format("{}: table at line {}", where, i + 1), out);
  }
}

// (b) of the text format: "STAT VALUE [unit]" runs within one ";"-separated part of a line.
void check_text_runs(const std::vector<std::string>& lines, const std::string& where, Findings& out) {
  static const std::regex k_run(
      R"((?:^|[\s,(])(mean|max|min|p\d+(?:\.\d+)?|\d+(?:\.\d+)? %) (-?[0-9][0-9,]*(?:\.[0-9]+)?)(?: ?(ns|us|\xC2\xB5s|ms|s)\b)?)");
  for (size_t i = 0; i < lines.size(); ++i) {
    size_t start = 0;
    while (start <= lines[i].size()) {
      const size_t semi = std::min(lines[i].find(';', start), lines[i].size());
      const std::string part = lines[i].substr(start, semi - start);
      std::vector<std::string> names;
      std::vector<std::string> values;
      for (auto it = std::sregex_iterator(part.begin(), part.end(), k_run); it != std::sregex_iterator(); ++it) {
        names.push_back((*it)[1].str());
        values.push_back((*it)[2].str() + ((*it)[3].matched ? " " + (*it)[3].str() : ""));
      }
      if (names.size() >= 2) check_table(names, {values}, fmt::format("{}: line {}", where, i + 1), out);
      start = semi + 1;
    }
  }
}

}  // namespace

std::vector<std::string> statistic_order_violations_html(const std::string& html, size_t* pairs) {
  Findings out;
  size_t index = 0;
  for (size_t p = html.find("<table"); p != std::string::npos; p = html.find("<table", p + 1)) {
    const size_t end = html.find("</table>", p);
    if (end == std::string::npos) break;
    const std::string table = html.substr(p, end - p);
    ++index;
    const size_t thead = table.find("<thead>");
    const size_t tbody = table.find("<tbody>");
    if (thead == std::string::npos || tbody == std::string::npos) continue;
    const std::vector<std::string> headings = cells_of(table.substr(thead, tbody - thead), "th");
    std::vector<std::vector<std::string>> rows;
    const std::string body = table.substr(tbody);
    for (size_t r = body.find("<tr"); r != std::string::npos; r = body.find("<tr", r + 1)) {
      const size_t r_end = body.find("</tr>", r);
      if (r_end == std::string::npos) break;
      rows.push_back(cells_of(body.substr(r, r_end - r), "td"));
    }
    check_table(headings, rows, fmt::format("table {}", index), out);
  }
  if (pairs != nullptr) *pairs += out.pairs;
  return out.violations;
}

std::vector<std::string> statistic_order_violations_csv(const std::string& csv, size_t* pairs) {
  Findings out;
  const std::vector<std::string> lines = lines_of(csv);
  if (lines.empty()) return {};
  const std::vector<std::string> headings = split_csv_line(lines[0]);
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 1; i < lines.size(); ++i) {
    if (!lines[i].empty()) rows.push_back(split_csv_line(lines[i]));
  }
  const auto column = [&](const char* name) {
    return static_cast<size_t>(std::find(headings.begin(), headings.end(), name) - headings.begin());
  };
  const size_t metric = column("metric");
  const size_t value = column("value");
  const size_t unit = column("unit");
  if (metric == headings.size() || value == headings.size()) {
    check_table(headings, rows, "csv", out);
  } else {
    // Long form (one statistic per row: the run CSVs): the rows with the same key columns are
    // one record, its statistics side by side as "<metric>_<unit>" columns.
    std::map<std::string, std::map<std::string, std::string>> records;
    std::vector<std::string> order;
    for (const std::vector<std::string>& r : rows) {
      if (r.size() != headings.size()) continue;
      std::string key;
      for (size_t c = 0; c < r.size(); ++c) {
        if (c != metric && c != value && c != unit) key += r[c] + ",";
      }
      if (!records.count(key)) order.push_back(key);
      records[key][r[metric] + (unit < r.size() && !r[unit].empty() ? "_" + r[unit] : "")] = r[value];
    }
    for (const std::string& key : order) {
      std::vector<std::string> names;
      std::vector<std::string> values;
      for (const auto& [name, v] : records[key]) {
        names.push_back(name);
        values.push_back(v);
      }
      check_table(names, {values}, "csv record " + key, out);
    }
  }
  if (pairs != nullptr) *pairs += out.pairs;
  return out.violations;
}

std::vector<std::string> statistic_order_violations_text(const std::string& text, size_t* pairs) {
  Findings out;
  const std::vector<std::string> lines = lines_of(text);
  check_text_tables(lines, "text", out);
  check_text_runs(lines, "text", out);
  if (pairs != nullptr) *pairs += out.pairs;
  return out.violations;
}

}  // namespace ptsuite::test_support
