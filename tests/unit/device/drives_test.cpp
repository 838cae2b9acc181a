// The host's drives, the asset registry and serial:SERIAL targets (device/drives.hpp) over a
// fake sysfs / udev / by-id tree: what `device list`, `--target serial:` and `fleet inventory`
// see.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <ptsuite/device/drives.hpp>
#include <ptsuite/util/error.hpp>
#include "unit/device/fake_system_tree.hpp"

namespace ptsuite::device {
namespace {

using testing::FakeSystemTree;

const char* const k_controller0 = "pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0";
const char* const k_controller1 = "pci0000:00/0000:00:1d.0/0000:3e:00.0/nvme/nvme1";
const char* const k_ahci = "pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0";

// A host with: nvme0n1 (serial in sysfs, a by-id link), nvme1n1 + nvme1n2 (one controller, one
// serial), sda (SATA, serial only in udev's database, partition sda1 mounted at /), loop3 (over
// a file, no serial), loop5 (unbound), dm-0 (not a drive).
class DrivesTree : public ::testing::Test {
 protected:
  void SetUp() override {
    add_nvme("nvme0n1", 0, k_controller0, "S5GXNX0R000001");
    add_nvme("nvme1n1", 1, k_controller1, "PM9A3-SHARED");
    add_nvme("nvme1n2", 2, k_controller1, "PM9A3-SHARED");
    const auto sda = tree.add_disk("sda", 8, 0, k_ahci);
    tree.write(rel(sda) + "/size", "8192\n");
    tree.write(rel(sda) + "/device/vendor", "ATA\n");
    tree.write(rel(sda) + "/device/model", "SATA SSD 860\n");
    std::filesystem::create_directories(sda / "device" / "scsi_device");
    tree.add_partition(rel(sda), "sda1", 8, 1, 1);
    tree.add_mount(8, 1, "/", "/dev/sda1");
    tree.write("run/udev/data/b8:0", "S:disk/by-id/ata-SATA_SSD_860_S3Z9NB0K123\nE:ID_SERIAL_SHORT=S3Z9NB0K123\n");
    const auto loop3 = tree.add_disk("loop3", 7, 3);
    tree.write(rel(loop3) + "/loop/backing_file", "/dev/shm/ptsuite-fleet-drive.img\n");
    tree.write(rel(loop3) + "/size", "2048\n");
    tree.add_disk("loop5", 7, 5);
    tree.add_disk("dm-0", 253, 0);
    std::filesystem::create_directories(tree.root() / "dev/disk/by-id");
    link_by_id("nvme-Samsung_SSD_980_S5GXNX0R000001", "nvme0n1");
    link_by_id("nvme-eui.0025385b11b0a1b2", "nvme0n1");
    link_by_id("ata-SATA_SSD_860_S3Z9NB0K123", "sda");
    options.roots = tree.roots();
    options.udev_data_dir = (tree.root() / "run/udev/data").string();
    options.assets_path = (tree.root() / "etc/ptsuite/assets").string();
    options.identify = false;  // no pass-through in a fake tree
  }

  std::string rel(const std::filesystem::path& p) const { return std::filesystem::relative(p, tree.root()).string(); }

  void add_nvme(const std::string& name, unsigned minor, const std::string& controller, const std::string& serial) {
    const auto dir = tree.add_disk(name, 259, minor, controller);
    tree.write(rel(dir) + "/size", "2000\n");
    tree.write(rel(dir) + "/device/serial", serial + "      \n");
    tree.write(rel(dir) + "/device/model", "SAMSUNG MZQL23T8HCLS\n");
    tree.write(rel(dir) + "/device/firmware_rev", "GDC5602Q\n");
  }
  void link_by_id(const std::string& link, const std::string& name) const {
    std::filesystem::create_symlink("../../" + name, tree.root() / "dev/disk/by-id" / link);
  }
  const DriveEntry* find(const std::vector<DriveEntry>& drives, const std::string& name) const {
    for (const DriveEntry& d : drives) {
      if (d.kernel_name == name) return &d;
    }
    return nullptr;
  }

