// `ptsuite compare` as a user runs it (the built binary, PTSUITE_BINARY) on run directories made
// from the checked-in fixtures: a second drive (other model / serial, IOPS x 1.25) and a run
// with another TOIO; by directory and by history ID.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/util/output_file.hpp>

#include "integration/workload_process.hpp"
#include "support/json_schema.hpp"
#include "support/results_fixture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"

namespace ptsuite {
namespace {

using nlohmann::json;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;
namespace fs = std::filesystem;

class CompareCli : public ::testing::Test {
 protected:
  // A run directory holding the fixture, changed by `change`.
  std::string run(const std::string& name, const std::function<void(json&)>& change = {}) {
    json doc = test_support::load_results_fixture("steady");
    if (change) {
      change(doc);
    }
    const fs::path dir = fs::path(m_dir.path()) / name;
    fs::create_directories(dir);
    test_support::write_file(dir / "results.json", doc.dump());
    return dir.string();
  }
  static void second_drive(json& doc) {
    doc["device"]["model"] = "FX-7680 Fixture NVMe SSD";
    doc["device"]["serial"] = "FX0000000002";
    for (json& row : doc["tests"][0]["matrix"]["iops"]) {
      for (json& v : row) {
        v = v.get<double>() * 1.25;
      }
    }
  }
  [[nodiscard]] std::string file(const std::string& name) const { return m_dir.file(name); }

  test_support::ShmTempDir m_dir{"ptsuite-compare-cli"};
};

TEST_F(CompareCli, TwoDrivesGiveHtmlCsvAndJsonWithOneSeriesPerDrive) {
  const std::string a = run("a");
  const std::string b = run("b", second_drive);
  const ProcessResult r = run_ptsuite({"compare", a, b, "--out", file("cmp")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, file("cmp/compare.json") + "\n" + file("cmp/compare.csv") + "\n" + file("cmp/compare.html") + "\n");
  EXPECT_EQ(r.err, "");

  const json cmp = json::parse(read_file(file("cmp/compare.json")));
  const std::vector<std::string> errors = validate_json(cmp, embedded_schema("compare"));
  EXPECT_TRUE(errors.empty()) << errors.size() << " schema errors, first: " << (errors.empty() ? "" : errors.front());
  EXPECT_EQ(cmp.at("kind"), "ptsuite.compare");
  EXPECT_EQ(cmp.at("runs").size(), 2u);
  EXPECT_EQ(cmp["runs"][1]["identity"]["serial"], "FX0000000002");

  const std::string html = read_file(file("cmp/compare.html"));
  const std::string first = "data-series=\"Run 1 \u00b7 FX-3840 Fixture NVMe SSD (FX0000000001)\"";
  const std::string second = "data-series=\"Run 2 \u00b7 FX-7680 Fixture NVMe SSD (FX0000000002)\"";
  const auto count = [&](const std::string& needle) {
    size_t n = 0;
    for (size_t at = html.find(needle); at != std::string::npos; at = html.find(needle, at + 1)) {
      ++n;
    }
    return n;
  };
  EXPECT_EQ(count(first), count(second));
  EXPECT_GE(count(first), 10u);  // 7 IOPS mixes + 3 latency metrics, one series per drive each
  EXPECT_EQ(count("class=\"ptsuite-chart\""), count(first));  // every chart overlays both

  const std::string csv = read_file(file("cmp/compare.csv"));
  EXPECT_NE(csv.find("iops,iops-100-0,iops,IOPS,4KiB,4096,Run 2,FX-7680 Fixture NVMe SSD,FX0000000002,"),
            std::string::npos);

  // The same --out again: refused, nothing changed.
  const ProcessResult again = run_ptsuite({"compare", a, b, "--out", file("cmp")});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("already holds a compare report"), std::string::npos) << again.err;
  EXPECT_EQ(read_file(file("cmp/compare.html")), html);
}

// The same run twice (as itself and as a byte-identical copy): compared, with a warning that
// every difference is 0 by construction; two different runs get no such warning (above).
TEST_F(CompareCli, ARunComparedWithItselfIsWarnedAbout) {
  const std::string a = run("a");
  const std::string copy = run("copy");
  const ProcessResult r = run_ptsuite({"compare", a, copy, "--out", file("self")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("ptsuite: warning: " + a + " and " + copy + " are the same results document"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("compared with itself"), std::string::npos) << r.err;
}

TEST_F(CompareCli, RefusalsExitTwoBeforeWritingAnything) {
  const std::string a = run("a");
  const std::string other_toio = run("toio", [](json& d) { d["tests"][0]["toio"]["threads"] = 8; });
  ProcessResult r = run_ptsuite({"compare", a, other_toio, "--out", file("out1")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("run 1 (" + a + ") and run 2 (" + other_toio + ")"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("iops TOIO is TC 4 x QD 32 vs TC 8 x QD 32"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(file("out1")));

  r = run_ptsuite({"compare", a, "--out", file("out2")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("at least two runs"), std::string::npos) << r.err;

  fs::create_directories(file("full"));
  test_support::write_file(file("full/notes.txt"), "x");
  r = run_ptsuite({"compare", a, run("b"), "--out", file("full")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is not empty"), std::string::npos) << r.err;

  fs::create_directories(file("bad"));
  test_support::write_file(file("bad/results.json"), R"({"kind":"something.else"})");
  r = run_ptsuite({"compare", a, file("bad"), "--out", file("out3")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is not a document compare reads"), std::string::npos) << r.err;

  r = run_ptsuite({"compare", a, "4711", "--out", file("out4"), "--db", file("no-history.sqlite")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no history database"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(file("no-history.sqlite")));
  EXPECT_FALSE(fs::exists(file("out3")));
  EXPECT_FALSE(fs::exists(file("out4")));
}

TEST_F(CompareCli, ForceOverlaysDifferentWorkloadsAndMarksThem) {
  const std::string a = run("a");
  const std::string b = run("toio", [](json& d) {
    d["tests"][0]["toio"]["threads"] = 8;
    d["device"]["serial"] = "FX0000000002";
  });
  const ProcessResult r = run_ptsuite({"compare", a, b, "--out", file("forced"), "--force"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("workloads differ"), std::string::npos) << r.err;
  const std::string html = read_file(file("forced/compare.html"));
  EXPECT_NE(html.find("Workloads differ: these runs did not run the same workload"), std::string::npos);
  EXPECT_NE(html.find("Workloads differ for this test (TOIO)"), std::string::npos);
  const json forced = json::parse(read_file(file("forced/compare.json")));
  EXPECT_TRUE(forced.at("workloads_differ").get<bool>());
  EXPECT_TRUE(validate_json(forced, embedded_schema("compare")).empty());
}

TEST_F(CompareCli, HistoryIdsResolveToTheirRunDirectories) {
  const std::string a = run("a");
  const std::string b = run("b", second_drive);
  const std::string db = file("h.sqlite");
  ProcessResult r = run_ptsuite({"history", "add", a, "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(run (\d+))"))) << r.out;
  const std::string id = m[1].str();
  r = run_ptsuite({"compare", id, b, "--out", file("byid"), "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json cmp = json::parse(read_file(file("byid/compare.json")));
  EXPECT_EQ(cmp["runs"][0]["history_id"], std::stoll(id));
  EXPECT_EQ(cmp["runs"][0]["dir"], a);
}

}  // namespace
}  // namespace ptsuite
