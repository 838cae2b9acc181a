// ATA PASS-THROUGH(16) CDBs, ATA response parsing, SCSI CDBs/parsers and sense decoding,
// against fixtures written from ACS-3, SAT-3, SPC-4 and SBC-3.
#include <gtest/gtest.h>

#include <ptsuite/device/ata.hpp>
#include <ptsuite/device/scsi.hpp>
#include <ptsuite/util/error.hpp>
#include "unit/device/byte_fixture.hpp"
#include "unit/device/fake_passthrough.hpp"

namespace ptsuite::device {
namespace {

using testing::load_fixture;

TEST(AtaBuild, IdentifyDeviceCdb) {
  const auto cmd = ata::identify_device();
  ASSERT_EQ(cmd.cdb.size(), 16u);
  EXPECT_EQ(cmd.cdb[0], 0x85);
  EXPECT_EQ(cmd.cdb[1], 4 << 1);  // PIO Data-In, no EXTEND
  EXPECT_EQ(cmd.cdb[2], 0x0e);    // T_DIR in, BYTE_BLOCK, T_LENGTH=COUNT; no CK_COND on data commands
  EXPECT_EQ(cmd.cdb[6], 1);       // COUNT 1 block
  EXPECT_EQ(cmd.cdb[14], 0xec);
  EXPECT_EQ(cmd.data.size(), 512u);
  EXPECT_EQ(cmd.direction, DataDirection::from_device);
}

TEST(AtaBuild, LbaBytesAreInterleavedAsSat3Says) {
  const auto cmd = ata::read_log_ext(0x04, 0x0107);
  // LBA 7:0 log address (byte 8), 15:8 page low (byte 10), 47:32 page high -> 39:32 (byte 9).
  EXPECT_EQ(cmd.cdb[1] & 1, 1);
  EXPECT_EQ(cmd.cdb[8], 0x04);
  EXPECT_EQ(cmd.cdb[10], 0x07);
  EXPECT_EQ(cmd.cdb[9], 0x01);
  const auto blk = ata::sanitize(ata::SanitizeMethod::block_erase);
  EXPECT_EQ(blk.cdb[4], 0x12);
  // LBA 0000_426B_4572h: 7:0=72 (b8) 15:8=45 (b10) 23:16=6B (b12) 31:24=42 (b7)
  EXPECT_EQ(blk.cdb[8], 0x72);
  EXPECT_EQ(blk.cdb[10], 0x45);
  EXPECT_EQ(blk.cdb[12], 0x6b);
  EXPECT_EQ(blk.cdb[7], 0x42);
  const auto cry = ata::sanitize(ata::SanitizeMethod::crypto_scramble);
  EXPECT_EQ(cry.cdb[4], 0x11);
  EXPECT_EQ(cry.cdb[7], 0x43);
  const auto wc = ata::set_write_cache(false);
  EXPECT_EQ(wc.cdb[14], 0xef);
  EXPECT_EQ(wc.cdb[4], 0x82);
  EXPECT_EQ(wc.cdb[1], 3 << 1);  // non-data
}

TEST(AtaBuild, SecurityBlocksCarryPasswordAndEnhancedBit) {
  const auto erase = ata::security_erase_unit("secret", true, 5000);
  EXPECT_EQ(erase.cdb[14], 0xf4);
  EXPECT_EQ(erase.direction, DataDirection::to_device);
  EXPECT_EQ(erase.cdb[2] & 0x08, 0);  // T_DIR out
  EXPECT_EQ(erase.data[0], 0x02);     // enhanced, user password
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(erase.data.data() + 2), 6), "secret");
  EXPECT_EQ(erase.timeout_ms, 5000u);
  EXPECT_EQ(ata::security_disable_password("x").data[0], 0x00);
  EXPECT_THROW(ata::security_set_password(std::string(33, 'a')), UsageError);
}

TEST(AtaParse, IdentifyDevice) {
  const auto id = ata::parse_identify_device(load_fixture("ata_identify_device.fixture"));
  EXPECT_EQ(id.serial, "WD-WX12345678");
  EXPECT_EQ(id.firmware, "80.00A80");
  EXPECT_EQ(id.model, "PTSUITE TEST SATA SSD 512GB");
  EXPECT_EQ(id.sectors, 1000215216u);
  EXPECT_EQ(id.logical_sector_bytes, 512u);
  EXPECT_EQ(id.physical_sector_bytes, 4096u);
  EXPECT_EQ(id.rotation_rate, 1);
  EXPECT_TRUE(id.write_cache_supported);
  EXPECT_TRUE(id.write_cache_enabled);
  EXPECT_TRUE(id.trim_supported);
  EXPECT_TRUE(id.sanitize_supported && id.sanitize_block_erase && id.sanitize_crypto && id.sanitize_overwrite);
  EXPECT_EQ(id.wwn, 0x50000014ee123456ULL);
  EXPECT_TRUE(id.security.supported);
  EXPECT_FALSE(id.security.enabled);
  EXPECT_TRUE(id.security.frozen);
  EXPECT_TRUE(id.security.enhanced_erase_supported);
  EXPECT_EQ(id.security.erase_minutes, 4u);
  EXPECT_EQ(id.security.enhanced_erase_minutes, 10u);
  EXPECT_TRUE(id.checksum_valid);
  auto broken = load_fixture("ata_identify_device.fixture");
  broken[60] ^= 0xff;
  EXPECT_FALSE(ata::parse_identify_device(broken).checksum_valid);
}

