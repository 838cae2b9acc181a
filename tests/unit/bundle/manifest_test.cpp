#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/sha256.hpp>
#include <ptsuite/util/version.hpp>
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::bundle {
namespace {

namespace fs = std::filesystem;

using test_support::write_file;

// A small run directory: results, a raw-data subfolder, reports.
class ManifestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(dir() / "results.json", "{\"tests\": []}\n");
    write_file(dir() / "raw" / "iops" / "round-1.csv", "round,iops\n1,11746\n");
    write_file(dir() / "report.html", "<html></html>\n");
    write_file(dir() / "empty.txt", "");
  }
  fs::path dir() const { return m_temp.path(); }
  fs::path manifest_path() const { return dir() / std::string(k_manifest_file_name); }

  test_support::ShmTempDir m_temp{"ptsuite-manifest"};
};

TEST_F(ManifestTest, ListsEveryFileSortedWithSizeAndHashButNotItself) {
  const Manifest m = write_manifest(test_support::output_dir(dir()));
  ASSERT_EQ(m.files.size(), 4u);
  EXPECT_EQ(m.files[0].path, "empty.txt");
  EXPECT_EQ(m.files[1].path, "raw/iops/round-1.csv");
  EXPECT_EQ(m.files[2].path, "report.html");
  EXPECT_EQ(m.files[3].path, "results.json");
  EXPECT_EQ(m.files[3].size_bytes, 14u);
  EXPECT_EQ(m.files[3].sha256, sha256_hex("{\"tests\": []}\n"));
  EXPECT_EQ(m.files[0].sha256, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(m.ptsuite_version, version());
  EXPECT_EQ(m.git_revision, git_revision());
  EXPECT_EQ(m.created_utc.size(), 20u);  // 2026-11-21T18:19:00Z
  EXPECT_TRUE(fs::exists(manifest_path()));
  EXPECT_FALSE(fs::exists(dir() / (std::string(k_manifest_file_name) + ".tmp")));
}

TEST_F(ManifestTest, SerializedFormRoundTripsAndCarriesItsChecksum) {
  const Manifest m = write_manifest(test_support::output_dir(dir()));
  const std::string text = read_file(manifest_path());
  EXPECT_NE(text.find("\"format\": \"ptsuite-bundle-manifest\""), std::string::npos);
  EXPECT_NE(text.find("\"manifest_sha256\": \"" + manifest_checksum(m) + "\""), std::string::npos);
  std::string stored;
  const Manifest parsed = parse_manifest(text, "test", &stored);
  EXPECT_EQ(stored, manifest_checksum(m));
  EXPECT_EQ(manifest_checksum(parsed), stored);
  ASSERT_EQ(parsed.files.size(), m.files.size());
  for (size_t i = 0; i < m.files.size(); ++i) {
    EXPECT_EQ(parsed.files[i].path, m.files[i].path);
    EXPECT_EQ(parsed.files[i].size_bytes, m.files[i].size_bytes);
    EXPECT_EQ(parsed.files[i].sha256, m.files[i].sha256);
  }
}

TEST_F(ManifestTest, IntactBundleVerifies) {
  write_manifest(test_support::output_dir(dir()));
  const VerifyReport r = verify_manifest(dir());
  EXPECT_TRUE(r.intact());
  EXPECT_EQ(r.files_matching, 4u);
}

TEST_F(ManifestTest, NamesChangedMissingAndAddedFiles) {
  write_manifest(test_support::output_dir(dir()));
  write_file(dir() / "results.json", "{\"tests\": [1]}\n");  // size changes
  write_file(dir() / "report.html", "<html></html>!");       // same size, other bytes
  fs::remove(dir() / "raw" / "iops" / "round-1.csv");        // missing
  write_file(dir() / "raw" / "extra.bin", "x");              // added
  const VerifyReport r = verify_manifest(dir());
  ASSERT_EQ(r.problems.size(), 4u);
  EXPECT_EQ(r.problems[0].kind, Problem::added);
  EXPECT_EQ(r.problems[0].path, "raw/extra.bin");
  EXPECT_EQ(r.problems[1].kind, Problem::missing);
  EXPECT_EQ(r.problems[1].path, "raw/iops/round-1.csv");
  EXPECT_EQ(r.problems[2].kind, Problem::changed);
  EXPECT_EQ(r.problems[2].path, "report.html");
  EXPECT_NE(r.problems[2].detail.find("SHA-256"), std::string::npos);
  EXPECT_EQ(r.problems[3].kind, Problem::changed);
  EXPECT_EQ(r.problems[3].path, "results.json");
  EXPECT_EQ(r.problems[3].detail, "size 14 -> 15 bytes");
  EXPECT_EQ(r.files_matching, 1u);
}

TEST_F(ManifestTest, DetectsEditsOfTheManifestItself) {
  const Manifest m = write_manifest(test_support::output_dir(dir()));
  std::string text = read_file(manifest_path());
  // Claim a different hash for results.json: both the edit and the mismatch are reported.
  const size_t at = text.find(m.files[3].sha256);
  ASSERT_NE(at, std::string::npos);
  text[at] = text[at] == '0' ? '1' : '0';
  write_file(manifest_path(), text);
  const VerifyReport r = verify_manifest(dir());
  ASSERT_EQ(r.problems.size(), 2u);
  EXPECT_EQ(r.problems[0].kind, Problem::manifest_edited);
  EXPECT_EQ(r.problems[0].path, std::string(k_manifest_file_name));
  EXPECT_EQ(r.problems[1].kind, Problem::changed);
  EXPECT_EQ(r.problems[1].path, "results.json");
}

TEST_F(ManifestTest, ALeftoverTemporaryManifestIsIgnored) {
  write_manifest(test_support::output_dir(dir()));
  write_file(dir() / (std::string(k_manifest_file_name) + ".tmp"), "partial");
  EXPECT_TRUE(verify_manifest(dir()).intact());
}

TEST_F(ManifestTest, SymbolicLinksAreRefusedOrReported) {
  ASSERT_EQ(::symlink("results.json", (dir() / "link.json").c_str()), 0);
  EXPECT_THROW(write_manifest(test_support::output_dir(dir())), UsageError);
  fs::remove(dir() / "link.json");
  write_manifest(test_support::output_dir(dir()));
  ASSERT_EQ(::symlink("results.json", (dir() / "link.json").c_str()), 0);
  const VerifyReport r = verify_manifest(dir());
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].kind, Problem::added);
  EXPECT_NE(r.problems[0].detail.find("symbolic link"), std::string::npos);
}

