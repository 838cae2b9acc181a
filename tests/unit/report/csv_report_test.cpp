// The CSV report over the checked-in fixtures: RFC 4180 structure read back with a strict
// parser of our own (every row has every column, numeric value cells, no exponent, '.' as the
// decimal point under any locale), and values equal to specific numbers of the fixture JSON.
#include <gtest/gtest.h>

#include <clocale>
#include <locale>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>

#include <ptsuite/report/csv_report.hpp>

#include "support/report_of_json.hpp"
#include "support/results_fixture.hpp"

namespace ptsuite::report {
namespace {

using nlohmann::json;
using test_support::load_results_fixture;

// Strict RFC 4180: fields separated by ',', records by CRLF, a quoted field may hold ',', '"'
// (doubled), CR and LF; a quote anywhere else, a bare CR or LF, or text after a closing quote
// is an error. The file must end with CRLF.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  size_t i = 0;
  bool field_started = false;
  auto end_field = [&] {
    row.push_back(field);
    field.clear();
    field_started = false;
  };
  while (i < text.size()) {
    const char c = text[i];
    if (!field_started && c == '"') {
      ++i;
      for (;;) {
        if (i >= text.size()) {
          throw std::runtime_error("unterminated quoted field");
        }
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += text[i++];
      }
      field_started = true;
      if (i < text.size() && text[i] != ',' && text[i] != '\r') {
        throw std::runtime_error("text after a closing quote");
      }
      continue;
    }
    if (c == ',') {
      end_field();
      ++i;
      continue;
    }
    if (c == '\r') {
      if (i + 1 >= text.size() || text[i + 1] != '\n') {
        throw std::runtime_error("bare CR");
      }
      end_field();
      rows.push_back(std::move(row));
      row.clear();
      i += 2;
      continue;
    }
    if (c == '\n') {
      throw std::runtime_error("bare LF (records end with CRLF)");
    }
    if (c == '"') {
      throw std::runtime_error("quote inside an unquoted field");
    }
    field += c;
    field_started = true;
    ++i;
  }
  if (!row.empty() || field_started) {
    throw std::runtime_error("the last record does not end with CRLF");
  }
  return rows;
}

// Rows as maps from column name to field.
struct Table {
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
};

Table read_table(const std::string& text) {
  const auto raw = parse_csv(text);
  Table t;
  if (raw.empty()) {
    return t;
  }
  t.header = raw.front();
  for (size_t i = 1; i < raw.size(); ++i) {
    if (raw[i].size() != t.header.size()) {
      throw std::runtime_error("row " + std::to_string(i) + " has " + std::to_string(raw[i].size()) + " fields");
    }
    std::map<std::string, std::string> m;
    for (size_t c = 0; c < raw[i].size(); ++c) {
      m[t.header[c]] = raw[i][c];
    }
    t.rows.push_back(std::move(m));
  }
  return t;
}

const CsvFile& file_of(const std::vector<CsvFile>& files, const std::string& id) {
  for (const CsvFile& f : files) {
    if (f.test_id == id) {
      return f;
    }
  }
  throw std::runtime_error("no CSV for " + id);
}

// The value of the single row matching every given key (fails the test when not exactly one).
std::optional<std::string> value_of(const Table& t, const std::map<std::string, std::string>& keys) {
  std::optional<std::string> found;
  size_t matches = 0;
  for (const auto& row : t.rows) {
    bool ok = true;
    for (const auto& [k, v] : keys) {
      if (row.at(k) != v) {
        ok = false;
        break;
      }
    }
    if (ok) {
      ++matches;
      found = row.at("value");
    }
  }
  EXPECT_EQ(matches, 1u) << "rows matching the keys";
  return found;
}

std::string number(const json& v) {
  if (v.is_number_unsigned()) {
    return std::to_string(v.get<uint64_t>());
  }
  return csv_number(v.get<double>());
}

using test_support::test_of;

TEST(CsvNumber, ShortestFixedNotationWithADot) {
  EXPECT_EQ(csv_number(0.0), "0");
  EXPECT_EQ(csv_number(-0.0), "0");
  EXPECT_EQ(csv_number(3000000.0), "3000000");
  EXPECT_EQ(csv_number(0.0000015), "0.0000015");
  EXPECT_EQ(csv_number(5097.227052596965), "5097.227052596965");
  EXPECT_EQ(csv_number(1e21), "1000000000000000000000");
  EXPECT_EQ(csv_number(-12.5), "-12.5");
  EXPECT_EQ(std::stod(csv_number(0.1 + 0.2)), 0.1 + 0.2);  // round-trips exactly
}

TEST(CsvReport, OneFilePerTestInDocumentOrder) {
  const std::vector<CsvFile> files = render_csv(load_results_fixture("quick"));
  ASSERT_EQ(files.size(), 5u);
  const std::vector<std::string> expected = {"throughput", "wsat", "cbw", "hir", "xsr"};
  for (size_t i = 0; i < files.size(); ++i) {
    EXPECT_EQ(files[i].test_id, expected[i]);
    EXPECT_EQ(files[i].file_name, expected[i] + ".csv");
  }
}

TEST(CsvReport, EveryFileIsStrictRfc4180WithNumericValues) {
  const std::regex numeric("-?[0-9]+(\\.[0-9]+)?");
  const std::set<std::string> records = {"round",      "window",          "steady_state",   "tracking_check",
                                         "wipc",       "prewrite",        "wsat_sample",    "wsat",
                                         "cbw_grid",   "operating_point", "capture",        "xsr_group",
                                         "xsr_sample", "xsr_recovery",    "hir_wait_state", "hir_period",
                                         "hir",        "rww_stream",      "rww_streams",    "rww_replay_step"};
  for (const std::string& name : test_support::results_fixture_names()) {
    for (const CsvFile& f : render_csv(load_results_fixture(name))) {
      SCOPED_TRACE(name + "/" + f.file_name);
      Table t;
      ASSERT_NO_THROW(t = read_table(f.content));
      EXPECT_EQ(t.header, csv_columns());
      ASSERT_GT(t.rows.size(), 100u);
      for (const auto& row : t.rows) {
        ASSERT_TRUE(std::regex_match(row.at("value"), numeric)) << row.at("metric") << " = " << row.at("value");
        ASSERT_FALSE(row.at("metric").empty());
        ASSERT_FALSE(row.at("unit").empty()) << row.at("metric");
        ASSERT_EQ(row.at("test"), f.test_id);
        ASSERT_TRUE(records.count(row.at("record")) == 1) << row.at("record");
        ASSERT_TRUE(row.at("direction").empty() || row.at("direction") == "read" || row.at("direction") == "write" ||
                    row.at("direction") == "combined")
            << row.at("direction");
      }
    }
  }
}

TEST(CsvReport, EveryRoundTimesEverySegmentIsThere) {
  const json& doc = load_results_fixture("steady");
  const json& phase = test_of(doc, "iops").at("phases")[0];
  const Table t = read_table(file_of(render_csv(doc), "iops").content);
  std::set<std::pair<std::string, std::string>> cells;
  std::set<std::string> window_cells;
  for (const auto& row : t.rows) {
    if (row.at("record") == "round" && row.at("metric") == "iops" && row.at("direction") == "combined") {
      cells.emplace(row.at("round"), row.at("segment"));
    }
    if (row.at("record") == "window" && row.at("metric") == "iops" && row.at("direction") == "combined") {
      EXPECT_EQ(row.at("round"), "window");
      window_cells.insert(row.at("segment"));
    }
  }
  EXPECT_EQ(cells.size(), phase.at("rounds").size() * 56);
  EXPECT_EQ(window_cells.size(), 56u);
}

TEST(CsvReport, NumbersMatchTheFixture) {
  const json& doc = load_results_fixture("steady");
  const Table iops = read_table(file_of(render_csv(doc), "iops").content);
  const json& rec = test_of(doc, "iops");

  // The IOPS matrix cell 4KiB x 0/100 is the window average of that segment.
  const json& matrix = rec.at("matrix");
  EXPECT_EQ(matrix.at("rows")[6], "4KiB");
  EXPECT_EQ(matrix.at("columns")[6], "0/100");
  EXPECT_EQ(
      value_of(iops,
               {{"record", "window"}, {"segment", "RND 4KiB 0/100"}, {"direction", "combined"}, {"metric", "iops"}}),
      number(matrix.at("iops")[6][6]));
  EXPECT_EQ(value_of(iops, {{"record", "window"},
                            {"rw_mix", "65/35"},
                            {"block_size", "64KiB"},
                            {"direction", "combined"},
                            {"metric", "latency_p99.999"}}),
            number(matrix.at("latency_p99_999_ns")[2][2]));

  // Round 3, segment 12 (RND 8KiB 95/5): the read direction's 99.99 % and stddev.
  const json& phase = rec.at("phases")[0];
  const json& seg = phase.at("rounds")[2].at("segments")[13];
  EXPECT_EQ(phase.at("round_template")[13].at("label"), "RND 8KiB 95/5");
  EXPECT_EQ(value_of(iops, {{"record", "round"},
                            {"round", "3"},
                            {"segment", "RND 8KiB 95/5"},
                            {"direction", "read"},
                            {"metric", "latency_p99.99"}}),
            number(seg.at("summary").at("read").at("latency_ns").at("percentiles").at("99.99")));
  EXPECT_EQ(value_of(iops, {{"record", "round"},
                            {"round", "3"},
                            {"segment", "RND 8KiB 95/5"},
                            {"direction", "write"},
                            {"metric", "latency_stddev"}}),
            number(seg.at("summary").at("write").at("latency_ns").at("stddev")));
  EXPECT_EQ(value_of(iops, {{"record", "round"}, {"round", "3"}, {"segment", "RND 8KiB 95/5"}, {"metric", "elapsed"}}),
            number(seg.at("elapsed_ns")));

  // Steady-state verdict of the first tracking variable; the per-phase verdict.
  const json& verdict = phase.at("steady_state").at("verdicts").at("variables")[0];
  EXPECT_EQ(value_of(iops, {{"record", "steady_state"}, {"segment", "RND 4KiB 0/100"}, {"metric", "average"}}),
            number(verdict.at("average")));
  EXPECT_EQ(
      value_of(iops,
               {{"record", "steady_state"}, {"segment", "RND 4KiB 0/100"}, {"metric", "slope_excursion_allowed"}}),
      number(verdict.at("slope_excursion").at("allowed")));
  EXPECT_EQ(value_of(iops, {{"record", "steady_state"}, {"segment", ""}, {"metric", "attained"}}), "1");
  EXPECT_EQ(value_of(iops, {{"record", "wipc"}, {"direction", "write"}, {"metric", "bytes"}}),
            number(rec.at("preconditioning")[0].at("result").at("summary").at("write").at("bytes")));
}

TEST(CsvReport, WsatCbwAndCapturesMatchTheFixture) {
  const json& doc = load_results_fixture("quick");
  const std::vector<CsvFile> files = render_csv(doc);

  // Throughput: the read MB/s of the 1 MiB table row is the window value of its read segment.
  const Table tp = read_table(file_of(files, "throughput").content);
  const json& tp_rec = test_of(doc, "throughput");
  EXPECT_EQ(value_of(tp, {{"record", "window"},
                          {"phase", "1MiB"},
                          {"rw_mix", "100/0"},
                          {"direction", "read"},
                          {"metric", "mb_per_s"}}),
            number(tp_rec.at("table")[0].at("read_mb_per_s")));

  const Table wsat = read_table(file_of(files, "wsat").content);
  const json& w = test_of(doc, "wsat").at("wsat");
  const json& sample = w.at("samples")[6];
  EXPECT_EQ(value_of(wsat, {{"record", "wsat_sample"}, {"sample", "7"}, {"metric", "tgbw"}}),
            number(sample.at("tgbw_gb")));
  EXPECT_EQ(value_of(wsat, {{"record", "wsat_sample"}, {"sample", "7"}, {"direction", "combined"}, {"metric", "iops"}}),
            number(sample.at("iops")));
  EXPECT_EQ(
      value_of(wsat,
               {{"record", "wsat_sample"}, {"sample", "7"}, {"direction", "combined"}, {"metric", "latency_p99.999"}}),
      number(sample.at("latency_p99_999_ns")));
  EXPECT_EQ(value_of(wsat, {{"record", "wsat"}, {"metric", "written_bytes"}}), number(w.at("written_bytes")));
  const json& capture = test_of(doc, "wsat").at("captures")[0];
  EXPECT_EQ(value_of(wsat, {{"record", "capture"}, {"direction", "combined"}, {"metric", "latency_p99.9999"}}),
            number(capture.at("result").at("summary").at("combined").at("latency_ns").at("percentiles").at("99.9999")));
  EXPECT_EQ(value_of(wsat, {{"record", "capture"}, {"sample", "3"}, {"metric", "cumulative"}}),
            number(capture.at("confidence_levels")[2][1]));

  const Table cbw = read_table(file_of(files, "cbw").content);
  const json& c = test_of(doc, "cbw").at("cbw");
  for (const json& p : c.at("operating_points")) {
    EXPECT_EQ(
        value_of(cbw,
                 {{"record", "operating_point"}, {"segment", p.at("name").get<std::string>()}, {"metric", "iops"}}),
        number(p.at("iops")));
  }
  // Grid cell TC 8 / QD 16 (row 2, column 1 of the 7 x 7 grid).
  EXPECT_EQ(c.at("thread_counts")[2], 8);
  EXPECT_EQ(c.at("queue_depths")[1], 16);
  EXPECT_EQ(
      value_of(cbw, {{"record", "cbw_grid"}, {"threads", "8"}, {"queue_depth", "16"}, {"metric", "latency_mean"}}),
      number(c.at("grid").at("latency_mean_ns")[2][1]));
  // The demand-variation phase's inter-round pre-write of Round 2, interval 5.
  const json& before = test_of(doc, "cbw").at("phases")[1].at("rounds")[1].at("before_round");
  EXPECT_EQ(value_of(cbw, {{"record", "prewrite"},
                           {"phase", "demand-variation"},
                           {"round", "2"},
                           {"sample", "5"},
                           {"direction", "write"},
                           {"metric", "ios"}}),
            number(before.at("result").at("intervals")[4].at("write_ios")));
}

TEST(CsvReport, NotAttainedVerdictsAreZeros) {
  const json& doc = load_results_fixture("not-attained");
  const Table lat = read_table(file_of(render_csv(doc), "latency").content);
  EXPECT_EQ(value_of(lat, {{"record", "steady_state"}, {"segment", ""}, {"metric", "attained"}}), "0");
  EXPECT_EQ(value_of(lat, {{"record", "steady_state"}, {"segment", ""}, {"metric", "rounds_run"}}), "25");
  const json& phase = test_of(doc, "latency").at("phases")[0];
  EXPECT_EQ(value_of(lat, {{"record", "steady_state"}, {"segment", "RND 4KiB 0/100"}, {"metric", "data_excursion"}}),
            number(phase.at("steady_state").at("verdicts").at("variables")[0].at("data_excursion").at("measured")));
  // No row for a null attained_round.
  for (const auto& row : lat.rows) {
    EXPECT_NE(row.at("metric"), "attained_round");
  }
}

// Locales must not change the output: a comma decimal point and '.' grouping everywhere the
// C++ library could pick them up, and the C locale of a German system when it is installed.
struct CommaNumpunct : std::numpunct<char> {
  char do_decimal_point() const override { return ','; }
  char do_thousands_sep() const override { return '.'; }
  std::string do_grouping() const override { return "\3"; }
};

TEST(CsvReport, OutputIsLocaleIndependent) {
  const json& doc = load_results_fixture("not-attained");
  const std::string before = render_csv(doc).front().content;
  const std::locale previous = std::locale::global(std::locale(std::locale::classic(), new CommaNumpunct));
  const std::string old_c_locale = std::setlocale(LC_ALL, nullptr);
  const bool german = std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr;
  const std::string under_locale = render_csv(doc).front().content;
  std::setlocale(LC_ALL, old_c_locale.c_str());
  std::locale::global(previous);
  EXPECT_TRUE(under_locale == before) << "the CSV changed under a comma-decimal locale (C locale de_DE: " << german
                                      << ")";
}

TEST(CsvReport, FieldsWithCommasAndQuotesAreQuoted) {
  json doc = load_results_fixture("steady");
  json& tmpl = doc["tests"][1]["phases"][0]["round_template"][0];
  tmpl["label"] = "SEQ \"1MiB\", odd\nlabel";
  const std::string csv = file_of(render_csv(doc), "latency").content;
  EXPECT_NE(csv.find("\"SEQ \"\"1MiB\"\", odd\nlabel\""), std::string::npos);
  const Table t = read_table(csv);
  size_t hits = 0;
  for (const auto& row : t.rows) {
    hits += row.at("segment") == "SEQ \"1MiB\", odd\nlabel" ? 1 : 0;
  }
  EXPECT_GT(hits, 0u);
}

TEST(CsvReport, PartialAndHostileDocumentsDoNotThrow) {
  EXPECT_TRUE(render_csv(json::object()).empty());
  const std::vector<CsvFile> files =
      render_csv(json{{"tests", json::array({json{{"id", "../../etc/x"}, {"phases", json::array({json{{"phase", 3}}})}},
                                             json{{"id", "wsat"}, {"wsat", json{{"samples", "oops"}}}}})}});
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].file_name, "test-1.csv");  // never a path
  EXPECT_EQ(files[1].file_name, "wsat.csv");
  EXPECT_NO_THROW(read_table(files[0].content));
}

}  // namespace
}  // namespace ptsuite::report
