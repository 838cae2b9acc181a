// Purge methods against simulated NVMe / ATA / SCSI devices (fake_passthrough.hpp): the
// commands actually built (SES, kept LBA format), sanitize polling, ATA password cleanup on
// every failure, frozen refusal, fallbacks and method choice. No device is touched.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <ptsuite/device/purge.hpp>
#include <ptsuite/util/error.hpp>
#include "unit/device/byte_fixture.hpp"
#include "unit/device/fake_passthrough.hpp"

namespace ptsuite::device {
namespace {

using testing::FakeAtaDrive;
using testing::FakeClock;
using testing::FakeNvme;
using testing::FakePassthrough;
using testing::load_fixture;

DeviceIdentity nvme_identity() {
  DeviceIdentity id;
  id.path = "/dev/nvme9n1";
  id.transport = Transport::nvme;
  id.nvme_nsid = 1;
  id.serial = "S4EWNX0R123456";
  id.purge.nvme_format = true;
  id.purge.nvme_format_crypto = true;
  id.purge.nvme_sanitize_block = true;
  id.purge.nvme_sanitize_crypto = true;
  return id;
}

DeviceIdentity ata_identity() {
  DeviceIdentity id;
  id.path = "/dev/sdz";
  id.transport = Transport::ata;
  id.purge.ata_security_erase = true;
  id.purge.ata_enhanced_erase = true;
  id.purge.ata_sanitize_block = true;
  id.ata_security = AtaSecurity{true, false, false, false, false, true, 4, 10};
  return id;
}

struct NvmeRig {
  FakePassthrough fake;
  FakeNvme drive;
  FakeClock clock;
  NvmeRig() {
    drive.identify_controller = load_fixture("nvme_identify_controller.fixture");
    drive.identify_namespace = load_fixture("nvme_identify_namespace.fixture");
    drive.install(fake);
  }
};

TEST(PurgeNvme, FormatUsesSes1AndKeepsTheCurrentLbaFormat) {
  NvmeRig rig;
  PurgeOptions opts;
  opts.method = PurgeMethod::nvme_format;
  const auto rec = purge_via(rig.fake, nvme_identity(), opts, rig.clock.clock());
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded) << rec.messages.back();
  ASSERT_EQ(rig.fake.nvme_opcodes(), (std::vector<uint8_t>{0x06, 0x80}));  // Identify NS, then Format
  const auto& format = rig.fake.nvme_sent[1];
  EXPECT_EQ((format.cdw[0] >> 9) & 0x7, 1u);  // SES=1, never 0
  EXPECT_EQ(format.cdw[0] & 0xf, 1u);         // LBAF 1 (the namespace's current one), not 0
  EXPECT_EQ(format.nsid, 1u);
  EXPECT_GT(format.timeout_ms, 0u);
  EXPECT_TRUE(rec.pts_compliant);
  EXPECT_EQ(rec.parameters.lbaf, 1u);
  EXPECT_EQ(rec.parameters.ses, 1u);
  EXPECT_EQ(nlohmann::json(rec.parameters).at("lbaf"), "1");
}

TEST(PurgeNvme, FormatCryptoEraseAndRefusals) {
  NvmeRig rig;
  PurgeOptions opts;
  opts.method = PurgeMethod::nvme_format;
  opts.nvme_secure_erase_setting = 2;
  EXPECT_EQ(purge_via(rig.fake, nvme_identity(), opts, rig.clock.clock()).outcome, PurgeOutcome::succeeded);
  EXPECT_EQ((rig.fake.nvme_sent.back().cdw[0] >> 9) & 0x7, 2u);
  opts.nvme_secure_erase_setting = 0;
  EXPECT_THROW(purge_via(rig.fake, nvme_identity(), opts, rig.clock.clock()), UsageError);
  auto no_crypto = nvme_identity();
  no_crypto.purge.nvme_format_crypto = false;
  opts.nvme_secure_erase_setting = 2;
  const size_t sent = rig.fake.nvme_sent.size();
  EXPECT_THROW(purge_via(rig.fake, no_crypto, opts, rig.clock.clock()), UsageError);
  EXPECT_EQ(rig.fake.nvme_sent.size(), sent);  // refused before anything was sent
}

TEST(PurgeNvme, FormatFailureIsRecorded) {
  NvmeRig rig;
  rig.drive.format_status = 0x010a;  // Invalid Format
  PurgeOptions opts;
  opts.method = PurgeMethod::nvme_format;
  const auto rec = purge_via(rig.fake, nvme_identity(), opts, rig.clock.clock());
  EXPECT_EQ(rec.outcome, PurgeOutcome::failed);
  EXPECT_NE(rec.messages.back().find("Invalid Format"), std::string::npos);
}

TEST(PurgeNvme, SanitizePollsProgressUntilComplete) {
  NvmeRig rig;
  // Before: never sanitized; then in progress 3 times (25/50/75 %), then completed.
  rig.drive.sanitize_log = {{0, 0}, {0x4000, 2}, {0x8000, 2}, {0xc000, 2}, {0xffff, 1}};
  PurgeOptions opts;
  opts.method = PurgeMethod::nvme_sanitize_block;
  std::vector<double> seen;
  opts.on_progress = [&](const PurgeProgress& p) { seen.push_back(p.fraction); };
  const auto rec = purge_via(rig.fake, nvme_identity(), opts, rig.clock.clock());
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded);
  EXPECT_EQ(seen, (std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0}));
  EXPECT_EQ(rig.clock.sleeps, 4);
  const auto& sanitize = rig.fake.nvme_sent[1];
  EXPECT_EQ(sanitize.opcode, 0x84);
  EXPECT_EQ(sanitize.cdw[0] & 0x7, 2u);  // block erase
  EXPECT_EQ(rec.progress.size(), 5u);
  EXPECT_TRUE(rec.pts_compliant);
}

