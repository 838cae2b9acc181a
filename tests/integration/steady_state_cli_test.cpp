// `ptsuite steady-state` as an auditor runs it: values as arguments or from CSV / JSON files,
// the verdict table or JSON on stdout, exit 0 (attained) / 1 (not attained) / 2 (bad input,
// one line on stderr naming the option).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include <ptsuite/pts/steady_state.hpp>
#include "support/temp_dir.hpp"

namespace ptsuite::cli {
namespace {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class SteadyStateCli : public ::testing::Test {
 protected:
  // `arguments` is passed through the shell; tests quote what needs quoting.
  CommandResult run(const std::string& arguments) const {
    CommandResult result;
    const std::string err_path = m_dir.file("stderr.txt");
    const std::string command = std::string(PTSUITE_BINARY) + " steady-state " + arguments + " 2>" + err_path;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) {
      return result;
    }
    std::array<char, 4096> chunk{};
    size_t got = 0;
    while ((got = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0) {
      result.out.append(chunk.data(), got);
    }
    const int status = ::pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.err = slurp(err_path);
    return result;
  }

  std::string write_file(const std::string& name, const std::string& content) const {
    const std::string path = m_dir.file(name);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
    return path;
  }

  // Exit 2 with exactly one stderr line that names `option`.
  void expect_usage_error(const std::string& arguments, const std::string& option) const {
    const CommandResult r = run(arguments);
    EXPECT_EQ(r.exit_code, 2) << arguments << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(option), std::string::npos) << arguments << ": " << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }

