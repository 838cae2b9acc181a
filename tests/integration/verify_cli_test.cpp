// `ptsuite verify DIR` as a user runs it, against bundles written by write_manifest(test_support::output_dir()).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/util/output_file.hpp>
#include "integration/workload_process.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::bundle {
namespace {

namespace fs = std::filesystem;

using workload::test::CommandResult;
using workload::test::run_ptsuite_merged;

using test_support::write_file;

class VerifyCli : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(dir() / "results.json", "{\"ptsuite\": \"results\", \"iops\": 11746}\n");
    write_file(dir() / "raw" / "latency.csv", "us,count\n80,1000\n120,20\n");
    write_file(dir() / "report.html", "<!doctype html><title>IOPS</title>\n");
    write_manifest(test_support::output_dir(dir()));
  }
  [[nodiscard]] fs::path dir() const { return m_temp.path(); }
  [[nodiscard]] CommandResult verify() const { return run_ptsuite_merged({"verify", dir().string()}); }

  test_support::ShmTempDir m_temp{"ptsuite-verify"};
};

TEST_F(VerifyCli, IntactBundleExitsZero) {
  const CommandResult r = verify();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("OK: 3 file(s) intact", 0), 0u) << r.output;
}

TEST_F(VerifyCli, OneFlippedByteIsNamed) {
  std::string content = read_file(dir() / "raw" / "latency.csv");
  content[10] = static_cast<char>(content[10] ^ 0x01);
  write_file(dir() / "raw" / "latency.csv", content);
  const CommandResult r = verify();
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("changed  raw/latency.csv: content differs"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("FAILED: 1 problem(s)"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("results.json"), std::string::npos) << r.output;  // only the changed file
}

// --json: the same verdict and exit code, every problem with its kind, path and detail.
TEST_F(VerifyCli, JsonGivesTheVerdictAndEveryProblem) {
  CommandResult r = run_ptsuite_merged({"verify", dir().string(), "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  nlohmann::json doc = nlohmann::json::parse(r.output);
  EXPECT_TRUE(doc.at("intact").get<bool>());
  EXPECT_EQ(doc.at("files_matching"), 3);
  EXPECT_TRUE(doc.at("problems").empty());
  EXPECT_TRUE(doc.at("signature").is_null());
  fs::remove(dir() / "report.html");
  r = run_ptsuite_merged({"verify", dir().string(), "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  doc = nlohmann::json::parse(r.output);
  EXPECT_FALSE(doc.at("intact").get<bool>());
  ASSERT_EQ(doc.at("problems").size(), 1u);
  EXPECT_EQ(doc.at("problems")[0].at("kind"), "missing");
  EXPECT_EQ(doc.at("problems")[0].at("path"), "report.html");
  EXPECT_EQ(doc.at("verdict").get<std::string>().rfind("FAILED: 1 problem(s)", 0), 0u) << r.output;
}

TEST_F(VerifyCli, DeletedFileIsMissing) {
  fs::remove(dir() / "report.html");
  const CommandResult r = verify();
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("missing  report.html"), std::string::npos) << r.output;
}

TEST_F(VerifyCli, NewFileIsAdded) {
  write_file(dir() / "raw" / "notes.txt", "edited by hand\n");
  const CommandResult r = verify();
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("added    raw/notes.txt"), std::string::npos) << r.output;
}

TEST_F(VerifyCli, EditedManifestIsReported) {
  const fs::path manifest = dir() / std::string(k_manifest_file_name);
  std::string text = read_file(manifest);
  // Make the manifest claim results.json is 1 byte longer than it is.
  const std::string size_field = "\"size_bytes\": 38";
  const size_t at = text.find(size_field);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, size_field.size(), "\"size_bytes\": 39");
  write_file(manifest, text);
  const CommandResult r = verify();
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("edited   MANIFEST.sha256.json"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("changed  results.json: size 39 -> 38 bytes"), std::string::npos) << r.output;
}

TEST_F(VerifyCli, BadInputExitsTwo) {
  const fs::path manifest = dir() / std::string(k_manifest_file_name);
  write_file(manifest, "{\"format\": \"ptsuite-bundle-manifest\", \"files\": [");  // truncated
  CommandResult r = verify();
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("malformed manifest"), std::string::npos) << r.output;

  fs::remove(manifest);
  r = verify();
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no MANIFEST.sha256.json"), std::string::npos) << r.output;

  r = run_ptsuite_merged({"verify", (dir() / "no-such-dir").string()});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no such directory"), std::string::npos) << r.output;

  r = run_ptsuite_merged({"verify"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

}  // namespace
}  // namespace ptsuite::bundle
