#include <gtest/gtest.h>

#include <string>

#include <ptsuite/report/chart/svg.hpp>
#include "support/xml_check.hpp"

namespace ptsuite::report::chart {
namespace {

TEST(XmlEscape, EscapesMarkupAndQuotes) {
  EXPECT_EQ(xml_escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  EXPECT_EQ(xml_escape("0.5KiB \xC2\xB5s"), "0.5KiB \xC2\xB5s");      // UTF-8 passes through
  EXPECT_EQ(xml_escape(std::string("x\x01y", 3)), "x\xEF\xBF\xBDy");  // C0 control -> U+FFFD
  EXPECT_EQ(xml_escape("tab\tnewline\n"), "tab\tnewline\n");
}

TEST(SvgNumber, FixedTwoDecimalsTrimmed) {
  EXPECT_EQ(svg_number(3), "3");
  EXPECT_EQ(svg_number(12.5), "12.5");
  EXPECT_EQ(svg_number(0.126), "0.13");
  EXPECT_EQ(svg_number(-0.001), "0");  // no "-0"
  EXPECT_EQ(svg_number(1e6), "1000000");
  EXPECT_EQ(svg_number(-7.25), "-7.25");
}

TEST(SanitizeId, KeepsSafeCharactersAndStartsWithALetter) {
  EXPECT_EQ(sanitize_id("IOPS vs round (4KiB)"), "IOPSvsround4KiB");
  EXPECT_EQ(sanitize_id("1abc"), "c1abc");
  EXPECT_EQ(sanitize_id(""), "c");
  EXPECT_EQ(sanitize_id("wsat-iops_log"), "wsat-iops_log");
}

TEST(SvgDocument, ProducesAWellFormedStandaloneDocument) {
  SvgDocument doc(200, 100, "demo", "A & B <title>");
  doc.open_group("g1", "data-x=\"1\"");
  doc.rect(0, 0, 10, 10, "#fff");
  const Stroke stroke{"#000", 1, "2 3"};
  doc.line(0, 0, 10, 10, stroke);
  for (const MarkerShape shape :
       {MarkerShape::circle, MarkerShape::square, MarkerShape::triangle_up, MarkerShape::diamond,
        MarkerShape::triangle_down, MarkerShape::cross, MarkerShape::plus, MarkerShape::pentagon}) {
    doc.marker(shape, 50, 50, 3, "#123456");
  }
  doc.text(5, 5, "x < y & \"z\"", {.size_px = 10, .anchor = Anchor::middle, .rotate_deg = -90, .css_class = "t"});
  const std::string svg = doc.finish();  // closes the open group
  const auto check = testing::check_xml(svg);
  ASSERT_TRUE(check.ok) << check.error << "\n" << svg;
  EXPECT_EQ(check.elements.front().name, "svg");
  EXPECT_EQ(check.elements.front().attributes.at("id"), "demo");
  EXPECT_EQ(check.elements.front().attributes.at("viewBox"), "0 0 200 100");
  EXPECT_EQ(check.count_class("pt"), 8u);
  EXPECT_NE(svg.find("<title id=\"demo-title\">A &amp; B &lt;title&gt;</title>"), std::string::npos);
  EXPECT_NE(svg.find(">x &lt; y &amp; &quot;z&quot;</text>"), std::string::npos);
  EXPECT_NE(svg.find("transform=\"rotate(-90 5 5)\""), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray=\"2 3\""), std::string::npos);
}

TEST(XmlCheck, CatchesMalformedInput) {
  EXPECT_FALSE(testing::check_xml("<svg><g></svg>").ok);
  EXPECT_FALSE(testing::check_xml("<svg a=\"1\" a=\"2\"/>").ok);
  EXPECT_FALSE(testing::check_xml("<svg>a & b</svg>").ok);
  EXPECT_FALSE(testing::check_xml("<svg a=1/>").ok);
  EXPECT_FALSE(testing::check_xml("<svg/><svg/>").ok);
  EXPECT_TRUE(testing::check_xml("<svg a='&amp;&#65;&#x41;'><!-- c --><g/>t</svg>").ok);
}

}  // namespace
}  // namespace ptsuite::report::chart