TEST(PurgeNvme, SanitizeFailureAndTimeoutAndBusy) {
  {
    NvmeRig rig;
    rig.drive.sanitize_log = {{0, 0}, {0x1000, 2}, {0, 3}};
    PurgeOptions opts;
    opts.method = PurgeMethod::nvme_sanitize_crypto;
    const auto rec = purge_via(rig.fake, nvme_identity(), opts, rig.clock.clock());
    EXPECT_EQ(rec.outcome, PurgeOutcome::failed);
    EXPECT_NE(rec.messages.back().find("failure mode"), std::string::npos);
    EXPECT_EQ(rig.fake.nvme_sent[1].cdw[0] & 0x7, 4u);  // crypto erase
  }
  {
    NvmeRig rig;
    rig.drive.sanitize_log = {{0, 0}, {0x1000, 2}};  // stays in progress forever
    PurgeOptions opts;
    opts.method = PurgeMethod::nvme_sanitize_block;
    opts.timeout_ns = 10'000'000'000ULL;  // 10 s of fake time, 1 s polls
    const auto rec = purge_via(rig.fake, nvme_identity(), opts, rig.clock.clock());
    EXPECT_EQ(rec.outcome, PurgeOutcome::timed_out);
    EXPECT_EQ(rig.clock.sleeps, 10);
  }
  {
    NvmeRig rig;
    rig.drive.sanitize_log = {{0x1000, 2}};
    PurgeOptions opts;
    opts.method = PurgeMethod::nvme_sanitize_block;
    const auto rec = purge_via(rig.fake, nvme_identity(), opts, rig.clock.clock());
    EXPECT_EQ(rec.outcome, PurgeOutcome::failed);
    EXPECT_EQ(rig.fake.nvme_opcodes(), (std::vector<uint8_t>{0x02}));  // no Sanitize sent
  }
}

