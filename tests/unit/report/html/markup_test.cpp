// The report's HTML primitives: escaping (no "//" survives), number and unit formatting,
// tables, null-safe results access and pagination.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page.hpp>

namespace ptsuite::report::html {
namespace {

using nlohmann::json;

TEST(HtmlEscape, EscapesMarkupQuotesAndEveryDoubleSlash) {
  EXPECT_EQ(text("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(text("http://x//y///z"), "http:/&#47;x/&#47;y/&#47;&#47;z");
  EXPECT_EQ(attr("1/2"), "1/2");
  EXPECT_EQ(text("µs – ≤"), "µs – ≤");  // UTF-8 passes through
  EXPECT_EQ(element("p", "note", "<b>x</b>"), "<p class=\"note\"><b>x</b></p>");
  EXPECT_EQ(element("td", "", "1"), "<td>1</td>");
}

TEST(HtmlNumbers, GroupedWithFixedDecimalsAndNoNegativeZero) {
  EXPECT_EQ(grouped(1234567.891, 1), "1,234,567.9");
  EXPECT_EQ(grouped(999.5, 0), "1,000");
  EXPECT_EQ(grouped(-1234.5, 2), "-1,234.50");
  EXPECT_EQ(grouped(-0.0001, 2), "0.00");
  EXPECT_EQ(grouped(12, 0), "12");
  EXPECT_EQ(grouped(std::nan(""), 2), "\u2013");
  EXPECT_EQ(grouped(std::numeric_limits<double>::infinity(), 2), "\u2013");
}

TEST(HtmlNumbers, UnitsOfTheReport) {
  EXPECT_EQ(fmt_iops(394754.47), "394,754");
  EXPECT_EQ(fmt_iops(51.25), "51.2");
  EXPECT_EQ(fmt_iops(5.125), "5.12");
  EXPECT_EQ(fmt_mbps(3639.604), "3,639.6");
  EXPECT_EQ(fmt_ms(22772.6), "0.023");  // ns -> ms, microsecond resolution
  EXPECT_EQ(fmt_ms(2514944), "2.515");
  EXPECT_EQ(fmt_number(11726.8), "11,726.80");
  EXPECT_EQ(fmt_number(2345.36), "2,345.36");
  EXPECT_EQ(fmt_number(25.6), "25.60");
  EXPECT_EQ(fmt_number(0.001234), "0.001234");
  EXPECT_EQ(fmt_number(0), "0.00");
  EXPECT_EQ(fmt_percent(99.999), "99.999 %");
  EXPECT_EQ(fmt_percent(20), "20 %");
  EXPECT_EQ(kib_label(512), "0.5 KiB");
  EXPECT_EQ(kib_label(1536), "1.5 KiB");
  EXPECT_EQ(kib_label(4096), "4 KiB");
  EXPECT_EQ(kib_label(1048576), "1024 KiB");
  EXPECT_EQ(fmt_bytes(536870912), "536.9 MB (512.00 MiB)");
  EXPECT_EQ(fmt_bytes(960197124096ull), "960.20 GB (894.25 GiB)");
  EXPECT_EQ(fmt_duration_ns(500'000'000), "0.5 s");
  EXPECT_EQ(fmt_duration_ns(60'000'000'000), "1 min");
  EXPECT_EQ(fmt_duration_ns(90'000'000'000), "90 s");
  EXPECT_EQ(fmt_duration_ns(6 * 3600'000'000'000ull), "6 h");
  EXPECT_EQ(fmt_capacity_multiple(0.25), "0.25X");
  EXPECT_EQ(fmt_capacity_multiple(2), "2X");
  EXPECT_EQ(revision_label("2.0.2"), "PTS 2.0.2");
  EXPECT_EQ(revision_label("e1.1"), "PTS-E 1.1");
  EXPECT_EQ(revision_label("other"), "other");
}

TEST(HtmlTable, HeaderNumericColumnsMissingCellsAndRowClasses) {
  Table t;
  t.css_class = "data";
  t.header = {"Block size", "R/W 100/0", "R/W 0/100"};
  t.rows = {{"4 KiB", "1", "2", "dropped"}, {"8 KiB"}};
  t.row_classes = {"fail"};
  const std::string html = render_table(t);
  EXPECT_NE(html.find("<th>Block size</th><th class=\"num\">R/W 100/0</th>"), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"fail\"><td>4 KiB</td><td class=\"num\">1</td><td class=\"num\">2</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr><td>8 KiB</td><td class=\"num\"></td><td class=\"num\"></td></tr>"), std::string::npos);
  EXPECT_EQ(html.find("dropped"), std::string::npos);
  EXPECT_NE(render_rows({{"A & B", "<b>x</b>"}}, "kvt").find("<tr><th>A &amp; B</th><td><b>x</b></td></tr>"),
            std::string::npos);
}

TEST(HtmlResultsAccess, MissingKeysAndWrongTypesAreNullNaNAndEmpty) {
  const json j = {{"a", {{"b", 3}}}, {"s", "x"}, {"f", 20.0}, {"t", true}, {"arr", json::array({1})}};
  EXPECT_EQ(at(j, {"a", "b"}), 3);
  EXPECT_TRUE(at(j, {"a", "missing", "deeper"}).is_null());
  EXPECT_TRUE(at(j.at("arr"), "a").is_null());
  EXPECT_TRUE(std::isnan(num(at(j, "s"))));
  EXPECT_EQ(num(at(j, {"a", "b"})), 3);
  EXPECT_EQ(str(at(j, "s")), "x");
  EXPECT_EQ(str(at(j, "f")), "20");
  EXPECT_EQ(str(at(j, "t")), "true");
  EXPECT_EQ(str(at(j, {"a", "b"})), "3");
  EXPECT_EQ(str(at(j, "arr")), "");
  EXPECT_EQ(id_of("tp convergence/1MiB"), "tp-convergence-1MiB");
}

TEST(HtmlPagination, GroupsByLineBudget) {
  EXPECT_EQ(paginate({10, 10, 10, 30, 5}, 30), (std::vector<std::vector<size_t>>{{0, 1, 2}, {3}, {4}}));
  EXPECT_EQ(paginate({50, 1}, 30), (std::vector<std::vector<size_t>>{{0}, {1}}));  // too tall: alone
  EXPECT_TRUE(paginate({}, 30).empty());
  EXPECT_EQ(text_lines(0, 80), 1u);
  EXPECT_EQ(text_lines(80, 80), 1u);
  EXPECT_EQ(text_lines(81, 80), 2u);
}

TEST(HtmlDocument, NumbersPagesPlotsAndTablesInOrder) {
  auto header = std::make_shared<PageHeader>();
  header->title = "IOPS Test \u2013 Report Page";
  header->columns = {HeaderColumn{"Test Platform", {{"CPU", "x"}}}, HeaderColumn{"Device Under Test", {}},
                     HeaderColumn{"Set-up Parameters", {}}, HeaderColumn{"Test Parameters", {}}};
  std::vector<Page> pages = {
      {header, "One", {Block{BlockKind::figure, "<svg/>", "first", {}}, Block{BlockKind::table, "<table/>", "t1", {}}}},
      {header, "Two", {Block{BlockKind::figure, "<svg/>", "second", {}}, Block{BlockKind::html, "<p>x</p>", {}, {}}}}};
  const std::string doc = render_document(pages, "T", "foot");
  EXPECT_NE(doc.find("<section class=\"page\" id=\"page-1\">"), std::string::npos);
  EXPECT_NE(doc.find("<section class=\"page\" id=\"page-2\">"), std::string::npos);
  EXPECT_NE(doc.find("Plot 1 \u2013 first"), std::string::npos);
  EXPECT_NE(doc.find("Plot 2 \u2013 second"), std::string::npos);
  EXPECT_NE(doc.find("Table 1 \u2013 t1"), std::string::npos);
  EXPECT_LT(doc.find("Page 1 of 2"), doc.find("Page 2 of 2"));
  EXPECT_NE(doc.find("<span class=\"k\">CPU:</span> <span class=\"v\">x</span>"), std::string::npos);
  EXPECT_NE(doc.find("@page { size: auto; margin: 10mm; }"), std::string::npos);
  EXPECT_NE(doc.find(".page + .page { break-before: page;"), std::string::npos);
}

}  // namespace
}  // namespace ptsuite::report::html
