// Run ids and the identity a run's target was named by (src/pts/run_identity.hpp).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/host_boot.hpp>
#include "pts/run_identity.hpp"

namespace ptsuite::pts::detail {
namespace {

nlohmann::json loop_identity(const std::string& medium) {
  return {{"transport", "loop"},
          {"model", "Linux loop device"},
          {"serial", nullptr},
          {"medium", medium},
          {"capacity_bytes", 67108864}};
}

TEST(RunUid, TheIdTakesTheMediumTheHostAndANonce) {
  const nlohmann::json a = loop_identity("loop backing file st_dev 1 st_ino 10 offset 0");
  const std::string uid = make_run_uid(a, "h1", "00112233445566778899aabbccddeeff");
  EXPECT_EQ(uid.size(), 32u);
  EXPECT_EQ(uid, make_run_uid(a, "h1", "00112233445566778899aabbccddeeff")) << "a function of its inputs";
  EXPECT_NE(uid, make_run_uid(a, "h1", "ffeeddccbbaa99887766554433221100")) << "the nonce";
  EXPECT_NE(uid, make_run_uid(a, "h2", "00112233445566778899aabbccddeeff")) << "the host";
  EXPECT_NE(uid, make_run_uid(loop_identity("loop backing file st_dev 1 st_ino 11 offset 0"), "h1",
                              "00112233445566778899aabbccddeeff"))
      << "the medium";
  EXPECT_EQ(random_hex(16).size(), 32u);
  EXPECT_NE(random_hex(16), random_hex(16));
}

device::DeviceIdentity drive(const std::string& serial) {
  device::DeviceIdentity id;
  id.path = "/dev/nvme0n1";
  id.transport = device::Transport::nvme;
  id.serial = serial;
  return id;
}

TEST(RunUid, SerialTargetsImplyTheSerialCheckAndConfirmThePurge) {
  const device::ResolvedTarget named{"/dev/nvme0n1", "S4X1NE0M123456", true, false};
  RunConfig config;
  device::DeviceIdentity id = drive("S4X1NE0M123456");
  EXPECT_EQ(check_named_identity(named, id, config), std::optional<std::string>("S4X1NE0M123456"));
  device::DeviceIdentity other = drive("S4X1NE0M999999");
  EXPECT_THROW((void)check_named_identity(named, other, config), SafetyRefusal);
  config.confirm_serial = "S4X1NE0M000000";
  EXPECT_THROW((void)check_named_identity(named, id, config), UsageError) << "--confirm-serial contradicts the name";
  // By path: --confirm-serial as given, nothing implied.
  RunConfig plain;
  device::DeviceIdentity by_path = drive("S4X1NE0M123456");
  EXPECT_EQ(check_named_identity({"/dev/nvme0n1", "", false, false}, by_path, plain), std::nullopt);
}

TEST(RunUid, AssetSerialsNameOnlyDevicesWithoutOne) {
  RunConfig config;
  config.asset_serial = "LAB-0042";
  device::DeviceIdentity blank = drive("");
  (void)check_named_identity({"/dev/loop3", "", false, false}, blank, config);
  EXPECT_EQ(blank.asset_serial, "LAB-0042");
  device::DeviceIdentity reporting = drive("S4X1NE0M123456");
  EXPECT_THROW((void)check_named_identity({"/dev/nvme0n1", "", false, false}, reporting, config), UsageError);
  // Through the registry: the device must still report none (else it was replaced).
  RunConfig none;
  device::DeviceIdentity registry_blank = drive("");
  (void)check_named_identity({"/dev/loop3", "LAB-0007", true, true}, registry_blank, none);
  EXPECT_EQ(registry_blank.asset_serial, "LAB-0007");
  device::DeviceIdentity registry_replaced = drive("NEWDRIVE");
  EXPECT_THROW((void)check_named_identity({"/dev/loop3", "LAB-0007", true, true}, registry_replaced, none),
               SafetyRefusal);
  EXPECT_THROW((void)check_named_identity({"/dev/loop3", "LAB-0007", true, true}, registry_blank, config), UsageError)
      << "--asset-serial other than the registry's";
}

}  // namespace
}  // namespace ptsuite::pts::detail
