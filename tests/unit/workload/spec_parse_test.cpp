// The text forms of workload settings: accepted spellings, and errors naming the option.
#include <gtest/gtest.h>

#include <string>

#include <ptsuite/util/error.hpp>
#include <ptsuite/workload/spec_parse.hpp>

namespace ptsuite::workload {
namespace {

template <typename F>
void expect_usage_error(F&& parse, const std::string& option) {
  try {
    parse();
    ADD_FAILURE() << "accepted; expected an error naming " << option;
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(option + ": ", 0), 0u) << e.what();
  }
}

TEST(SpecParse, Patterns) {
  EXPECT_EQ(parse_access_pattern("random", "--pattern"), AccessPattern::random);
  EXPECT_EQ(parse_access_pattern("RAND", "--pattern"), AccessPattern::random);
  EXPECT_EQ(parse_access_pattern("sequential", "--pattern"), AccessPattern::sequential);
  EXPECT_EQ(parse_access_pattern(" seq ", "--pattern"), AccessPattern::sequential);
  expect_usage_error([] { parse_access_pattern("zigzag", "--pattern"); }, "--pattern");
  EXPECT_EQ(parse_data_pattern("refill", "--data"), DataPattern::refill);
  EXPECT_EQ(parse_data_pattern("zeros", "--data"), DataPattern::zeros);
  EXPECT_EQ(parse_data_pattern("Random", "--data"), DataPattern::random);
  expect_usage_error([] { parse_data_pattern("ones", "--data"); }, "--data");
}

TEST(SpecParse, BsSplitTheCbwMix) {
  const auto mix =
      parse_bs_split("512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3", "--bs-split");
  ASSERT_EQ(mix.size(), 12u);
  EXPECT_EQ(mix[0].bytes, 512u);
  EXPECT_EQ(mix[0].weight, 4);
  EXPECT_EQ(mix[2].bytes, 1536u);
  EXPECT_EQ(mix[7].bytes, 4096u);
  EXPECT_EQ(mix[7].weight, 67);
  EXPECT_EQ(mix[11].bytes, 65536u);
  const auto fractional = parse_bs_split("0.5KiB/12.5%:4KiB/87.5", "--bs-split");
  EXPECT_EQ(fractional[0].bytes, 512u);
  EXPECT_EQ(fractional[0].weight, 12.5);
  EXPECT_EQ(parse_bs_split("8k", "--bs-split").front().bytes, 8192u);
  for (const char* bad : {"", "4k/", "4k/0", "4k/-1", "4k/x", "4k/1:8k", "4q/1", ":"}) {
    expect_usage_error([bad] { parse_bs_split(bad, "--bs-split"); }, "--bs-split");
  }
}

TEST(SpecParse, Zones) {
  const auto z = parse_zones("50/5:30/15:20/80", "--zones");
  ASSERT_EQ(z.size(), 3u);
  EXPECT_EQ(z[0].io_pct, 50);
  EXPECT_EQ(z[0].range_pct, 5);
  EXPECT_EQ(z[2].range_pct, 80);
  for (const char* bad : {"", "50", "50/5/1", "50/x", "150/5:-50/95"}) {
    expect_usage_error([bad] { parse_zones(bad, "--zones"); }, "--zones");
  }
}

TEST(SpecParse, Range) {
  EXPECT_EQ(parse_range("75%", "--range").pct, 75);
  EXPECT_FALSE(parse_range("75", "--range").length_bytes.has_value());
  const ActiveRangeSpec explicit_range = parse_range("1GiB:4GiB", "--range");
  EXPECT_EQ(explicit_range.offset_bytes, 1ULL << 30);
  EXPECT_EQ(explicit_range.length_bytes, 4ULL << 30);
  for (const char* bad : {"0%", "101%", "-5", "1GiB:", "x:4k", "abc"}) {
    expect_usage_error([bad] { parse_range(bad, "--range"); }, "--range");
  }
}

TEST(SpecParse, ByteLimit) {
  EXPECT_EQ(parse_byte_limit("10GiB", "--bytes").bytes, 10ULL << 30);
  EXPECT_EQ(parse_byte_limit("2x", "--bytes").range_multiple, 2.0);
  EXPECT_EQ(parse_byte_limit("0.5X", "--bytes").range_multiple, 0.5);
  for (const char* bad : {"0", "x", "0x", "-2x", "2xx", "ten"}) {
    expect_usage_error([bad] { parse_byte_limit(bad, "--bytes"); }, "--bytes");
  }
}

TEST(SpecParse, CpuList) {
  EXPECT_EQ(parse_cpu_list("0,1", "--cpus"), (std::vector<int>{0, 1}));
  EXPECT_EQ(parse_cpu_list("0-3,6", "--cpus"), (std::vector<int>{0, 1, 2, 3, 6}));
  for (const char* bad : {"", "a", "1,", "3-1", "-1", "0-99999999"}) {
    expect_usage_error([bad] { parse_cpu_list(bad, "--cpus"); }, "--cpus");
  }
}

TEST(SpecParse, Decimal) {
  EXPECT_EQ(parse_decimal("250", "--rate-mbps"), 250);
  EXPECT_EQ(parse_decimal("12.5", "--rate-mbps"), 12.5);
  for (const char* bad : {"", "-1", "1e3", "fast", "1.2.3"}) {
    expect_usage_error([bad] { parse_decimal(bad, "--rate-mbps"); }, "--rate-mbps");
  }
}

}  // namespace
}  // namespace ptsuite::workload
