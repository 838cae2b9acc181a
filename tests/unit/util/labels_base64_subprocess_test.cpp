// Run labels, Base64 and the helper-program runner (util/labels.hpp, util/base64.hpp,
// util/subprocess.hpp).
#include <gtest/gtest.h>

#include <ptsuite/util/base64.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/labels.hpp>
#include <ptsuite/util/subprocess.hpp>

namespace ptsuite {
namespace {

TEST(Labels, KeyValuePairsWithCheckedKeys) {
  EXPECT_EQ(parse_label("campaign=q4-pm9a3", "--label"),
            std::make_pair(std::string("campaign"), std::string("q4-pm9a3")));
  EXPECT_EQ(parse_label("note=a=b c", "--label").second, "a=b c") << "the first '=' splits";
  for (const char* bad : {"campaign", "=x", "Campaign=x", "9rack=x", "rack row=x", "rack=", "rack=a\tb"}) {
    EXPECT_THROW((void)parse_label(bad, "--label"), UsageError) << bad;
  }
  EXPECT_THROW((void)parse_label(std::string(33, 'k') + "=v", "--label"), UsageError);
  EXPECT_THROW((void)parse_label("k=" + std::string(201, 'v'), "--label"), UsageError);
  const Labels labels = parse_labels({"slot=3", "rack=r1", "slot=3"}, "--label");
  EXPECT_EQ(labels_text(labels), "rack=r1 slot=3");
  EXPECT_THROW((void)parse_labels({"slot=3", "slot=4"}, "--label"), UsageError);
  std::vector<std::string> many;
  for (int i = 0; i < 33; ++i) many.push_back("k" + std::to_string(i) + "=v");
  EXPECT_THROW((void)parse_labels(many, "--label"), UsageError);
}

TEST(Base64, RoundTripsAnyBytes) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (const std::string& s : {std::string(), std::string("f"), std::string("fo"), std::string("foo"), all}) {
    EXPECT_EQ(base64_decode(base64_encode(s), "test"), s);
  }
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");  // RFC 4648 section 10
  EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_THROW((void)base64_decode("Zm9", "test"), UsageError);
  EXPECT_THROW((void)base64_decode("Zm9*", "test"), UsageError);
}

constexpr uint64_t k_ten_seconds_ns = 10'000'000'000;

TEST(Subprocess, StdinStdoutStderrAndTheExitCode) {
  const ProgramResult r = run_program({"sh", "-c", "cat; echo oops >&2; exit 3"}, "hello\n", k_ten_seconds_ns);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.out, "hello\n");
  EXPECT_EQ(r.err, "oops\n");
  const ProgramResult env =
      run_program({"sh", "-c", "echo $PTSUITE_TEST_VALUE"}, "", k_ten_seconds_ns, {"PTSUITE_TEST_VALUE=42"});
  EXPECT_EQ(env.out, "42\n");
  // A child that never reads its stdin: no SIGPIPE reaches us.
  const ProgramResult deaf = run_program({"true"}, std::string(1 << 20, 'x'), k_ten_seconds_ns);
  EXPECT_EQ(deaf.exit_code, 0);
}

TEST(Subprocess, AHungProgramIsKilledAtItsDeadline) {
  const ProgramResult r = run_program({"sleep", "30"}, "", 200'000'000);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.exit_code, -1);
}

TEST(Subprocess, AMissingProgramIsASystemErrorNamingIt) {
  try {
    (void)run_program({"ptsuite-no-such-program"}, "", k_ten_seconds_ns);
    FAIL() << "started";
  } catch (const SystemError& e) {
    EXPECT_NE(std::string(e.what()).find("ptsuite-no-such-program"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("not installed"), std::string::npos);
  }
}

}  // namespace
}  // namespace ptsuite
