// Bounded JSON input (util/json_input.hpp): depth, size and duplicate keys refused before a
// tree is built, /dev/zero ends with "larger than", and control characters in terminal text.
#include <gtest/gtest.h>

#include <string>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/printable.hpp>
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"

namespace ptsuite {
namespace {

std::string usage_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no UsageError)";
}

TEST(JsonInput, NestingDeeperThanTheLimitIsRefusedWithoutBuildingATree) {
  const std::string deep = std::string(50'000, '[') + std::string(50'000, ']');
  EXPECT_EQ(usage_message([&] { (void)parse_json_input(deep, "s.json", k_user_json_limits); }),
            "s.json: nesting deeper than 64 levels");
  const std::string ok = std::string(64, '[') + std::string(64, ']');
  EXPECT_NO_THROW((void)parse_json_input(ok, "s.json", k_user_json_limits));
}

TEST(JsonInput, DuplicateKeysAreRefusedInFilesPeopleWrite) {
  const std::string text = R"({"format": "a", "claims": [{"id": "x", "id": "y"}]})";
  EXPECT_EQ(usage_message([&] { (void)parse_json_input(text, "sheet.json", k_user_json_limits); }),
            "sheet.json: the key \"id\" appears twice in one object");
  // The same key in sibling objects is fine, and documents ptsuite wrote are not checked.
  EXPECT_NO_THROW((void)parse_json_input(R"([{"id": 1}, {"id": 2}])", "s", k_user_json_limits));
  EXPECT_NO_THROW((void)parse_json_input(text, "results.json", k_document_json_limits));
}

TEST(JsonInput, SizeIsBoundedForTextAndFilesIncludingDevices) {
  JsonLimits small{16, 8, false};
  EXPECT_NE(usage_message([&] { (void)parse_json_input(std::string(17, ' '), "x", small); }).find("more than"),
            std::string::npos);
  const std::string zero = usage_message([] { (void)read_input_file("/dev/zero", 1 << 20, "--file"); });
  EXPECT_EQ(zero, "--file: /dev/zero is larger than 1 MiB, more than any input of this kind can be");
  test_support::ShmTempDir dir;
  test_support::write_file(dir.file("a.json"), R"({"a": [1, 2]})");
  EXPECT_EQ(load_json_input(dir.file("a.json"), "a", k_user_json_limits).at("a").size(), 2u);
  EXPECT_NE(usage_message([&] { (void)read_input_file(dir.file("none.json"), 10, "--claims"); }).find("cannot read"),
            std::string::npos);
}

TEST(JsonInput, MalformedJsonNamesTheByte) {
  EXPECT_NE(usage_message([] {
              (void)parse_json_input("{not json", "g.json", k_document_json_limits);
            }).find("g.json: not valid JSON at byte 3"),
            std::string::npos);
}

TEST(Printable, ControlCharactersAreEscapedOtherBytesKept) {
  EXPECT_EQ(printable("FX\x1b[31mRED\nx\x7f"), "FX\\x1b[31mRED\\x0ax\\x7f");
  EXPECT_EQ(printable("Grüße 1.0"), "Grüße 1.0");
}

}  // namespace
}  // namespace ptsuite