struct AtaRig {
  FakePassthrough fake;
  FakeAtaDrive drive;
  FakeClock clock;
  AtaRig() {
    drive.identify = load_fixture("ata_identify_device.fixture");
    drive.install(fake);
  }
  PurgeRecord run(PurgeMethod m = PurgeMethod::ata_security_erase) {
    PurgeOptions opts;
    opts.method = m;
    return purge_via(fake, ata_identity(), opts, clock.clock());
  }
};

TEST(PurgeAta, FrozenDriveIsRefusedWithAdviceAndNothingIsSet) {
  AtaRig rig;
  rig.drive.frozen = true;
  try {
    rig.run();
    FAIL() << "not refused";
  } catch (const SafetyRefusal& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("frozen"), std::string::npos);
    EXPECT_NE(what.find("suspend"), std::string::npos);
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
  EXPECT_EQ(rig.fake.ata_commands(), (std::vector<uint8_t>{0xec}));  // only IDENTIFY
}

TEST(PurgeAta, LockedOrPasswordSetIsRefused) {
  AtaRig locked;
  locked.drive.enabled = locked.drive.locked = true;
  EXPECT_THROW(locked.run(), SafetyRefusal);
  AtaRig enabled;
  enabled.drive.enabled = true;
  EXPECT_THROW(enabled.run(), SafetyRefusal);
  EXPECT_EQ(enabled.fake.ata_commands(), (std::vector<uint8_t>{0xec}));
}

TEST(PurgeAta, SecurityEraseSucceedsAndLeavesNoPassword) {
  AtaRig rig;
  const auto rec = rig.run();
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded) << rec.messages.back();
  EXPECT_EQ(rig.fake.ata_commands(), (std::vector<uint8_t>{0xec, 0xf1, 0xec, 0xf3, 0xf4, 0xec}));
  EXPECT_EQ(rig.drive.passwords_seen, (std::vector<std::string>{std::string(k_ata_temporary_password)}));
  EXPECT_EQ(rig.drive.erase_enhanced_flags, (std::vector<bool>{true}));
  EXPECT_FALSE(rig.drive.enabled);
  EXPECT_EQ(rec.parameters.password, k_ata_temporary_password);
  EXPECT_NE(rec.messages.front().find("hdparm --user-master u --security-disable"), std::string::npos);
}

TEST(PurgeAta, PasswordLeftByTheEraseIsDisabled) {
  AtaRig rig;
  rig.drive.erase_leaves_password = true;
  const auto rec = rig.run();
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded);
  EXPECT_EQ(rig.fake.ata_commands().back(), 0xec);
  EXPECT_FALSE(rig.drive.enabled);
  const auto cmds = rig.fake.ata_commands();
  EXPECT_NE(std::find(cmds.begin(), cmds.end(), 0xf6), cmds.end());  // DISABLE PASSWORD sent
}

TEST(PurgeAta, FailedEraseDisablesThePasswordAndSaysSo) {
  AtaRig rig;
  rig.drive.erase_fails = true;
  const auto rec = rig.run();
  EXPECT_EQ(rec.outcome, PurgeOutcome::failed);
  EXPECT_FALSE(rig.drive.enabled);
  const auto cmds = rig.fake.ata_commands();
  EXPECT_NE(std::find(cmds.begin(), cmds.end(), 0xf6), cmds.end());
  EXPECT_NE(rec.messages.back().find("temporary password removed"), std::string::npos);
  EXPECT_NE(rec.parameters.final_security_state.find("disabled"), std::string::npos);
}

TEST(PurgeAta, WhenCleanupFailsTheRecordNamesStateAndPassword) {
  AtaRig rig;
  rig.drive.erase_fails = true;
  rig.drive.disable_fails = true;
  const auto rec = rig.run();
  EXPECT_EQ(rec.outcome, PurgeOutcome::failed);
  EXPECT_TRUE(rig.drive.enabled);
  const std::string& last = rec.messages.back();
  EXPECT_NE(last.find("STILL HAS USER PASSWORD 'ptsuite-purge'"), std::string::npos) << last;
  EXPECT_NE(last.find("ENABLED"), std::string::npos);
}

