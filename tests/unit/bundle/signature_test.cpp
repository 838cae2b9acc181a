// Ed25519 keys and bundle signatures (bundle/ed25519.hpp, bundle/signature.hpp): a signed
// bundle verifies with its key; a tampered result, a tampered manifest, an edited signature and
// a wrong key each fail with their own status and a one-line reason.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/bundle/ed25519.hpp>
#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/bundle/signature.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/sha256.hpp>
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::bundle {
namespace {

namespace fs = std::filesystem;

using test_support::write_file;

class SignatureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(dir() / "results.json", "{\"iops\": 11746}\n");
    write_file(dir() / "journal" / "run.json", "{\"seed\": 1}\n");
    write_file(dir() / "report.html", "<html>IOPS 11746</html>\n");
    (void)write_manifest(test_support::output_dir(dir()));
  }
  [[nodiscard]] fs::path dir() const { return m_temp.path() + "/bundle"; }
  [[nodiscard]] fs::path manifest() const { return dir() / std::string(k_manifest_file_name); }
  [[nodiscard]] fs::path signature_path() const { return dir() / std::string(k_signature_file_name); }
  SignatureFile sign() {
    return sign_bundle(test_support::output_dir(dir()), m_key, "ACME Lab", "2026-11-21T18:19:00Z");
  }

  test_support::ShmTempDir m_temp{"ptsuite-signature"};
  SigningKey m_key = SigningKey::generate();
};

TEST_F(SignatureTest, SignedBundleVerifiesWithItsKeyAndBindsWhatItMust) {
  const SignatureFile file = sign();
  const SignatureStatement& s = file.statement;
  EXPECT_EQ(s.manifest_file, k_manifest_file_name);
  EXPECT_EQ(s.manifest_file_sha256, sha256_file_hex(manifest()));
  EXPECT_EQ(s.key_fingerprint, m_key.public_key().fingerprint());
  EXPECT_EQ(s.signed_utc, "2026-11-21T18:19:00Z");
  EXPECT_EQ(s.tested_by, "ACME Lab");
  EXPECT_FALSE(s.ptsuite_version.empty());
  const SignatureCheck check = check_signature(dir(), &m_key.public_key());
  EXPECT_TRUE(check.valid()) << check.reason;
  EXPECT_TRUE(check.key_trusted);
  // The signature file is not part of the bundle's file list.
  EXPECT_TRUE(verify_manifest(dir()).intact());
}

TEST_F(SignatureTest, TamperedResultIsAFileProblemUnderAValidSignature) {
  (void)sign();
  write_file(dir() / "results.json", "{\"iops\": 99999}\n");
  EXPECT_TRUE(check_signature(dir(), &m_key.public_key()).valid());  // the manifest is untouched
  const VerifyReport report = verify_manifest(dir());
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems[0].kind, Problem::changed);
  EXPECT_EQ(report.problems[0].path, "results.json");
}

TEST_F(SignatureTest, RewrittenManifestFailsTheSignature) {
  (void)sign();
  // What a forger does: change a result and write a fresh, self-consistent manifest.
  write_file(dir() / "results.json", "{\"iops\": 99999}\n");
  (void)write_manifest(test_support::output_dir(dir()));
  EXPECT_TRUE(verify_manifest(dir()).intact());
  const SignatureCheck check = check_signature(dir(), &m_key.public_key());
  EXPECT_EQ(check.status, SignatureStatus::manifest_changed);
  EXPECT_NE(check.reason.find("manifest changed"), std::string::npos) << check.reason;
  EXPECT_EQ(check.reason.find('\n'), std::string::npos);
}

TEST_F(SignatureTest, WrongKeyIsNamedWithBothFingerprints) {
  (void)sign();
  const SigningKey other = SigningKey::generate();
  const SignatureCheck check = check_signature(dir(), &other.public_key());
  EXPECT_EQ(check.status, SignatureStatus::wrong_key);
  EXPECT_NE(check.reason.find(m_key.public_key().fingerprint()), std::string::npos) << check.reason;
  EXPECT_NE(check.reason.find(other.public_key().fingerprint()), std::string::npos) << check.reason;
}

TEST_F(SignatureTest, EditedStatementOrSwappedKeyFailsTheSignature) {
  (void)sign();
  const std::string original = read_file(signature_path());
  // Claim another tester: the signature no longer covers the statement.
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(original);
  j["statement"]["tested_by"] = "Someone Else";
  write_file(signature_path(), j.dump(2));
  EXPECT_EQ(check_signature(dir(), &m_key.public_key()).status, SignatureStatus::bad_signature);
  // Re-sign the edited statement with another key but keep the original fingerprint claim:
  // without --pubkey the embedded key does not match the fingerprint it claims.
  const SigningKey forger = SigningKey::generate();
  SignatureFile forged = parse_signature(original, "sig");
  forged.statement.tested_by = "Someone Else";
  forged.signature = forger.sign(canonical_statement(forged.statement));
  forged.public_key_pem = forger.public_key().pem();
  write_file(signature_path(), serialize_signature(forged));
  EXPECT_EQ(check_signature(dir(), nullptr).status, SignatureStatus::bad_signature);
  EXPECT_EQ(check_signature(dir(), &m_key.public_key()).status, SignatureStatus::bad_signature);
}

