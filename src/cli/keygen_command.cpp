// `ptsuite keygen KEY [--pubkey PUB]`: creates an Ed25519 key pair for `ptsuite sign`
// (bundle/ed25519.hpp): KEY (private, PKCS#8 PEM, mode 0600) and PUB (default KEY.pub,
// SubjectPublicKeyInfo PEM), and prints the key's fingerprint. Never overwrites a file (exit 2).
#include <fmt/format.h>
#include <memory>
#include <string>

#include <ptsuite/bundle/ed25519.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/util/error.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/path_roles.hpp"

namespace ptsuite::cli {

namespace {

struct KeygenOptions {
  std::string key;
  std::string pubkey;
};

int run_keygen(const KeygenOptions& o) {
  const std::string pub = o.pubkey.empty() ? o.key + ".pub" : o.pubkey;
  if (pub == o.key) {
    throw UsageError("--pubkey", "must differ from the private key file");
  }
  device::OutputGate gate("keygen");
  const OutputPath private_path = gate.file(o.key, "KEY");
  const OutputPath public_path = gate.file(pub, "--pubkey");
  const bundle::SigningKey key = bundle::SigningKey::generate();
  bundle::write_key_files(key, private_path, public_path);
  fmt::print("private key: {} (keep it secret: anyone holding it can sign bundles in your name)\n", o.key);
  fmt::print("public key:  {} (give it to whoever verifies: ptsuite verify DIR --pubkey {})\n", pub, pub);
  fmt::print("fingerprint: {}\n", key.public_key().fingerprint());
  return static_cast<int>(ExitCode::success);
}

}  // namespace

void register_keygen_command(CLI::App& app, CommandSlot& slot) {
  auto o = std::make_shared<KeygenOptions>();
  CLI::App* command = app.add_subcommand("keygen", "Create an Ed25519 key pair for signing bundles (ptsuite sign)");
  command->add_option("KEY", o->key, "Private key file to create (PEM, mode 0600)")
      ->check(paths::output_file())
      ->required();
  add_shared_option(command, "--pubkey", o->pubkey, "Public key file to create (default: KEY.pub)")
      ->check(paths::output_file());
  command->callback([o, &slot] { slot.action = [o] { return run_keygen(*o); }; });
}

}  // namespace ptsuite::cli