  FakeSystemTree tree;
  DriveListOptions options;
};

TEST_F(DrivesTree, ListsWholeDrivesWithTheirSerialFromSysfsOrUdev) {
  const std::vector<DriveEntry> drives = list_drives(options);
  std::vector<std::string> names;
  for (const DriveEntry& d : drives) names.push_back(d.kernel_name);
  EXPECT_EQ(names, (std::vector<std::string>{"loop3", "nvme0n1", "nvme1n1", "nvme1n2", "sda"}));
  const DriveEntry* nvme = find(drives, "nvme0n1");
  ASSERT_NE(nvme, nullptr);
  EXPECT_EQ(nvme->serial, "S5GXNX0R000001");
  EXPECT_EQ(nvme->serial_source, "sysfs");
  EXPECT_EQ(nvme->model, "SAMSUNG MZQL23T8HCLS");
  EXPECT_EQ(nvme->firmware, "GDC5602Q");
  EXPECT_EQ(nvme->pci_slot, "0000:3d:00.0");
  EXPECT_EQ(nvme->by_id, (tree.root() / "dev/disk/by-id/nvme-Samsung_SSD_980_S5GXNX0R000001").string())
      << "the link naming the serial, not the EUI one";
  EXPECT_TRUE(nvme->refused.empty());
  const DriveEntry* sata = find(drives, "sda");
  ASSERT_NE(sata, nullptr);
  EXPECT_EQ(sata->transport, Transport::ata);
  EXPECT_EQ(sata->serial, "S3Z9NB0K123");
  EXPECT_EQ(sata->serial_source, "udev");
  EXPECT_NE(sata->refused.find("sda1 backs the root filesystem"), std::string::npos) << sata->refused;
  const DriveEntry* loop = find(drives, "loop3");
  ASSERT_NE(loop, nullptr);
  EXPECT_TRUE(loop->serial.empty());
  EXPECT_EQ(loop->backing_file, "/dev/shm/ptsuite-fleet-drive.img");
}

TEST_F(DrivesTree, TheAssetRegistryNamesOnlyDevicesWithoutASerial) {
  tree.write("etc/ptsuite/assets",
             "# lab assets\nLAB-LOOP-0003  /dev/loop3\nLAB-NVME-0000 /dev/nvme0n1   # has its own serial\n"
             "LAB-GONE /dev/loop9\n");
  const std::vector<DriveEntry> drives = list_drives(options);
  EXPECT_EQ(find(drives, "loop3")->asset_serial, "LAB-LOOP-0003");
  EXPECT_EQ(find(drives, "loop3")->effective_serial(), "LAB-LOOP-0003");
  const DriveEntry* nvme = find(drives, "nvme0n1");
  EXPECT_TRUE(nvme->asset_serial.empty());
  EXPECT_EQ(nvme->effective_serial(), "S5GXNX0R000001");
  ASSERT_EQ(nvme->notes.size(), 1u);
  EXPECT_NE(nvme->notes[0].find("ignored"), std::string::npos);
}

TEST_F(DrivesTree, AMalformedRegistryLineIsBadInputNamingItsLine) {
  tree.write("etc/ptsuite/assets", "LAB-1 /dev/loop3\nLAB-2\n");
  try {
    (void)list_drives(options);
    FAIL() << "accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
  tree.write("etc/ptsuite/assets", "LAB:1 /dev/loop3\n");
  EXPECT_THROW((void)list_drives(options), UsageError);
}

TEST_F(DrivesTree, SerialTargetsResolveExactlyThenNormalized) {
  tree.write("etc/ptsuite/assets", "LAB-LOOP-0003 /dev/loop3\n");
  const ResolvedTarget nvme = resolve_target("serial:S5GXNX0R000001", options);
  EXPECT_EQ(nvme.path, (tree.root() / "dev/nvme0n1").string());
  EXPECT_TRUE(nvme.by_serial);
  EXPECT_FALSE(nvme.asset);
  const ResolvedTarget loop = resolve_target("serial:LAB-LOOP-0003", options);
  EXPECT_EQ(loop.path, (tree.root() / "dev/loop3").string());
  EXPECT_TRUE(loop.asset);
  // A plain path passes through untouched.
  const ResolvedTarget plain = resolve_target("/dev/nvme0n1", options);
  EXPECT_EQ(plain.path, "/dev/nvme0n1");
  EXPECT_FALSE(plain.by_serial);
}

TEST_F(DrivesTree, AnAbsentOrAmbiguousSerialIsRefused) {
  try {
    (void)resolve_target("serial:NOSUCHDRIVE", options);
    FAIL() << "an absent serial resolved";
  } catch (const SafetyRefusal& e) {
    EXPECT_NE(std::string(e.what()).find("no drive on this host"), std::string::npos) << e.what();
  }
  try {
    (void)resolve_target("serial:PM9A3-SHARED", options);
    FAIL() << "an ambiguous serial resolved";
  } catch (const SafetyRefusal& e) {
    EXPECT_NE(std::string(e.what()).find("nvme1n1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("nvme1n2"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)resolve_target("serial:", options), UsageError);
}

TEST(DriveSerials, NormalizedForSlurm) {
  EXPECT_EQ(normalize_serial("  S4X1 NE0M:12,3  "), "S4X1_NE0M_12_3");
  EXPECT_EQ(normalize_serial("PHLJ123-400G.A_b"), "PHLJ123-400G.A_b");
  EXPECT_EQ(serial_of_target("serial:ABC"), std::optional<std::string>("ABC"));
  EXPECT_EQ(serial_of_target("/dev/sda"), std::nullopt);
}

TEST_F(DrivesTree, TheJsonRecordNamesEveryField) {
  const nlohmann::json j = list_drives(options);
  ASSERT_TRUE(j.is_array());
  for (const char* key : {"path", "kernel_name", "transport", "serial", "serial_source", "asset_serial", "model",
                          "firmware", "capacity_bytes", "by_id", "pci_slot", "refused", "notes"}) {
    EXPECT_TRUE(j[0].contains(key)) << key;
  }
}

}  // namespace
}  // namespace ptsuite::device
