// JsonPositions and Fields: field paths located by line and column, errors in one line.
#include <gtest/gtest.h>

#include <ptsuite/util/json_fields.hpp>

namespace ptsuite {
namespace {

TEST(JsonPositions, LocatesEveryValueByItsFieldPath) {
  const std::string text =
      "{\n  \"a\": {\"b\": [1, {\"c\": \"x\"}]},\n  \"é\": 2,\n  \"s\": \"q\\\"uote\", \"t\": 3\n}";
  const JsonPositions pos(text);
  ASSERT_NE(pos.find("a"), nullptr);
  EXPECT_EQ(pos.find("a")->line, 2u);
  EXPECT_EQ(pos.find("a")->column, 8u);
  EXPECT_EQ(pos.find("a.b[1].c")->column, 24u);
  EXPECT_EQ(pos.find("é")->line, 3u);
  EXPECT_EQ(pos.find("é")->column, 8u) << "columns count characters, not bytes";
  EXPECT_EQ(pos.find("t")->column, 24u) << "an escaped quote does not end the string";
  // Unknown paths fall back to the nearest known parent.
  EXPECT_EQ(pos.find("a.b[1].missing")->column, pos.find("a.b[1]")->column);
  EXPECT_EQ(pos.find("zzz")->line, 1u);
}

TEST(Fields, ErrorsNameFilePathAndPosition) {
  const std::string text = "{\n  \"n\": \"five\"\n}";
  const nlohmann::json j = nlohmann::json::parse(text);
  const Fields f("f.json", "", std::make_shared<JsonPositions>(text));
  try {
    (void)f.count(j, "n");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "f.json: n (line 2, column 8): must be a whole number from 1 to 65536");
  }
  EXPECT_THROW(f.only(j, {"m"}), UsageError);
  const Fields no_text("g.json", "x");
  try {
    no_text.fail("y", "bad");
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "g.json: x.y: bad");
  }
}

}  // namespace
}  // namespace ptsuite
