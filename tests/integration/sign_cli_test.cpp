// `ptsuite keygen`, `ptsuite sign` and `ptsuite verify --pubkey` as a user runs them: a signed
// run verifies with its key (exit 0); a tampered result, a tampered manifest and a wrong key
// each fail with exit 1 and a one-line reason; signing names the key on the report's first
// page and refuses a bundle that already changed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/bundle/signature.hpp>
#include <ptsuite/report/report_writer.hpp>
#include <ptsuite/util/output_file.hpp>
#include "integration/workload_process.hpp"
#include "support/results_fixture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite {
namespace {

namespace fs = std::filesystem;
using workload::test::CommandResult;
using workload::test::run_ptsuite_merged;

std::string last_line(const std::string& text) {
  const size_t end = text.find_last_not_of('\n');
  const size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1,
                     end - (start == std::string::npos ? 0 : start + 1) + 1);
}

// A run directory as `ptsuite run` leaves it: the steady fixture's results, its HTML and text
// reports, a manifest. Keys from `ptsuite keygen`.
class SignCli : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(run());
    test_support::write_file(run() / "results.json", test_support::load_results_fixture("steady").dump());
    (void)report::write_reports(test_support::output_dir(run().string()), test_support::load_results_fixture("steady"),
                                {"html", "text"});
    (void)bundle::write_manifest(test_support::output_dir(run()));
    const CommandResult k = run_ptsuite_merged({"keygen", key()});
    ASSERT_EQ(k.exit_code, 0) << k.output;
    ASSERT_NE(k.output.find("fingerprint: SHA256:"), std::string::npos) << k.output;
  }
  [[nodiscard]] fs::path run() const { return fs::path(m_temp.path()) / "run"; }
  [[nodiscard]] std::string key() const { return m_temp.file("lab.key"); }
  [[nodiscard]] std::string pub() const { return key() + ".pub"; }
  [[nodiscard]] CommandResult verify(const std::string& pubkey) const {
    return run_ptsuite_merged({"verify", run().string(), "--pubkey", pubkey});
  }
  [[nodiscard]] CommandResult sign() const {
    return run_ptsuite_merged({"sign", run().string(), "--key", key(), "--tested-by", "ACME Lab"});
  }

  test_support::ShmTempDir m_temp{"ptsuite-sign-cli"};
};

TEST_F(SignCli, SignedRunVerifiesAndItsReportNamesTheKey) {
  const CommandResult s = sign();
  ASSERT_EQ(s.exit_code, 0) << s.output;
  const bundle::SignatureFile sig = *bundle::read_signature(run());
  const std::string fingerprint = sig.statement.key_fingerprint;
  EXPECT_NE(s.output.find(fingerprint), std::string::npos) << s.output;
  // The report's first page and the text summary name the key and the tester.
  const std::string html = read_file(run() / "report.html");
  const size_t first_page_end = html.find("id=\"page-2\"");
  const size_t at = html.find(fingerprint);
  ASSERT_NE(at, std::string::npos);
  EXPECT_LT(at, first_page_end);
  EXPECT_NE(html.find("tested by ACME Lab"), std::string::npos);
  EXPECT_NE(read_file(run() / "summary.txt").find("Signed:      Ed25519 key " + fingerprint), std::string::npos);
  const nlohmann::json results = nlohmann::json::parse(read_file(run() / "results.json"));
  EXPECT_EQ(results.at("attestation").at("key_fingerprint"), fingerprint);
  EXPECT_EQ(results.at("attestation").at("signed_utc"), sig.statement.signed_utc);

  const CommandResult v = verify(pub());
  EXPECT_EQ(v.exit_code, 0) << v.output;
  EXPECT_EQ(last_line(v.output).rfind("OK: ", 0), 0u) << v.output;
  EXPECT_NE(last_line(v.output).find("signed by " + fingerprint), std::string::npos) << v.output;
  // Without --pubkey the bundle still checks, and says the key was not checked.
  const CommandResult plain = run_ptsuite_merged({"verify", run().string()});
  EXPECT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_NE(plain.output.find("key not checked"), std::string::npos) << plain.output;
}

