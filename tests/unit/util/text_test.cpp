// util/text.hpp: the one trim, the one CSV field and the one markup escape (two flavors) that
// units, workload, pts, capture, report and history share.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>

#include <ptsuite/util/text.hpp>

namespace ptsuite {
namespace {

TEST(Text, TrimRemovesAsciiWhitespaceAtBothEndsOnly) {
  // (input, trimmed); a UTF-8 no-break space is not ASCII whitespace.
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"  4KiB \t", "4KiB"},     {"\r\n\v\fx y\r\n", "x y"}, {" \t ", ""}, {"", ""}, {"a", "a"},
      {"\xC2\xA0x", "\xC2\xA0x"}};
  for (const auto& [in, out] : cases) {
    EXPECT_EQ(trim(in), out) << in;
  }
}

TEST(Text, CsvFieldsAreQuotedOnlyWhenTheyMustBe) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\r"), "\"cr\r\"");
  std::string row = "x,";
  append_csv_field(row, "1,5");
  EXPECT_EQ(row, "x,\"1,5\"");
}

TEST(Text, MarkupEscapeHtmlFlavor) {
  EXPECT_EQ(markup_escape("<a href=\"x\">Tom & Jerry's</a>", MarkupFlavor::html),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
  // No "//" reaches the page: the second slash is a reference.
  EXPECT_EQ(markup_escape("http://x/y", MarkupFlavor::html), "http:/&#47;x/y");
  EXPECT_EQ(markup_escape("a\x01"
                          "b",
                          MarkupFlavor::html),
            "a\x01"
            "b");
}

TEST(Text, MarkupEscapeSvgFlavor) {
  EXPECT_EQ(markup_escape("Tom & Jerry's <g>", MarkupFlavor::svg), "Tom &amp; Jerry&apos;s &lt;g&gt;");
  EXPECT_EQ(markup_escape("http://x", MarkupFlavor::svg), "http://x");
  // XML 1.0 forbids C0 controls but tab and newline: U+FFFD instead.
  EXPECT_EQ(markup_escape("a\x01"
                          "b\tc\nd",
                          MarkupFlavor::svg),
            "a\xEF\xBF\xBD"
            "b\tc\nd");
}

}  // namespace
}  // namespace ptsuite