TEST_F(ManifestTest, BadInputIsAUsageError) {
  EXPECT_THROW(verify_manifest(dir() / "nope"), UsageError);
  EXPECT_THROW(verify_manifest(dir() / "results.json"), UsageError);  // not a directory
  // A token for a directory that does not exist (test_support::output_dir() would create it).
  const OutputDir missing = device::OutputGate("test").directory((dir() / "nope").string(), "DIR",
                                                                 device::OutputGate::Existing::may_hold_files);
  EXPECT_THROW(write_manifest(missing), UsageError);
  try {
    verify_manifest(dir());  // no manifest yet
    ADD_FAILURE() << "verified a directory without a manifest";
  } catch (const UsageError& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find(std::string(k_manifest_file_name)), std::string::npos) << e.what();
  }
}

TEST(ParseManifest, RejectsMalformedManifests) {
  const std::string hash(64, 'a');
  const auto manifest = [&](const std::string& files, const std::string& extra = "") {
    return "{\"format\":\"ptsuite-bundle-manifest\",\"format_version\":1,\"algorithm\":\"sha256\","
           "\"created_utc\":\"x\",\"ptsuite_version\":\"0\",\"git_revision\":\"r\",\"manifest_"
           "sha256\":\"" +
           hash + "\",\"files\":" + files + extra + "}";
  };
  const std::string ok_entry = "{\"path\":\"a\",\"size_bytes\":1,\"sha256\":\"" + hash + "\"}";
  EXPECT_NO_THROW(parse_manifest(manifest("[" + ok_entry + "]"), "m", nullptr));
  for (const std::string& bad : {
           std::string("not json"),
           std::string("[]"),
           manifest("{}"),
           manifest("[" + ok_entry + "," + ok_entry + "]"),  // duplicate path
           manifest("[{\"path\":\"../etc/passwd\",\"size_bytes\":1,\"sha256\":\"" + hash + "\"}]"),
           manifest("[{\"path\":\"/abs\",\"size_bytes\":1,\"sha256\":\"" + hash + "\"}]"),
           manifest("[{\"path\":\"a/./b\",\"size_bytes\":1,\"sha256\":\"" + hash + "\"}]"),
           manifest("[{\"path\":\"a\",\"size_bytes\":-1,\"sha256\":\"" + hash + "\"}]"),
           manifest("[{\"path\":\"a\",\"size_bytes\":1,\"sha256\":\"xyz\"}]"),
           manifest("[{\"path\":\"a\",\"size_bytes\":1}]"),
       }) {
    EXPECT_THROW(parse_manifest(bad, "m", nullptr), UsageError) << bad;
  }
  std::string other_format = manifest("[]");
  other_format.replace(other_format.find("ptsuite-bundle-manifest"), 7, "another");
  EXPECT_THROW(parse_manifest(other_format, "m", nullptr), UsageError);
  std::string version_2 = manifest("[]");
  version_2.replace(version_2.find("\"format_version\":1"), 18, "\"format_version\":2");
  EXPECT_THROW(parse_manifest(version_2, "m", nullptr), UsageError);
}

}  // namespace
}  // namespace ptsuite::bundle