  test_support::ShmTempDir m_dir{"ptsuite-ss-cli"};
};

constexpr const char* k_worked_example = "11600 11900 11726 11780 11628";

TEST_F(SteadyStateCli, WorkedExampleFromArgumentsIsAttained) {
  const CommandResult r = run(std::string("--name 'RND 4KiB W IOPS' ") + k_worked_example);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  for (const char* expected : {"Steady state: RND 4KiB W IOPS", "rounds 1-5", "11726.8", "-6.4*R + 11746", "2345.36",
                               "1172.68", "25.6", "ATTAINED", "first attained   round 5"}) {
    EXPECT_NE(r.out.find(expected), std::string::npos) << expected << " missing in\n" << r.out;
  }
  EXPECT_EQ(r.out.find("NOT ATTAINED"), std::string::npos) << r.out;
  // The table is the library's format_verdict_text, byte for byte, plus the first-attained line.
  const pts::SteadyStateVerdict v = pts::evaluate_window("RND 4KiB W IOPS", std::vector<uint32_t>{1, 2, 3, 4, 5},
                                                         std::vector<double>{11600, 11900, 11726, 11780, 11628});
  EXPECT_EQ(r.out.rfind(pts::format_verdict_text(v), 0), 0u) << r.out;
}

TEST_F(SteadyStateCli, NotAttainedExitsOne) {
  const CommandResult r = run("12000 11000 10000 9000 8000");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("NOT ATTAINED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FAIL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("never"), std::string::npos) << r.out;
}

TEST_F(SteadyStateCli, FewerRoundsThanTheWindowExitsOneWithANote) {
  const CommandResult r = run("100 100 100");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("3 rounds measured; the steady-state window needs 5"), std::string::npos) << r.out;
}

TEST_F(SteadyStateCli, OptionsChangeTheCriteria) {
  // The worked example fails a 2 % data limit (300 > 234.5) ...
  const CommandResult strict = run(std::string("--data-pct 2 ") + k_worked_example);
  EXPECT_EQ(strict.exit_code, 1) << strict.out;
  EXPECT_NE(strict.out.find("234.54"), std::string::npos) << strict.out;
  // ... and a 3-round window looks only at rounds 3..5.
  const CommandResult window = run(std::string("--window 3 ") + k_worked_example);
  EXPECT_EQ(window.exit_code, 0) << window.out;
  EXPECT_NE(window.out.find("rounds 3-5"), std::string::npos) << window.out;
  const CommandResult slope = run(std::string("--slope-pct 0.1% ") + k_worked_example);
  EXPECT_EQ(slope.exit_code, 1) << slope.out;  // 25.6 > 11.7268
}

TEST_F(SteadyStateCli, JsonOutputIsTheVerdict) {
  const CommandResult r = run(std::string("--json ") + k_worked_example);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const auto v = j.get<pts::SteadyStateVerdict>();
  EXPECT_TRUE(v.attained);
  EXPECT_EQ(v.fit_formula, "-6.4*R + 11746");
  EXPECT_DOUBLE_EQ(v.allowed_data_excursion, 2345.36);
  EXPECT_EQ(j.at("first_attained_round"), 5);
  const CommandResult never = run("--json 1 2 3 4 5");
  EXPECT_EQ(never.exit_code, 1);
  EXPECT_TRUE(nlohmann::json::parse(never.out).at("first_attained_round").is_null());
}

TEST_F(SteadyStateCli, CsvFileWithHeaderAndRounds) {
  const std::string path = write_file("ss.csv",
                                      "round,IOPS\r\n"
                                      "# rounds 1-3 were preconditioning\n"
                                      "4,11600\n5,11900\n\n6,11726\n7,11780\n8,11628\n");
  const CommandResult r = run("--file " + path);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Steady state: IOPS"), std::string::npos) << r.out;  // the header names it
  EXPECT_NE(r.out.find("rounds 4-8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("-6.4*R + 11765.2"), std::string::npos) << r.out;  // same slope, shifted by 3 rounds
}

TEST_F(SteadyStateCli, CsvFileWithOneValuePerLine) {
  const std::string path = write_file("values.csv", "11600\n11900\n11726\n11780\n11628\n");
  const CommandResult r = run("--file " + path);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("-6.4*R + 11746"), std::string::npos) << r.out;
}

TEST_F(SteadyStateCli, JsonFiles) {
  const CommandResult array = run("--file " + write_file("a.json", "[11600, 11900, 11726, 11780, 11628]"));
  EXPECT_EQ(array.exit_code, 0) << array.out << array.err;
  EXPECT_NE(array.out.find("rounds 1-5"), std::string::npos) << array.out;
  const CommandResult object = run("--file " + write_file("o.json", R"({"name": "MB/s", "rounds": [21, 22, 23, 24, 25],
                                                "values": [400, 300, 500, 410, 390]})"));
  EXPECT_EQ(object.exit_code, 1) << object.out << object.err;  // 200 > 80
  EXPECT_NE(object.out.find("Steady state: MB/s"), std::string::npos) << object.out;
  EXPECT_NE(object.out.find("rounds 21-25"), std::string::npos) << object.out;
}

TEST_F(SteadyStateCli, BadInputExitsTwoNamingTheOption) {
  expect_usage_error("", "VALUES");
  expect_usage_error("100 abc 100 100 100", "VALUES");
  expect_usage_error("100 nan 100 100 100", "VALUES");
  expect_usage_error("--window 1 1 2 3", "--window");
  expect_usage_error("--window x 1 2 3", "--window");
  expect_usage_error("--data-pct 120 1 2 3 4 5", "--data-pct");
  expect_usage_error("--slope-pct -- 1 2 3 4 5", "--slope-pct");
  expect_usage_error("--file /nonexistent/ss.csv", "--file");
  const std::string csv = write_file("ok.csv", "1\n2\n3\n4\n5\n");
  expect_usage_error("--file " + csv + " 1 2 3", "--file");
  expect_usage_error("--file " + write_file("mixed.csv", "1,100\n200\n"), "--file");
  expect_usage_error("--file " + write_file("typo.csv", "100\n1oo\n100\n"), "line 2");
  expect_usage_error("--file " + write_file("neg.csv", "100\n-5\n100\n"), "line 2");
  expect_usage_error("--file " + write_file("order.csv", "1,100\n3,100\n2,100\n"), "round 2 follows round 3");
  expect_usage_error("--file " + write_file("bad.json", "[1, 2,"), "--file");
  expect_usage_error("--file " + write_file("str.json", R"(["1", 2])"), "values[0]");
  expect_usage_error("--file " + write_file("len.json", R"({"rounds": [1, 2], "values": [1, 2, 3]})"), "--file");
  expect_usage_error("--file " + write_file("empty.csv", "\n\n"), "--file");
  expect_usage_error("--file " + write_file("header-only.csv", "round,iops\n"), "--file");
}

}  // namespace
}  // namespace ptsuite::cli
