// NVMe builders and parsers against hand-written fixtures (tests/data/device/nvme_*.fixture).
#include <gtest/gtest.h>

#include <ptsuite/device/nvme.hpp>
#include <ptsuite/util/error.hpp>
#include "unit/device/byte_fixture.hpp"

namespace ptsuite::device::nvme {
namespace {

using testing::load_fixture;

TEST(NvmeParse, IdentifyController) {
  const auto c = parse_identify_controller(load_fixture("nvme_identify_controller.fixture"));
  EXPECT_EQ(c.pci_vendor_id, 0x144d);
  EXPECT_EQ(c.serial, "S4EWNX0R123456");
  EXPECT_EQ(c.model, "PTSUITE TEST NVME SSD 1TB");
  EXPECT_EQ(c.firmware, "2B2QEXM7");
  EXPECT_TRUE(c.format_supported());
  EXPECT_TRUE(c.crypto_erase_supported());
  EXPECT_FALSE(c.format_applies_to_all_namespaces());
  EXPECT_TRUE(c.sanitize_block_erase());
  EXPECT_TRUE(c.sanitize_crypto_erase());
  EXPECT_FALSE(c.sanitize_overwrite());
  EXPECT_TRUE(c.volatile_write_cache_present());
  EXPECT_EQ(c.wctemp_kelvin, 358);
  EXPECT_EQ(c.cctemp_kelvin, 361);
  EXPECT_EQ(c.tnvmcap_low, 1000204886016ULL);
}

TEST(NvmeParse, IdentifyNamespaceAndCurrentFormat) {
  const auto ns = parse_identify_namespace(load_fixture("nvme_identify_namespace.fixture"));
  ASSERT_EQ(ns.lba_formats.size(), 3u);
  EXPECT_EQ(ns.lba_formats[0].data_bytes, 512u);
  EXPECT_EQ(ns.lba_formats[0].relative_performance, 2);
  EXPECT_EQ(ns.lba_formats[2].metadata_bytes, 8);
  EXPECT_EQ(ns.current_format_index(), 1);
  ASSERT_TRUE(ns.current_format());
  EXPECT_EQ(ns.current_format()->data_bytes, 4096u);
  EXPECT_EQ(ns.size_blocks, 244190646u);
}

TEST(NvmeParse, FlbasUpperBitsSelectFormatsAbove15) {
  // NVMe 2.0: FLBAS bits 6:5 are the upper bits of the format index.
  IdentifyNamespace ns;
  ns.flbas = 0x20 | 0x03;  // upper 01b, lower 0011b -> 19
  EXPECT_EQ(ns.current_format_index(), 19);
}

TEST(NvmeParse, SmartLog) {
  const auto s = parse_smart_log(load_fixture("nvme_smart_log.fixture"));
  EXPECT_EQ(s.critical_warning, 0x02);
  EXPECT_EQ(s.composite_temperature_kelvin, 318);
  EXPECT_EQ(s.percentage_used, 7);
  EXPECT_EQ(s.media_errors, 3u);
  EXPECT_EQ(s.power_on_hours, 4321u);
  EXPECT_EQ(s.warning_temperature_minutes, 17u);
  EXPECT_EQ(s.sensor_kelvin, (std::vector<uint16_t>{320, 316}));
  EXPECT_EQ(s.thermal_transitions_1, 5u);
  EXPECT_EQ(critical_warning_flags(s.critical_warning), (std::vector<std::string>{"temperature_threshold"}));
}

TEST(NvmeParse, SanitizeStatus) {
  std::vector<uint8_t> log(512, 0);
  log[0] = 0x00;
  log[1] = 0x40;  // SPROG 4000h = 25 %
  log[2] = 0x02;  // SSTAT: in progress
  log[3] = 0x01;  // global data erased
  const auto s = parse_sanitize_status(log);
  EXPECT_EQ(s.state, SanitizeState::in_progress);
  EXPECT_DOUBLE_EQ(s.fraction(), 0.25);
  EXPECT_TRUE(s.global_data_erased);
}

TEST(NvmeParse, ShortBufferThrows) {
  std::vector<uint8_t> short_buf(100, 0);
  EXPECT_THROW(parse_identify_controller(short_buf), SystemError);
  EXPECT_THROW(parse_smart_log(short_buf), SystemError);
}

TEST(NvmeBuild, FormatKeepsCurrentFormatAndSetsSes) {
  auto ns = parse_identify_namespace(load_fixture("nvme_identify_namespace.fixture"));
  const auto cmd = format_nvm(1, ns, SecureErase::user_data, 1000);
  EXPECT_EQ(cmd.opcode, 0x80);
  EXPECT_EQ(cmd.nsid, 1u);
  EXPECT_EQ(cmd.cdw[0] & 0xf, 1u);         // LBAF 1 kept
  EXPECT_EQ((cmd.cdw[0] >> 9) & 0x7, 1u);  // SES 1
  EXPECT_EQ((cmd.cdw[0] >> 4) & 0x1, 0u);  // MSET
  EXPECT_EQ(cmd.timeout_ms, 1000u);
  // Metadata, protection and an index above 15 are carried over too.
  ns.flbas = 0x10 | 0x40 | 0x02;  // extended metadata, upper bits 10b, lower 2 -> index 34
  ns.dps = 0x08 | 0x01;           // PI type 1, first 8 bytes
  const auto c2 = format_nvm(7, ns, SecureErase::cryptographic, 0);
  EXPECT_EQ(c2.cdw[0] & 0xf, 2u);
  EXPECT_EQ((c2.cdw[0] >> 12) & 0x3, 2u);  // LBAFU
  EXPECT_EQ((c2.cdw[0] >> 4) & 0x1, 1u);   // MSET
  EXPECT_EQ((c2.cdw[0] >> 5) & 0x7, 1u);   // PI
  EXPECT_EQ((c2.cdw[0] >> 8) & 0x1, 1u);   // PIL
  EXPECT_EQ((c2.cdw[0] >> 9) & 0x7, 2u);   // SES 2
}

TEST(NvmeBuild, FormatWithoutEraseIsRefused) {
  const auto ns = parse_identify_namespace(load_fixture("nvme_identify_namespace.fixture"));
  EXPECT_THROW(format_nvm(1, ns, SecureErase::none, 0), UsageError);
}

TEST(NvmeBuild, SanitizeAndLogAndFeatures) {
  const auto s = sanitize(SanitizeAction::block_erase);
  EXPECT_EQ(s.opcode, 0x84);
  EXPECT_EQ(s.cdw[0] & 0x7, 2u);
  EXPECT_EQ(s.cdw[0] & 0x8, 0x8u);  // AUSE
  const auto o = sanitize(SanitizeAction::overwrite, 3, 0xdeadbeef);
  EXPECT_EQ((o.cdw[0] >> 4) & 0xf, 3u);
  EXPECT_EQ(o.cdw[1], 0xdeadbeefu);
  const auto log = get_log_page(k_log_smart, k_nsid_all, 512);
  EXPECT_EQ(log.cdw[0], 0x02u | (127u << 16));  // NUMDL = 128 dwords - 1
  EXPECT_EQ(log.data.size(), 512u);
  EXPECT_EQ(log.direction, DataDirection::from_device);
  const auto set = set_features(k_feature_volatile_write_cache, 0, false);
  EXPECT_EQ(set.cdw[0], 0x06u);
  EXPECT_EQ(set.cdw[1], 0u);
  EXPECT_EQ(identify_controller().cdw[0], 1u);
  EXPECT_EQ(identify_namespace(3).nsid, 3u);
}

}  // namespace
}  // namespace ptsuite::device::nvme