TEST(AtaParse, SmartAttributes) {
  const auto attrs = ata::parse_smart_attributes(load_fixture("ata_smart_read_data.fixture"));
  ASSERT_EQ(attrs.size(), 3u);
  EXPECT_EQ(attrs[0].id, 9);
  EXPECT_EQ(attrs[0].raw, 4321u);
  EXPECT_EQ(attrs[2].id, 194);
  EXPECT_EQ(attrs[2].raw & 0xff, 36u);
  EXPECT_EQ(attrs[2].current, 0x24);
}

TEST(AtaParse, DecodeResultDescriptorAndFixedSense) {
  const auto ok = ata::decode_result(testing::ata_ok(0x8000, 0x1234));
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.outputs.count, 0x8000);
  EXPECT_EQ(ok.outputs.lba, 0x1234u);
  const auto sanitize = ata::parse_sanitize_status(ok);
  EXPECT_TRUE(sanitize.completed_ok);
  EXPECT_EQ(sanitize.progress, 0x1234);
  const auto abort = ata::decode_result(testing::ata_abort());
  EXPECT_FALSE(abort.ok());
  EXPECT_NE(abort.problem.find("ABORT"), std::string::npos);
  // Fixed format (SAT-3 fixed format sense data for ATA PASS-THROUGH): INFORMATION = error, status, device, count.
  ScsiResult fixed;
  fixed.status = 0x02;
  fixed.sense = {0x70, 0, 0x01, 0x00, 0x50, 0x40, 0x05, 0, 0x80, 0x00, 0x4f, 0xc2, 0x00, 0x1d, 0, 0, 0, 0};
  const auto f = ata::decode_result(fixed);
  EXPECT_TRUE(f.ok()) << f.problem;
  EXPECT_EQ(f.status, 0x50);
  EXPECT_EQ(f.outputs.count, 5);
  EXPECT_EQ(ata::smart_threshold_exceeded(f), std::optional<bool>(false));
  EXPECT_EQ(ata::erase_time_minutes(0x00ff), 510u);
  EXPECT_EQ(ata::erase_time_minutes(0x8100), 512u);
  EXPECT_EQ(ata::decode_result(ScsiResult{EINVAL, 0, 0, 0, {}, 0}).ok(), false);
}

TEST(ScsiParse, InquiryAndVpd) {
  const auto q = scsi::parse_inquiry(load_fixture("scsi_inquiry.fixture"));
  EXPECT_EQ(q.vendor, "SEAGATE");
  EXPECT_EQ(q.product, "XS800LE70084");
  EXPECT_EQ(q.revision, "0003");
  EXPECT_EQ(q.device_type, 0);
  EXPECT_EQ(scsi::parse_device_identifier(load_fixture("scsi_vpd_83.fixture")), "naa.5000c500a1b2c3d4");
  const std::vector<uint8_t> serial{0x00, 0x80, 0x00, 0x0a, ' ', ' ', 'Z', 'A', '1', '2', '3', '4', ' ', ' '};
  EXPECT_EQ(scsi::parse_unit_serial(serial), "ZA1234");
  const std::vector<uint8_t> pages{0x00, 0x00, 0x00, 0x03, 0x00, 0x80, 0x83};
  EXPECT_EQ(scsi::parse_supported_vpd_pages(pages), (std::vector<uint8_t>{0x00, 0x80, 0x83}));
}

TEST(ScsiParse, ReadCapacity16) {
  std::vector<uint8_t> d(32, 0);
  d[4] = 0x00;
  d[5] = 0x00;
  d[6] = 0xff;
  d[7] = 0xff;   // last LBA 65535
  d[10] = 0x10;  // 4096-byte blocks
  d[12] = 0x03;  // PROT_EN, P_TYPE 1 -> type 2
  d[13] = 0x00;
  d[14] = 0x80;
  const auto c = scsi::parse_read_capacity16(d);
  EXPECT_EQ(c.bytes(), 65536ULL * 4096);
  EXPECT_EQ(c.protection_type, 2);
  EXPECT_TRUE(c.thin_provisioned);
}

