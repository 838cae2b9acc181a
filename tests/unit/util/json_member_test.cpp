// util/json_member.hpp: the one strict member read of documents ptsuite wrote itself (stats,
// steady-state verdicts, segment records): present or UsageError naming where, never a default.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_member.hpp>

namespace ptsuite {
namespace {

using nlohmann::json;

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  ADD_FAILURE() << "no UsageError";
  return "";
}

TEST(JsonMember, ReturnsTheMemberOrNamesWhatIsMissing) {
  const json j{{"ios", 5}, {"label", "RND"}};
  EXPECT_EQ(required_member(j, "ios", "segment").get<int>(), 5);
  EXPECT_EQ(&required_member(j, "label", "segment"), &j.at("label"));
  EXPECT_EQ(message_of([&] { (void)required_member(j, "bytes", "segment record"); }),
            "segment record: missing key \"bytes\"");
  EXPECT_EQ(message_of([&] { (void)required_member(json::array(), "ios", "summary"); }),
            "summary: expected a JSON object");
}

TEST(JsonMember, RequiredAsConvertsOrNamesTheMalformedMember) {
  const json j{{"ios", 5}, {"label", "RND"}};
  EXPECT_EQ(required_as<uint64_t>(j, "ios", "segment"), 5u);
  EXPECT_EQ(required_as<std::string>(j, "label", "segment"), "RND");
  const std::string m = message_of([&] { (void)required_as<uint64_t>(j, "label", "segment record"); });
  EXPECT_EQ(m.rfind("segment record: \"label\" is malformed: ", 0), 0u) << m;
  EXPECT_EQ(message_of([&] { (void)required_as<double>(j, "mean", "latency"); }), "latency: missing key \"mean\"");
}

}  // namespace
}  // namespace ptsuite
