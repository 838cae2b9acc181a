#include <gtest/gtest.h>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::units {
namespace {

TEST(ParseSize, AcceptsBinarySpellings) {
  EXPECT_EQ(parse_size_bytes("4096", "--bs"), 4096u);
  EXPECT_EQ(parse_size_bytes("4k", "--bs"), 4096u);
  EXPECT_EQ(parse_size_bytes("4K", "--bs"), 4096u);
  EXPECT_EQ(parse_size_bytes("4KB", "--bs"), 4096u);
  EXPECT_EQ(parse_size_bytes("4kb", "--bs"), 4096u);
  EXPECT_EQ(parse_size_bytes("4KiB", "--bs"), 4096u);
  EXPECT_EQ(parse_size_bytes("4Ki", "--bs"), 4096u);
  EXPECT_EQ(parse_size_bytes("0.5KiB", "--bs"), 512u);
  EXPECT_EQ(parse_size_bytes("1.5k", "--bs"), 1536u);
  EXPECT_EQ(parse_size_bytes("512b", "--bs"), 512u);
  EXPECT_EQ(parse_size_bytes(" 1MiB ", "--bs"), 1048576u);
  EXPECT_EQ(parse_size_bytes("2GiB", "--bs"), 2ull << 30);
  EXPECT_EQ(parse_size_bytes("1TiB", "--bs"), 1ull << 40);
}

TEST(ParseSize, RejectsBadInputNamingTheOption) {
  for (const char* bad : {"", "k", "4XB", "4 k b", "-4k", "4.1234567890123456789k", "0.3B", "1e3", "4kk"}) {
    try {
      parse_size_bytes(bad, "--block-size");
      ADD_FAILURE() << "accepted \"" << bad << "\"";
    } catch (const UsageError& e) {
      EXPECT_EQ(e.code(), ExitCode::usage);
      EXPECT_NE(std::string(e.what()).find("--block-size"), std::string::npos) << e.what();
    }
  }
}

TEST(ParseSize, RejectsOverflow) {
  EXPECT_THROW(parse_size_bytes("99999999999999999999", "--bs"), UsageError);
  EXPECT_THROW(parse_size_bytes("20000000TiB", "--bs"), UsageError);
}

// Drive capacities as spec sheets print them: decimal TB/GB, binary TiB/GiB.
TEST(ParseCapacity, DecimalAndBinaryUnitsAsDriveMakersWriteThem) {
  EXPECT_EQ(parse_capacity_bytes("3.84TB", "--capacity"), 3'840'000'000'000ull);
  EXPECT_EQ(parse_capacity_bytes("960GB", "--capacity"), 960'000'000'000ull);
  EXPECT_EQ(parse_capacity_bytes("7.68 tb", "--capacity"), 7'680'000'000'000ull);
  EXPECT_EQ(parse_capacity_bytes("894GiB", "--capacity"), 894ull << 30);
  EXPECT_EQ(parse_capacity_bytes("1TiB", "--capacity"), 1ull << 40);
  EXPECT_EQ(parse_capacity_bytes("4096", "--capacity"), 4096u);
  for (const char* bad : {"", "3.84XB", "-1TB", "1e3", "0.0001B", "99999999PB"}) {
    EXPECT_THROW(parse_capacity_bytes(bad, "--capacity"), UsageError) << bad;
  }
}

TEST(ParseDuration, AcceptsUnitsAndSums) {
  EXPECT_EQ(parse_duration_ns("30", "--d"), 30'000'000'000ull);
  EXPECT_EQ(parse_duration_ns("30s", "--d"), 30'000'000'000ull);
  EXPECT_EQ(parse_duration_ns("1.5s", "--d"), 1'500'000'000ull);
  EXPECT_EQ(parse_duration_ns("500ms", "--d"), 500'000'000ull);
  EXPECT_EQ(parse_duration_ns("250us", "--d"), 250'000ull);
  EXPECT_EQ(parse_duration_ns("1m", "--d"), 60'000'000'000ull);
  EXPECT_EQ(parse_duration_ns("1min", "--d"), 60'000'000'000ull);
  EXPECT_EQ(parse_duration_ns("2h", "--d"), 7'200'000'000'000ull);
  EXPECT_EQ(parse_duration_ns("1h30m", "--d"), 5'400'000'000'000ull);
  EXPECT_EQ(parse_duration_ns("1d", "--d"), 86'400'000'000'000ull);
}

TEST(ParseDuration, RejectsBadInput) {
  for (const char* bad : {"", "s", "10x", "-1s", "1h30", "abc", "1.5ns"}) {
    EXPECT_THROW(parse_duration_ns(bad, "--duration"), UsageError) << bad;
  }
}

TEST(ParsePercent, RangeAndSpellings) {
  EXPECT_DOUBLE_EQ(parse_percent("70", "--read-pct"), 70.0);
  EXPECT_DOUBLE_EQ(parse_percent("70%", "--read-pct"), 70.0);
  EXPECT_DOUBLE_EQ(parse_percent("12.5", "--read-pct"), 12.5);
  EXPECT_DOUBLE_EQ(parse_percent("0", "--read-pct"), 0.0);
  EXPECT_DOUBLE_EQ(parse_percent("100", "--read-pct"), 100.0);
  EXPECT_THROW(parse_percent("101", "--read-pct"), UsageError);
  EXPECT_THROW(parse_percent("-1", "--read-pct"), UsageError);
  EXPECT_THROW(parse_percent("seventy", "--read-pct"), UsageError);
}

TEST(ParseCount, DecimalSuffixes) {
  EXPECT_EQ(parse_count("1000", "--ios"), 1000u);
  EXPECT_EQ(parse_count("10k", "--ios"), 10000u);
  EXPECT_EQ(parse_count("2M", "--ios"), 2'000'000u);
  EXPECT_THROW(parse_count("1.5", "--ios"), UsageError);
  EXPECT_THROW(parse_count("-3", "--ios"), UsageError);
}

TEST(FormatSize, PtsBlockSizeNames) {
  EXPECT_EQ(format_size_binary(512), "0.5KiB");
  EXPECT_EQ(format_size_binary(1536), "1.5KiB");
  EXPECT_EQ(format_size_binary(4096), "4KiB");
  EXPECT_EQ(format_size_binary(1048576), "1MiB");
  EXPECT_EQ(format_size_binary(1024 * 1024 + 4096), "1028KiB");
  EXPECT_EQ(format_size_binary(100), "100B");
  EXPECT_EQ(format_size_human(3ull << 30), "3.00 GiB");
}

TEST(FormatDuration, Ranges) {
  EXPECT_EQ(format_duration(3'723'000'000'000ull), "1h02m03s");
  EXPECT_EQ(format_duration(123'000'000'000ull), "2m03s");
  EXPECT_EQ(format_duration(45'200'000'000ull), "45.2s");
  EXPECT_EQ(format_duration(850'000'000ull), "850ms");
}

}  // namespace
}  // namespace ptsuite::units