TEST(ScsiParse, CachingPageAndModeSelectParameters) {
  // MODE SENSE(10) response: header (8), one 8-byte block descriptor, caching page 08h.
  std::vector<uint8_t> d{0x00, 0x24, 0,    0,    0,    0,    0x00, 0x08, 0,    0, 0, 0,    0,
                         0,    0x02, 0x00, 0x88, 0x12, 0x04, 0,    0xff, 0xff, 0, 0, 0xff, 0xff,
                         0xff, 0xff, 0x80, 0x14, 0xff, 0xff, 0,    0,    0,    0, 0, 0,    0};
  const auto page = scsi::parse_caching_page(d);
  EXPECT_TRUE(page.write_cache_enabled);
  EXPECT_EQ(page.page_offset, 16u);
  const auto params = scsi::caching_select_parameters(page, false);
  ASSERT_EQ(params.size(), 8u + 20u);
  EXPECT_EQ(params[0], 0);
  EXPECT_EQ(params[1], 0);          // mode data length reserved in MODE SELECT
  EXPECT_EQ(params[8], 0x08);       // PS cleared
  EXPECT_EQ(params[10] & 0x04, 0);  // WCE cleared
  const auto cmd = scsi::mode_select10(params, false);
  EXPECT_EQ(cmd.cdb[0], 0x55);
  EXPECT_EQ(cmd.cdb[1], 0x10);  // PF, not SP
  EXPECT_EQ(cmd.cdb[8], params.size());
}

TEST(ScsiParse, LogPages) {
  const std::vector<uint8_t> temp{0x0d, 0, 0, 12, 0x00, 0x00, 0x03, 0x02, 0, 41, 0x00, 0x01, 0x03, 0x02, 0, 70};
  const auto t = scsi::parse_temperature_log(temp);
  EXPECT_EQ(t.current_celsius, 41);
  EXPECT_EQ(t.reference_celsius, 70);
  const std::vector<uint8_t> ssm{0x11, 0, 0, 8, 0x00, 0x01, 0x03, 0x04, 0, 0, 0, 12};
  EXPECT_EQ(scsi::parse_percentage_used(ssm), std::optional<uint8_t>(12));
  const std::vector<uint8_t> errs{0x03, 0, 0, 8, 0x00, 0x06, 0x02, 0x04, 0, 0, 0x01, 0x02};
  EXPECT_EQ(scsi::parse_uncorrected_errors(errs), std::optional<uint64_t>(0x0102));
  EXPECT_THROW(scsi::parse_temperature_log(ssm), SystemError);
}

TEST(ScsiSense, FixedWithProgressAndDescriptor) {
  std::vector<uint8_t> fixed(18, 0);
  fixed[0] = 0x70;
  fixed[2] = 0x02;
  fixed[12] = 0x04;
  fixed[13] = 0x1b;
  fixed[15] = 0x80;
  fixed[16] = 0x80;  // 8000h = 50 %
  const auto s = scsi::parse_sense(fixed);
  EXPECT_TRUE(s.valid);
  EXPECT_EQ(s.key, 2);
  EXPECT_EQ(s.progress, std::optional<uint16_t>(0x8000));
  EXPECT_EQ(scsi::describe_sense(s), "NOT READY, asc 04h ascq 1Bh (sanitize in progress)");
  const std::vector<uint8_t> desc{0x72, 0x05, 0x24, 0x00, 0, 0, 0, 0};
  EXPECT_EQ(scsi::describe_sense(scsi::parse_sense(desc)), "ILLEGAL REQUEST, asc 24h ascq 00h (invalid field in CDB)");
  EXPECT_FALSE(scsi::parse_sense({}).valid);
}

TEST(ScsiBuild, SanitizeFormatAndQueries) {
  const auto s = scsi::sanitize(scsi::SanitizeAction::block_erase);
  EXPECT_EQ(s.cdb[0], 0x48);
  EXPECT_EQ(s.cdb[1], 0x80 | 0x20 | 0x02);  // IMMED, AUSE, BLOCK ERASE
  const auto f = scsi::format_unit(0);
  EXPECT_EQ(f.cdb[0], 0x04);
  EXPECT_EQ(f.cdb[1], 0x10);                                          // FMTDATA, no protection
  EXPECT_EQ(f.data, (std::vector<uint8_t>{0x00, 0x02, 0x00, 0x00}));  // IMMED
  EXPECT_EQ(scsi::format_unit(1).cdb[1], 0x90);                       // FMTPINFO 10b: type 1
  EXPECT_EQ(scsi::read_capacity16().cdb[1], 0x10);
  const auto rsoc = scsi::report_supported_opcode(0x48, uint16_t{2});
  EXPECT_EQ(rsoc.cdb[2], 0x03);
  EXPECT_EQ(rsoc.cdb[3], 0x48);
  EXPECT_EQ(rsoc.cdb[5], 0x02);
  EXPECT_TRUE(scsi::parse_opcode_supported(std::vector<uint8_t>{0, 0x03}));
  EXPECT_FALSE(scsi::parse_opcode_supported(std::vector<uint8_t>{0, 0x01}));
}

}  // namespace
}  // namespace ptsuite::device