TEST(PurgeAta, LockedAfterFailureIsUnlockedThenDisabled) {
  AtaRig rig;
  rig.drive.erase_fails = true;
  rig.fake.on_scsi = [&, inner = rig.fake.on_scsi](ScsiCommand& cmd) {
    if (cmd.cdb[14] == ata::k_security_erase_unit) rig.drive.locked = true;  // e.g. a reset mid-erase
    return inner(cmd);
  };
  const auto rec = rig.run();
  EXPECT_EQ(rec.outcome, PurgeOutcome::failed);
  EXPECT_FALSE(rig.drive.locked);
  EXPECT_FALSE(rig.drive.enabled);
  const auto cmds = rig.fake.ata_commands();
  EXPECT_NE(std::find(cmds.begin(), cmds.end(), 0xf2), cmds.end());  // UNLOCK
}

TEST(PurgeAta, SanitizeBlockErasePolls) {
  AtaRig rig;
  rig.drive.sanitize_status = {{0x0000, 0}, {0x4000, 0x4000}, {0x4000, 0x8000}, {0x4000, 0xc000}, {0x8000, 0xffff}};
  std::vector<double> seen;
  PurgeOptions opts;
  opts.method = PurgeMethod::ata_sanitize_block;
  opts.on_progress = [&](const PurgeProgress& p) { seen.push_back(p.fraction); };
  const auto rec = purge_via(rig.fake, ata_identity(), opts, rig.clock.clock());
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded);
  EXPECT_EQ(seen, (std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0}));
  const auto& start = rig.fake.scsi_sent[1];
  EXPECT_EQ(start.cdb[14], 0xb4);
  EXPECT_EQ(start.cdb[4], 0x12);
}

TEST(PurgeAta, SanitizeFrozenIsRefused) {
  AtaRig rig;
  rig.drive.sanitize_status = {{0x2000, 0}};
  EXPECT_THROW(rig.run(PurgeMethod::ata_sanitize_block), SafetyRefusal);
  EXPECT_EQ(rig.fake.scsi_sent.size(), 1u);
}

TEST(PurgeScsi, SanitizePollsRequestSense) {
  FakePassthrough fake;
  FakeClock clock;
  int polls = 0;
  fake.on_scsi = [&](ScsiCommand& cmd) {
    ScsiResult r;
    if (cmd.cdb[0] == 0x03) {  // REQUEST SENSE: NOT READY 04h/1Bh with progress, then clear
      std::fill(cmd.data.begin(), cmd.data.end(), 0);
      cmd.data[0] = 0x70;
      if (++polls < 3) {
        cmd.data[2] = 0x02;
        cmd.data[12] = 0x04;
        cmd.data[13] = 0x1b;
        cmd.data[15] = 0x80;
        cmd.data[16] = static_cast<uint8_t>(polls * 0x40);
      }
      r.residual = static_cast<int32_t>(cmd.data.size() - 18);
    }
    return r;
  };
  DeviceIdentity id;
  id.path = "/dev/sdq";
  id.transport = Transport::scsi;
  id.purge.scsi_sanitize = true;
  PurgeOptions opts;  // auto picks SCSI sanitize
  const auto rec = purge_via(fake, id, opts, clock.clock());
  EXPECT_EQ(rec.method, "scsi-sanitize");
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded);
  EXPECT_EQ(fake.scsi_sent[0].cdb[0], 0x48);
  ASSERT_GE(rec.progress.size(), 3u);
  EXPECT_DOUBLE_EQ(rec.progress[1].fraction, 0.25);
}

