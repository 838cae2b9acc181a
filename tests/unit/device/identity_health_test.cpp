// Identity (sysfs and pass-through), write cache, health snapshots, the throttle monitor and
// platform capture, against fake sysfs trees and simulated devices.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <ptsuite/device/health.hpp>
#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/platform.hpp>
#include <ptsuite/device/write_cache.hpp>
#include <ptsuite/results/record_writers.hpp>
#include <ptsuite/util/error.hpp>
#include "unit/device/byte_fixture.hpp"
#include "unit/device/fake_passthrough.hpp"
#include "unit/device/fake_system_tree.hpp"

namespace ptsuite::device {
namespace {

using testing::FakeAtaDrive;
using testing::FakeNvme;
using testing::FakePassthrough;
using testing::FakeSystemTree;
using testing::load_fixture;

const char* const k_nvme_parent = "pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0";

TEST(IdentitySysfs, NvmeNamespaceAttributes) {
  FakeSystemTree tree;
  const auto dir = tree.add_disk("nvme0n1", 259, 0, k_nvme_parent);
  const auto rel = std::filesystem::relative(dir, tree.root()).string();
  tree.write(rel + "/size", "1953525168\n");
  tree.write(rel + "/nsid", "1\n");
  tree.write(rel + "/queue/logical_block_size", "512\n");
  tree.write(rel + "/queue/scheduler", "[none] mq-deadline\n");
  tree.write(rel + "/queue/discard_max_bytes", "2199023255040\n");
  tree.write(rel + "/queue/rotational", "0\n");
  tree.write(rel + "/device/model", "Samsung SSD 980 PRO 1TB                 \n");
  tree.write(rel + "/device/serial", "S5GXNX0R000000\n");
  tree.write(rel + "/device/firmware_rev", "5B2QGXA7\n");
  const auto id = identify_from_sysfs("/dev/nvme0n1", "nvme0n1", tree.roots());
  EXPECT_EQ(id.transport, Transport::nvme);
  EXPECT_EQ(id.model, "Samsung SSD 980 PRO 1TB");
  EXPECT_EQ(id.serial, "S5GXNX0R000000");
  EXPECT_EQ(id.firmware, "5B2QGXA7");
  EXPECT_EQ(id.capacity_bytes, 1953525168ULL * 512);
  EXPECT_EQ(id.nvme_nsid, 1u);
  EXPECT_EQ(id.queue.scheduler, "none");
  EXPECT_TRUE(id.purge.discard);
  EXPECT_EQ(id.rotational, std::optional<bool>(false));
  EXPECT_EQ(id.pci_address, "0000:3d:00.0");
  EXPECT_TRUE(id.is_real_drive());
}

TEST(IdentitySysfs, LoopAndZram) {
  FakeSystemTree tree;
  tree.add_disk("loop4", 7, 4);
  tree.write("sys/devices/virtual/block/loop4/loop/backing_file", "/dev/shm/x.img\n");
  tree.write("sys/devices/virtual/block/loop4/loop/dio", "1\n");
  tree.write("sys/devices/virtual/block/loop4/size", "2048\n");
  const auto loop = identify_from_sysfs("/dev/loop4", "loop4", tree.roots());
  EXPECT_EQ(loop.transport, Transport::loop);
  EXPECT_EQ(loop.backing_file, "/dev/shm/x.img");
  EXPECT_EQ(loop.direct_io, std::optional<bool>(true));
  EXPECT_EQ(loop.capacity_bytes, 1048576u);
  EXPECT_FALSE(loop.is_real_drive());
  tree.add_disk("zram1", 253, 1);
  tree.write("sys/devices/virtual/block/zram1/comp_algorithm", "lzo lzo-rle [lz4]\n");
  tree.write("sys/devices/virtual/block/zram1/disksize", "1073741824\n");
  const auto zram = identify_from_sysfs("/dev/zram1", "zram1", tree.roots());
  EXPECT_EQ(zram.transport, Transport::zram);
  EXPECT_EQ(zram.compression_algorithm, "lz4");
  EXPECT_EQ(zram.disksize_bytes, std::optional<uint64_t>(1073741824));
  const nlohmann::json j = zram;
  EXPECT_EQ(j["zram"]["compression_algorithm"], "lz4");
  EXPECT_EQ(j["transport"], "zram");
}

TEST(IdentitySysfs, SataDiskIsAta) {
  FakeSystemTree tree;
  const auto dir = tree.add_disk("sdb", 8, 16, "pci0000:00/0000:00:17.0/ata2/host1/target1:0:0/1:0:0:0");
  const auto rel = std::filesystem::relative(dir, tree.root()).string();
  tree.write(rel + "/device/vendor", "ATA     \n");
  std::filesystem::create_directories(dir / "device" / "scsi_device");
  EXPECT_EQ(identify_from_sysfs("/dev/sdb", "sdb", tree.roots()).transport, Transport::ata);
}

TEST(IdentityPassthrough, NvmeIdentifyFillsIdentityAndCapabilities) {
  FakePassthrough fake;
  FakeNvme drive;
  drive.identify_controller = load_fixture("nvme_identify_controller.fixture");
  drive.identify_namespace = load_fixture("nvme_identify_namespace.fixture");
  drive.features_06h = 0;
  drive.install(fake);
  DeviceIdentity base;
  base.path = "/dev/nvme0n1";
  base.transport = Transport::nvme;
  base.nvme_nsid = 1;
  const auto id = identify_via(fake, base);
  EXPECT_EQ(id.source, "nvme-identify");
  EXPECT_EQ(id.serial, "S4EWNX0R123456");
  EXPECT_EQ(id.model, "PTSUITE TEST NVME SSD 1TB");
  ASSERT_TRUE(id.lba_format_in_use);
  EXPECT_EQ(id.lba_format_in_use->index, 1u);
  EXPECT_EQ(id.logical_block_bytes, 4096u);
  EXPECT_EQ(id.capacity_bytes, 244190646ULL * 4096);
  EXPECT_EQ(id.lba_formats.size(), 3u);
  EXPECT_TRUE(id.purge.nvme_sanitize_block);
  EXPECT_TRUE(id.purge.nvme_format_crypto);
  EXPECT_FALSE(id.purge.nvme_sanitize_overwrite);
  EXPECT_EQ(id.write_cache_present, std::optional<bool>(true));
  EXPECT_EQ(id.write_cache_enabled, std::optional<bool>(false));
  EXPECT_EQ(id.warning_temperature_kelvin, std::optional<uint32_t>(358));
  // Only read-only commands were used.
  for (const auto& cmd : fake.nvme_sent) EXPECT_TRUE(nvme_admin_is_read_only(cmd));
}

TEST(IdentityPassthrough, FailureFallsBackToSysfsWithANote) {
  FakePassthrough fake;  // answers ENOTTY like a loop device
  DeviceIdentity base;
  base.transport = Transport::nvme;
  base.serial = "from-sysfs";
  const auto id = identify_via(fake, base);
  EXPECT_EQ(id.serial, "from-sysfs");
  ASSERT_FALSE(id.notes.empty());
  EXPECT_NE(id.notes[0].find("Identify Controller failed"), std::string::npos);
}

TEST(IdentityPassthrough, AtaIdentifyReportsSecurityAndSanitize) {
  FakePassthrough fake;
  FakeAtaDrive drive;
  drive.identify = load_fixture("ata_identify_device.fixture");
  drive.frozen = true;
  drive.install(fake);
  DeviceIdentity base;
  base.transport = Transport::ata;
  const auto id = identify_via(fake, base);
  EXPECT_EQ(id.serial, "WD-WX12345678");
  EXPECT_EQ(id.capacity_bytes, 1000215216ULL * 512);
  ASSERT_TRUE(id.ata_security);
  EXPECT_TRUE(id.ata_security->frozen);
  EXPECT_TRUE(id.purge.ata_enhanced_erase);
  EXPECT_TRUE(id.purge.ata_sanitize_block);
  EXPECT_EQ(id.rotational, std::optional<bool>(false));
  EXPECT_EQ(id.identifier, "naa.50000014ee123456");
  for (const auto& cmd : fake.scsi_sent) EXPECT_TRUE(scsi_is_read_only(cmd));
}

TEST(WriteCache, NvmeSessionAppliesAndRestores) {
  FakePassthrough fake;
  FakeNvme drive;
  drive.features_06h = 1;
  drive.install(fake);
  DeviceIdentity id;
  id.transport = Transport::nvme;
  id.write_cache_present = true;
  WriteCacheRecord record;
  {
    WriteCacheSession session(fake, id, false);  // PTS-E: WCD
    EXPECT_EQ(drive.features_06h, 0u);
    EXPECT_EQ(session.record().original.enabled, std::optional<bool>(true));
    EXPECT_EQ(session.record().applied.enabled, std::optional<bool>(false));
    record = session.record();
  }
  EXPECT_EQ(drive.features_06h, 1u);  // restored on destruction
  const auto& set = fake.nvme_sent[1];
  EXPECT_EQ(set.opcode, 0x09);
  EXPECT_EQ(set.cdw[0], 0x06u);  // FID 06h, SV=0: never saved
  const nlohmann::json j = record;
  EXPECT_EQ(j["original"]["enabled"], true);
}

TEST(WriteCache, AtaSetFeaturesAndNotApplicable) {
  FakePassthrough fake;
  FakeAtaDrive drive;
  drive.identify = load_fixture("ata_identify_device.fixture");
  drive.install(fake);
  DeviceIdentity id;
  id.transport = Transport::ata;
  {
    WriteCacheSession session(fake, id, false);
    EXPECT_EQ(session.record().applied.enabled, std::optional<bool>(false));
    session.restore();
    ASSERT_TRUE(session.record().restored);
    EXPECT_EQ(session.record().restored->enabled, std::optional<bool>(true));
  }
  DeviceIdentity loop;
  loop.transport = Transport::loop;
  FakePassthrough untouched;
  WriteCacheSession session(untouched, loop, false);
  EXPECT_FALSE(session.record().original.applicable);
  EXPECT_NE(session.record().original.note.find("not applicable"), std::string::npos);
  EXPECT_TRUE(untouched.nvme_sent.empty() && untouched.scsi_sent.empty());
  EXPECT_THROW(set_write_cache(untouched, loop, true), UsageError);
}

TEST(Health, NvmeSnapshotAndThrottleMonitor) {
  FakePassthrough fake;
  FakeNvme drive;
  drive.smart_log = load_fixture("nvme_smart_log.fixture");
  drive.install(fake);
  DeviceIdentity id;
  id.transport = Transport::nvme;
  id.warning_temperature_kelvin = 358;
  id.critical_temperature_kelvin = 361;
  const auto s = read_health(fake, id);
  EXPECT_EQ(s.source, "nvme-smart-log");
  EXPECT_NEAR(*s.temperature_celsius, 44.85, 1e-9);
  EXPECT_NEAR(*s.temperature_kelvin(), 318.0, 1e-9);
  EXPECT_NEAR(*s.warning_threshold_celsius, 84.85, 1e-9);
  EXPECT_EQ(s.percentage_used, std::optional<uint32_t>(7));
  EXPECT_EQ(s.media_errors, std::optional<uint64_t>(3));
  EXPECT_EQ(s.critical_warning_flags, (std::vector<std::string>{"temperature_threshold"}));
  const nlohmann::json j = s;
  EXPECT_EQ(j["percentage_used"], 7);

  ThrottleMonitor monitor;
  HealthSnapshot cool;
  cool.source = "ata-smart";
  cool.temperature_celsius = 60;
  cool.warning_threshold_celsius = 70;
  EXPECT_FALSE(monitor.observe(cool));
  HealthSnapshot hot = cool;
  hot.temperature_celsius = 71;
  EXPECT_TRUE(monitor.observe(hot));
  EXPECT_FALSE(monitor.observe(cool));
  EXPECT_TRUE(monitor.throttled());  // sticky for the run
  EXPECT_EQ(monitor.max_temperature_celsius(), std::optional<double>(71));
  ASSERT_EQ(monitor.events().size(), 1u);
  EXPECT_NE(monitor.events()[0].find("snapshot 2"), std::string::npos);
  ThrottleMonitor counters;
  HealthSnapshot a;
  a.warning_temperature_minutes = 5;
  a.thermal_transitions = 0;
  EXPECT_FALSE(counters.observe(a));
  a.thermal_transitions = 3;
  EXPECT_TRUE(counters.observe(a));
}

TEST(Health, AtaSmartAndNoneForLoop) {
  FakePassthrough fake;
  FakeAtaDrive drive;
  drive.identify = load_fixture("ata_identify_device.fixture");
  drive.smart_data = load_fixture("ata_smart_read_data.fixture");
  drive.install(fake);
  DeviceIdentity id;
  id.transport = Transport::ata;
  const auto s = read_health(fake, id);
  EXPECT_EQ(s.temperature_celsius, std::optional<double>(36));
  EXPECT_EQ(s.media_errors, std::optional<uint64_t>(2));
  EXPECT_EQ(s.critical_warning, std::optional<uint32_t>(0));
  DeviceIdentity loop;
  loop.transport = Transport::loop;
  EXPECT_EQ(read_health(fake, loop).source, "none");
}

TEST(Platform, FakeTreeGivesCpuMemoryOsAndPcieLink) {
  FakeSystemTree tree;
  tree.write("proc/cpuinfo",
             "processor\t: 0\nmodel name\t: Test CPU @ 3.0GHz\n\nprocessor\t: 1\nmodel name\t: Test CPU @ 3.0GHz\n");
  tree.write("proc/meminfo", "MemTotal:       16384000 kB\nMemFree:         1000 kB\n");
  tree.write("proc/sys/kernel/osrelease", "6.1.0-test\n");
  tree.write("etc/os-release", "NAME=\"Debian\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n");
  const auto dir = tree.add_disk("nvme0n1", 259, 0, k_nvme_parent);
  tree.write("sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/current_link_speed", "16.0 GT/s PCIe\n");
  tree.write("sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/current_link_width", "4\n");
  tree.write("sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/max_link_width", "4\n");
  tree.write("sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/numa_node", "1\n");
  tree.write(std::filesystem::relative(dir, tree.root()).string() + "/queue/scheduler", "[none] mq-deadline\n");
  const auto p = capture_platform_for_kernel_name("nvme0n1", tree.roots());
  EXPECT_EQ(p.cpu_model, "Test CPU @ 3.0GHz");
  EXPECT_EQ(p.cpu_count, 2u);
  EXPECT_EQ(p.memory_bytes, 16384000ULL * 1024);
  EXPECT_EQ(p.kernel_release, "6.1.0-test");
  EXPECT_EQ(p.distribution, "Debian GNU/Linux 12 (bookworm)");
  ASSERT_TRUE(p.pcie);
  EXPECT_EQ(p.pcie->pci_address, "0000:3d:00.0");
  EXPECT_EQ(p.pcie->current_speed, "16.0 GT/s PCIe");
  EXPECT_EQ(p.pcie->current_width, std::optional<uint32_t>(4));
  EXPECT_EQ(p.numa_node, std::optional<int>(1));
  EXPECT_EQ(p.io_scheduler, "none");
  EXPECT_FALSE(p.ptsuite_version.empty());
  const nlohmann::json j = p;
  EXPECT_EQ(j["pcie"]["current_link_width"], 4);
}

// The identity and the platform as results.json records them, written by the results records'
// writers (results/record_writers.hpp) from device_record() / platform_record(): byte for byte
// what the device module's own writers wrote before (the expected texts are their output), and
// read back by the results readers into the same text.
DeviceIdentity pinned_nvme_identity() {
  DeviceIdentity n;
  n.path = "/dev/nvme0n1";
  n.canonical_path = "/dev/nvme0n1";
  n.kernel_name = "nvme0n1";
  n.device_path = "/dev/nvme0";
  n.transport = Transport::nvme;
  n.source = "nvme-identify";
  n.vendor = "V";
  n.model = "M";
  n.serial = "S";
  n.firmware = "F";
  n.identifier = "eui.1";
  n.asset_serial = "A1";
  n.capacity_bytes = uint64_t{1} << 40;
  n.logical_block_bytes = 4096;
  n.physical_block_bytes = 4096;
  n.rotational = false;
  n.nvme_nsid = 1;
  n.lba_format_in_use = LbaFormatInfo{1, 4096, 0, 0};
  n.lba_formats = {{0, 512, 0, 2}, {1, 4096, 8, 0}};
  n.protection_type = 1;
  n.warning_temperature_kelvin = 343;
  n.write_cache_present = true;
  n.write_cache_enabled = false;
  n.purge.nvme_format = true;
  n.purge.scsi_sanitize = false;
  n.purge.discard = true;
  n.queue.scheduler = "none";
  n.queue.nr_requests = 1023;
  n.queue.discard_max_bytes = uint64_t{1} << 32;
  n.queue.write_cache = "write back";
  n.pci_address = "0000:01:00.0";
  n.notes = {"a", "b"};
  return n;
}

TEST(IdentityJson, TheRecordWriterWritesWhatTheDeviceWriterWrote) {
  const DeviceIdentity nvme = pinned_nvme_identity();
  DeviceIdentity ata = nvme;
  ata.transport = Transport::ata;
  ata.ata_security = AtaSecurity{true, false, false, true, false, true, 2, 4};
  ata.purge.scsi_format_unit = true;
  DeviceIdentity loop;
  loop.transport = Transport::loop;
  loop.path = "/x";
  loop.medium = "file st_dev 1 st_ino 2";
  loop.backing_file = "/b";
  loop.direct_io = true;
  loop.backing_offset_bytes = 5;
  loop.compression_algorithm = "lz4";  // not a zram device: not written
  const std::pair<DeviceIdentity, const char*> cases[] = {
      {nvme, R"({"asset_serial":"A1","canonical_path":"/dev/nvme0n1","capacity_bytes":1099511627776,"device_path":"/dev/nvme0","firmware":"F","identifier":"eui.1","is_partition":false,"kernel_name":"nvme0n1","logical_block_bytes":4096,"model":"M","notes":["a","b"],"nvme":{"critical_temperature_kelvin":null,"lba_format_in_use":{"data_bytes":4096,"index":1,"metadata_bytes":0,"relative_performance":0},"lba_formats":[{"data_bytes":512,"index":0,"metadata_bytes":0,"relative_performance":2},{"data_bytes":4096,"index":1,"metadata_bytes":8,"relative_performance":0}],"nsid":1,"protection_type":1,"warning_temperature_kelvin":343},"path":"/dev/nvme0n1","pci_address":"0000:01:00.0","physical_block_bytes":4096,"purge_capabilities":{"ata_enhanced_security_erase":false,"ata_sanitize_block_erase":false,"ata_sanitize_crypto_scramble":false,"ata_sanitize_overwrite":false,"ata_security_erase":false,"discard":true,"nvme_format":true,"nvme_format_all_namespaces":false,"nvme_format_crypto_erase":false,"nvme_sanitize_block_erase":false,"nvme_sanitize_crypto_erase":false,"nvme_sanitize_overwrite":false,"scsi_format_unit":null,"scsi_sanitize":false},"queue":{"discard_max_bytes":4294967296,"max_hw_sectors_kb":null,"max_sectors_kb":null,"nr_requests":1023,"scheduler":"none","write_cache":"write back"},"real_drive":true,"rotational":false,"serial":"S","source":"nvme-identify","transport":"nvme","vendor":"V","write_cache":{"enabled":false,"present":true}})"}, {ata, R"({"asset_serial":"A1","ata_security":{"count_expired":false,"enabled":false,"enhanced_erase_minutes":4,"enhanced_erase_supported":true,"erase_minutes":2,"frozen":true,"locked":false,"supported":true},"canonical_path":"/dev/nvme0n1","capacity_bytes":1099511627776,"device_path":"/dev/nvme0","firmware":"F","identifier":"eui.1","is_partition":false,"kernel_name":"nvme0n1","logical_block_bytes":4096,"model":"M","notes":["a","b"],"path":"/dev/nvme0n1","pci_address":"0000:01:00.0","physical_block_bytes":4096,"purge_capabilities":{"ata_enhanced_security_erase":false,"ata_sanitize_block_erase":false,"ata_sanitize_crypto_scramble":false,"ata_sanitize_overwrite":false,"ata_security_erase":false,"discard":true,"nvme_format":true,"nvme_format_all_namespaces":false,"nvme_format_crypto_erase":false,"nvme_sanitize_block_erase":false,"nvme_sanitize_crypto_erase":false,"nvme_sanitize_overwrite":false,"scsi_format_unit":true,"scsi_sanitize":false},"queue":{"discard_max_bytes":4294967296,"max_hw_sectors_kb":null,"max_sectors_kb":null,"nr_requests":1023,"scheduler":"none","write_cache":"write back"},"real_drive":true,"rotational":false,"serial":"S","source":"nvme-identify","transport":"ata","vendor":"V","write_cache":{"enabled":false,"present":true}})"}, {loop, R"({"canonical_path":"","capacity_bytes":0,"device_path":null,"firmware":null,"identifier":null,"is_partition":false,"kernel_name":null,"logical_block_bytes":0,"loop":{"backing_file":"/b","direct_io":true,"offset_bytes":5},"medium":"file st_dev 1 st_ino 2","model":null,"notes":[],"path":"/x","pci_address":null,"physical_block_bytes":0,"purge_capabilities":{"ata_enhanced_security_erase":false,"ata_sanitize_block_erase":false,"ata_sanitize_crypto_scramble":false,"ata_sanitize_overwrite":false,"ata_security_erase":false,"discard":false,"nvme_format":false,"nvme_format_all_namespaces":false,"nvme_format_crypto_erase":false,"nvme_sanitize_block_erase":false,"nvme_sanitize_crypto_erase":false,"nvme_sanitize_overwrite":false,"scsi_format_unit":null,"scsi_sanitize":null},"queue":{"discard_max_bytes":null,"max_hw_sectors_kb":null,"max_sectors_kb":null,"nr_requests":null,"scheduler":null,"write_cache":null},"real_drive":false,"rotational":null,"serial":null,"source":"","transport":"loop","vendor":null,"write_cache":{"enabled":null,"present":null}})"}};
  for (const auto& [id, expected] : cases) {
    const nlohmann::json j = id;
    EXPECT_EQ(j.dump(), expected);
    EXPECT_EQ(nlohmann::json(results::read_device_record(j)).dump(), expected);
  }
  PlatformInfo p;
  p.cpu_model = "c";
  p.cpu_count = 4;
  p.memory_bytes = 1 << 30;
  p.kernel_release = "6";
  p.ptsuite_version = "1";
  p.pcie = PcieLink{"0000:01:00.0", "16.0 GT/s PCIe", "", 4, std::nullopt};
  p.numa_node = -1;
  p.io_scheduler = "none";
  const nlohmann::json platform = p;
  EXPECT_EQ(
      platform.dump(),
      R"({"cpu_count":4,"cpu_model":"c","device":null,"distribution":null,"io_scheduler":"none","kernel_release":"6","kernel_version":null,"machine":null,"memory_bytes":1073741824,"numa_node":-1,"pcie":{"current_link_speed":"16.0 GT/s PCIe","current_link_width":4,"max_link_speed":null,"max_link_width":null,"pci_address":"0000:01:00.0"},"ptsuite_git_revision":"","ptsuite_version":"1"})");
  EXPECT_EQ(nlohmann::json(results::read_platform_record(platform)).dump(), platform.dump());
}

TEST(Passthrough, ReadOnlyAllowList) {
  EXPECT_TRUE(nvme_admin_is_read_only(nvme::identify_controller()));
  EXPECT_TRUE(nvme_admin_is_read_only(nvme::get_log_page(2, 0xffffffff, 512)));
  EXPECT_FALSE(nvme_admin_is_read_only(nvme::sanitize(nvme::SanitizeAction::block_erase)));
  EXPECT_FALSE(nvme_admin_is_read_only(nvme::set_features(6, 0, false)));
  EXPECT_TRUE(scsi_is_read_only(ata::identify_device()));
  EXPECT_TRUE(scsi_is_read_only(ata::sanitize_status()));
  EXPECT_FALSE(scsi_is_read_only(ata::sanitize(ata::SanitizeMethod::block_erase)));
  EXPECT_FALSE(scsi_is_read_only(ata::security_erase_prepare()));
  EXPECT_FALSE(scsi_is_read_only(ata::set_write_cache(true)));
  EXPECT_FALSE(scsi_is_read_only(ScsiCommand{{0x04, 0x10, 0, 0, 0, 0}, DataDirection::none, {}, 0}));
  EXPECT_FALSE(scsi_is_read_only(ScsiCommand{{0x48, 0x82, 0, 0, 0, 0, 0, 0, 0, 0}, DataDirection::none, {}, 0}));
  EXPECT_FALSE(scsi_is_read_only(ScsiCommand{{0x9e, 0x11}, DataDirection::from_device, {}, 0}));
  EXPECT_EQ(describe_nvme_status(0x4002), "Invalid Field in Command (SCT 0h SC 02h, DNR)");
}

}  // namespace
}  // namespace ptsuite::device