TEST_F(SignatureTest, UnsignedAndMalformedSignatures) {
  EXPECT_EQ(check_signature(dir(), &m_key.public_key()).status, SignatureStatus::unsigned_bundle);
  write_file(signature_path(), "{not json");
  EXPECT_THROW((void)check_signature(dir(), nullptr), UsageError);
  write_file(signature_path(), "{\"statement\": {}, \"signature\": \"\", \"public_key_pem\": \"\"}");
  EXPECT_THROW((void)check_signature(dir(), nullptr), UsageError);
  fs::remove(manifest());
  EXPECT_THROW((void)sign(), UsageError);
}

TEST_F(SignatureTest, StatementWithUnknownFieldsIsMalformed) {
  (void)sign();
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(read_file(signature_path()));
  j["statement"]["extra"] = "x";
  EXPECT_THROW((void)parse_signature(j.dump(), "sig"), UsageError);
}

TEST(Ed25519Keys, PemFilesRoundTripWithModesAndAreNeverOverwritten) {
  const test_support::ShmTempDir temp("ptsuite-keys");
  const fs::path key = fs::path(temp.path()) / "lab.key";
  const fs::path pub = fs::path(temp.path()) / "lab.pub";
  const SigningKey generated = SigningKey::generate();
  write_key_files(generated, test_support::output_path(key), test_support::output_path(pub));
  struct stat st {};
  ASSERT_EQ(::stat(key.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(read_file(key).rfind("-----BEGIN PRIVATE KEY-----", 0), 0u);
  EXPECT_EQ(read_file(pub).rfind("-----BEGIN PUBLIC KEY-----", 0), 0u);
  const SigningKey loaded = SigningKey::load(key);
  const PublicKey loaded_pub = PublicKey::load(pub);
  EXPECT_EQ(loaded.public_key().fingerprint(), generated.public_key().fingerprint());
  EXPECT_EQ(loaded_pub.fingerprint(), generated.public_key().fingerprint());
  EXPECT_EQ(loaded.public_key().fingerprint().rfind("SHA256:", 0), 0u);
  EXPECT_EQ(loaded.public_key().fingerprint().size(), 7u + 64u);
  const std::vector<uint8_t> signature = loaded.sign("message");
  EXPECT_TRUE(loaded_pub.verify("message", signature));
  EXPECT_FALSE(loaded_pub.verify("messagE", signature));
  EXPECT_THROW(write_key_files(SigningKey::generate(), test_support::output_path(key),
                               test_support::output_path(fs::path(temp.path()) / "other.pub")),
               UsageError);
  EXPECT_THROW((void)SigningKey::load(pub), UsageError);  // a public key is not a private key
  EXPECT_THROW((void)PublicKey::load(fs::path(temp.path()) / "missing.pub"), UsageError);
}

// The fingerprint is what `openssl pkey -pubin -outform DER | sha256sum` prints, and keys made
// by `openssl genpkey` load (skipped where the openssl tool is not installed).
TEST(Ed25519Keys, InteroperatesWithTheOpensslTool) {
  if (std::system("command -v openssl >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "the openssl command-line tool is not installed";
  }
  const test_support::ShmTempDir temp("ptsuite-keys");
  const std::string key = temp.file("openssl.key");
  ASSERT_EQ(std::system(("openssl genpkey -algorithm ed25519 -out " + key + " 2>/dev/null").c_str()), 0);
  const SigningKey loaded = SigningKey::load(key);
  const std::string der = temp.file("pub.der");
  ASSERT_EQ(std::system(("openssl pkey -in " + key + " -pubout -outform DER -out " + der).c_str()), 0);
  EXPECT_EQ(loaded.public_key().fingerprint(), "SHA256:" + sha256_file_hex(der));
}

TEST(Base64, RoundTripsAndRejectsNonCanonicalText) {
  for (size_t n = 0; n < 70; ++n) {
    std::vector<uint8_t> bytes(n);
    for (size_t i = 0; i < n; ++i) {
      bytes[i] = static_cast<uint8_t>(i * 37 + 11);
    }
    std::vector<uint8_t> back;
    const std::string text = base64_encode(bytes);
    EXPECT_EQ(text.size() % 4, 0u);
    if (n > 0) {
      ASSERT_TRUE(base64_decode(text, back)) << text;
      EXPECT_EQ(back, bytes);
    }
  }
  std::vector<uint8_t> out;
  EXPECT_EQ(base64_encode({'f', 'o', 'o', 'b'}), "Zm9vYg==");  // RFC 4648 §10
  EXPECT_FALSE(base64_decode("Zm9vYg=", out));
  EXPECT_FALSE(base64_decode("Zm9vYh==", out));  // non-zero pad bits: not canonical
  EXPECT_FALSE(base64_decode("Zm9v!g==", out));
  EXPECT_FALSE(base64_decode("====", out));
}

}  // namespace
}  // namespace ptsuite::bundle