TEST(PurgeChoice, AutoOrderAndExplicitValidation) {
  auto id = nvme_identity();
  EXPECT_EQ(choose_purge_method(id, PurgeMethod::auto_select), PurgeMethod::nvme_sanitize_block);
  id.purge.nvme_sanitize_block = false;
  EXPECT_EQ(choose_purge_method(id, PurgeMethod::auto_select), PurgeMethod::nvme_format);
  id.purge.nvme_format = false;
  EXPECT_EQ(choose_purge_method(id, PurgeMethod::auto_select), PurgeMethod::nvme_sanitize_crypto);
  auto ata = ata_identity();
  EXPECT_EQ(choose_purge_method(ata, PurgeMethod::auto_select), PurgeMethod::ata_sanitize_block);
  ata.purge.ata_sanitize_block = false;
  EXPECT_EQ(choose_purge_method(ata, PurgeMethod::auto_select), PurgeMethod::ata_security_erase);
  EXPECT_THROW(choose_purge_method(ata, PurgeMethod::nvme_format), UsageError);
  EXPECT_THROW(choose_purge_method(id, PurgeMethod::nvme_sanitize_overwrite), UsageError);
  DeviceIdentity loop;
  loop.transport = Transport::loop;
  loop.purge.discard = true;
  EXPECT_EQ(choose_purge_method(loop, PurgeMethod::auto_select), PurgeMethod::secure_discard);
  loop.purge.discard = false;
  EXPECT_EQ(choose_purge_method(loop, PurgeMethod::auto_select), PurgeMethod::zero_fill);
  EXPECT_THROW(choose_purge_method(loop, PurgeMethod::discard), UsageError);
  EXPECT_THROW(choose_purge_method(nvme_identity(), PurgeMethod::nvme_format, true), UsageError);
  EXPECT_THROW(parse_purge_method("format"), UsageError);
  for (const auto& name : purge_method_names()) EXPECT_EQ(to_string(parse_purge_method(name)), name);
}

TEST(PurgeFallback, AutoChainsSecureDiscardToDiscardAndMarksNotPts) {
  FakePassthrough fake;
  FakeClock clock;
  fake.size_bytes = 100ULL << 20;
  fake.on_range = [](const FakePassthrough::RangeCall& c) {
    return c.op == BlockRangeOp::secure_discard ? -EOPNOTSUPP : 0;
  };
  DeviceIdentity id;
  id.path = "/dev/loop9";
  id.transport = Transport::loop;
  id.purge.discard = true;
  const auto rec = purge_via(fake, id, PurgeOptions{}, clock.clock());
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded);
  EXPECT_EQ(rec.method, "discard");
  EXPECT_FALSE(rec.pts_compliant);
  EXPECT_NE(rec.messages.front().find("not a PTS purge"), std::string::npos);
  ASSERT_GE(rec.messages.size(), 2u);
  EXPECT_EQ(rec.messages[1],
            "no PTS purge method: a loop target has none (PTS purges are NVMe, ATA and SCSI commands)");
  uint64_t covered = 0;
  for (const auto& c : fake.ranges) {
    if (c.op == BlockRangeOp::discard) {
      EXPECT_EQ(c.offset, covered);
      covered += c.length;
    }
  }
  EXPECT_EQ(covered, fake.size_bytes);
  // Explicit secure-discard on a device without it fails instead of falling back.
  FakePassthrough fake2;
  fake2.on_range = fake.on_range;
  PurgeOptions explicit_secure;
  explicit_secure.method = PurgeMethod::secure_discard;
  EXPECT_EQ(purge_via(fake2, id, explicit_secure, clock.clock()).outcome, PurgeOutcome::failed);
}