TEST_F(SignCli, TamperedResultFailsWithOneLine) {
  ASSERT_EQ(sign().exit_code, 0);
  std::string text = read_file(run() / "results.json");
  text.replace(text.find("\"complete\""), 10, "\"COMPLETE\"");
  test_support::write_file(run() / "results.json", text);
  const CommandResult v = verify(pub());
  EXPECT_EQ(v.exit_code, 1) << v.output;
  EXPECT_NE(v.output.find("changed  results.json: content differs"), std::string::npos) << v.output;
  EXPECT_EQ(last_line(v.output).rfind("FAILED: 1 problem(s)", 0), 0u) << v.output;
  EXPECT_NE(last_line(v.output).find("since it was signed"), std::string::npos) << v.output;
}

TEST_F(SignCli, TamperedManifestFailsWithOneLine) {
  ASSERT_EQ(sign().exit_code, 0);
  test_support::write_file(run() / "notes.txt", "added after signing\n");
  (void)bundle::write_manifest(test_support::output_dir(run()));  // a forger's fresh manifest
  const CommandResult v = verify(pub());
  EXPECT_EQ(v.exit_code, 1) << v.output;
  EXPECT_EQ(last_line(v.output).rfind("FAILED: manifest changed:", 0), 0u) << v.output;
}

TEST_F(SignCli, WrongKeyFailsWithOneLine) {
  ASSERT_EQ(sign().exit_code, 0);
  const std::string other = m_temp.file("other.key");
  ASSERT_EQ(run_ptsuite_merged({"keygen", other}).exit_code, 0);
  const CommandResult v = verify(other + ".pub");
  EXPECT_EQ(v.exit_code, 1) << v.output;
  EXPECT_EQ(last_line(v.output).rfind("FAILED: wrong key: the bundle was signed by SHA256:", 0), 0u) << v.output;
}

TEST_F(SignCli, UnsignedBundleFailsOnlyWhenAKeyIsRequired) {
  EXPECT_EQ(run_ptsuite_merged({"verify", run().string()}).exit_code, 0);
  const CommandResult v = verify(pub());
  EXPECT_EQ(v.exit_code, 1) << v.output;
  EXPECT_EQ(last_line(v.output).rfind("FAILED: not signed", 0), 0u) << v.output;
}

TEST_F(SignCli, SigningAChangedBundleIsRefusedAndChangesNothing) {
  test_support::write_file(run() / "results.json", "{}");
  const std::string manifest = read_file(run() / std::string(bundle::k_manifest_file_name));
  const CommandResult s = sign();
  EXPECT_EQ(s.exit_code, 1) << s.output;
  EXPECT_NE(s.output.find("refusing to sign"), std::string::npos) << s.output;
  EXPECT_FALSE(fs::exists(run() / std::string(bundle::k_signature_file_name)));
  EXPECT_EQ(read_file(run() / std::string(bundle::k_manifest_file_name)), manifest);
}

// A signed run re-rendered later: the same text report gives the same bytes (still intact);
// new CSV files are not covered until the run is signed again, with the changes accepted.
TEST_F(SignCli, ReRenderingASignedRunIsCoveredOnlyAfterSigningAgain) {
  ASSERT_EQ(sign().exit_code, 0);
  const CommandResult text = run_ptsuite_merged({"report", run().string(), "--format", "text"});
  EXPECT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("is a signed bundle"), std::string::npos) << text.output;
  EXPECT_EQ(verify(pub()).exit_code, 0);
  ASSERT_EQ(run_ptsuite_merged({"report", run().string(), "--format", "csv"}).exit_code, 0);
  const CommandResult changed = verify(pub());
  EXPECT_EQ(changed.exit_code, 1) << changed.output;
  EXPECT_NE(changed.output.find("added    iops.csv"), std::string::npos) << changed.output;
  EXPECT_EQ(sign().exit_code, 1);  // not without saying so
  const CommandResult again = run_ptsuite_merged({"sign", run().string(), "--key", key(), "--accept-changes"});
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("accepting: added iops.csv"), std::string::npos) << again.output;
  EXPECT_EQ(verify(pub()).exit_code, 0);
}

TEST_F(SignCli, BadKeysAndExistingKeyFilesAreBadInput) {
  EXPECT_EQ(run_ptsuite_merged({"keygen", key()}).exit_code, 2);  // never overwritten
  EXPECT_EQ(run_ptsuite_merged({"sign", run().string(), "--key", pub()}).exit_code, 2);
  EXPECT_EQ(verify(m_temp.file("missing.pub")).exit_code, 2);
  EXPECT_EQ(verify(key()).exit_code, 2);  // a private key is not a public key file
}

}  // namespace
}  // namespace ptsuite