TEST(PurgeFallback, ZeroFillWritesEveryBlockOnce) {
  FakePassthrough fake;
  FakeClock clock;
  fake.size_bytes = (10ULL << 20) + 4096;
  DeviceIdentity id;
  id.path = "/tmp/file";
  id.transport = Transport::file;
  PurgeOptions opts;
  opts.method = PurgeMethod::zero_fill;
  const auto rec = purge_via(fake, id, opts, clock.clock());
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded);
  uint64_t next = 0;
  for (const auto& [offset, length] : fake.writes) {
    EXPECT_EQ(offset, next);
    next += length;
  }
  EXPECT_EQ(next, fake.size_bytes);
  EXPECT_TRUE(fake.wrote_only_zeros);
  EXPECT_EQ(fake.flushes, 1);
  EXPECT_LE(rec.progress.size(), 101u);
  const nlohmann::json j = rec;
  EXPECT_EQ(j["method"], "zero-fill");
  EXPECT_EQ(j["pts_compliant"], false);
  EXPECT_EQ(j["outcome"], "succeeded");
  EXPECT_TRUE(j["started_utc"].get<std::string>().size() >= 20);
}

}  // namespace
}  // namespace ptsuite::device

namespace ptsuite::device {
namespace {

TEST(PurgeSerial, RealDrivesNeedTheMatchingSerial) {
  DeviceIdentity drive;
  drive.path = "/dev/nvme0n1";
  drive.transport = Transport::nvme;
  drive.model = "SSD";
  drive.serial = "S123";
  EXPECT_THROW(require_serial_confirmation(drive, std::nullopt), SafetyRefusal);
  EXPECT_THROW(require_serial_confirmation(drive, std::string("S124")), SafetyRefusal);
  EXPECT_NO_THROW(require_serial_confirmation(drive, std::string("S123")));
  drive.serial.clear();
  EXPECT_THROW(require_serial_confirmation(drive, std::string("")), SafetyRefusal);
  DeviceIdentity loop;
  loop.transport = Transport::loop;
  EXPECT_NO_THROW(require_serial_confirmation(loop, std::nullopt));
  try {
    DeviceIdentity virtio;
    virtio.path = "/dev/vdb";
    virtio.transport = Transport::virtio;
    virtio.serial = "abc";
    require_serial_confirmation(virtio, std::nullopt);
    FAIL();
  } catch (const SafetyRefusal& e) {
    EXPECT_NE(std::string(e.what()).find("--confirm-serial abc"), std::string::npos);
  }
}

}  // namespace
}  // namespace ptsuite::device

namespace ptsuite::device {
namespace {

TEST(PurgeAta, PasswordIsAnnouncedBeforeItIsSet) {
  FakePassthrough fake;
  FakeAtaDrive drive;
  drive.identify = load_fixture("ata_identify_device.fixture");
  drive.install(fake);
  FakeClock clock;
  PurgeOptions opts;
  opts.method = PurgeMethod::ata_security_erase;
  std::vector<std::pair<std::string, size_t>> live;  // message, commands sent by then
  opts.on_message = [&](const std::string& m) { live.emplace_back(m, fake.scsi_sent.size()); };
  purge_via(fake, ata_identity(), opts, clock.clock());
  ASSERT_FALSE(live.empty());
  EXPECT_NE(live[0].first.find("'ptsuite-purge'"), std::string::npos);
  EXPECT_EQ(live[0].second, 1u);  // only IDENTIFY had been sent; SET PASSWORD comes after
}

// The typed parameters are written as the record's object of strings: only the ones set,
// numbers in decimal, CDW10 as 0x%08x, a flag as "true" / "false".
TEST(PurgeParameters, WritesTheSetOnesAsTheRecordsStrings) {
  EXPECT_EQ(nlohmann::json(PurgeParameters{}), nlohmann::json::object());
  PurgeParameters p;
  p.ses = 1;
  p.lbaf = 0;
  p.cdw10 = 0xa01;
  p.enhanced = false;
  p.password = "ptsuite";
  p.reported_erase_minutes = 12;
  p.protection_type = 2;
  p.bytes = 4096;
  EXPECT_EQ(nlohmann::json(p), nlohmann::json::parse(R"({"ses": "1", "lbaf": "0", "cdw10": "0x00000a01",
      "enhanced": "false", "password": "ptsuite", "reported_erase_minutes": "12", "protection_type": "2",
      "bytes": "4096"})"));
}

}  // namespace
}  // namespace ptsuite::device
