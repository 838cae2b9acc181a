// The run's device session over fake drives: one channel for write cache, purge and health;
// the write cache re-applied after a purge that reset it; the original state carried over an
// interrupted session; partitions never changed. Plus the purge policy (named settings) and
// the record of an `auto` purge that had to fall back.
#include <gtest/gtest.h>

#include <ptsuite/device/session.hpp>
#include <ptsuite/util/error.hpp>
#include "unit/device/byte_fixture.hpp"
#include "unit/device/fake_passthrough.hpp"

namespace ptsuite::device {
namespace {

using testing::FakeNvme;
using testing::FakePassthrough;
using testing::load_fixture;

DeviceIdentity fake_nvme_identity() {
  DeviceIdentity id;
  id.path = "/nonexistent/ptsuite-test/nvme9n1";  // not a block device: the gate has nothing to refuse
  id.kernel_name = "nvme9n1";
  id.transport = Transport::nvme;
  id.nvme_nsid = 1;
  id.serial = "S4EWNX0R123456";
  id.write_cache_present = true;
  id.purge.nvme_format = true;
  id.purge.nvme_sanitize_block = true;
  id.purge.nvme_sanitize_overwrite = true;
  return id;
}

struct SessionRig {
  FakePassthrough* fake = nullptr;  // owned by the session
  FakeNvme drive;
  std::unique_ptr<DeviceSession> session;
  explicit SessionRig(DeviceIdentity id = fake_nvme_identity()) {
    auto channel = std::make_unique<FakePassthrough>();
    fake = channel.get();
    drive.identify_controller = load_fixture("nvme_identify_controller.fixture");
    drive.identify_namespace = load_fixture("nvme_identify_namespace.fixture");
    drive.smart_log = load_fixture("nvme_smart_log.fixture");
    drive.install(*fake);
    SessionOptions options;
    options.allow_destructive = true;
    session = std::make_unique<DeviceSession>(std::move(channel), std::move(id), options);
  }
  static PurgeOptions format_options() {
    PurgeOptions o;
    o.method = PurgeMethod::nvme_format;
    o.allow_destructive = true;
    o.confirm_serial = "S4EWNX0R123456";
    return o;
  }
};

TEST(DeviceSession, PurgeAndWriteCacheShareTheOneChannelAndTheCacheIsReappliedAfterAPurge) {
  SessionRig rig;
  rig.drive.features_06h = 1;
  rig.drive.format_resets_write_cache = true;
  const WriteCacheRecord& applied = rig.session->apply_write_cache(false);  // PTS-E: WCD
  EXPECT_EQ(applied.original.enabled, std::optional<bool>(true));
  EXPECT_EQ(applied.applied.enabled, std::optional<bool>(false));
  EXPECT_EQ(rig.drive.features_06h, 0u);

  const PurgeRecord rec = rig.session->purge(SessionRig::format_options());
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded);
  EXPECT_EQ(rig.drive.features_06h, 1u) << "the fake format resets the cache, as some drives do";
  const WriteCacheReapply again = rig.session->reapply_write_cache();
  EXPECT_EQ(again.found, std::optional<bool>(true));
  EXPECT_EQ(again.read_back.enabled, std::optional<bool>(false));
  EXPECT_EQ(rig.drive.features_06h, 0u);

  const HealthSnapshot health = rig.session->health();
  EXPECT_EQ(health.source, "nvme-smart-log");
  // Every command (Get/Set Features, Identify NS, Format NVM, Get Log Page) went through the
  // session's one channel: nothing re-opened the device.
  const auto ops = rig.fake->nvme_opcodes();
  EXPECT_NE(std::find(ops.begin(), ops.end(), nvme::k_op_format_nvm), ops.end());
  EXPECT_NE(std::find(ops.begin(), ops.end(), nvme::k_op_get_log_page), ops.end());

  rig.session->restore_write_cache();
  EXPECT_EQ(rig.drive.features_06h, 1u);
  ASSERT_TRUE(rig.session->write_cache_record()->restored);
  EXPECT_EQ(rig.session->write_cache_record()->restored->enabled, std::optional<bool>(true));
}

TEST(DeviceSession, ReapplyChangesNothingWhenThePurgeKeptTheState) {
  SessionRig rig;
  rig.session->apply_write_cache(false);
  const size_t sets_before = rig.fake->nvme_sent.size();
  const WriteCacheReapply again = rig.session->reapply_write_cache();
  EXPECT_EQ(again.found, std::optional<bool>(false));
  EXPECT_EQ(again.read_back.enabled, std::optional<bool>(false));
  for (size_t i = sets_before; i < rig.fake->nvme_sent.size(); ++i) {
    EXPECT_NE(rig.fake->nvme_sent[i].opcode, nvme::k_op_set_features);
  }
}

TEST(DeviceSession, AKnownOriginalFromAnInterruptedStartIsWhatIsRestored) {
  SessionRig rig;
  rig.drive.features_06h = 0;  // a killed run left the cache disabled
  const WriteCacheRecord& rec = rig.session->apply_write_cache(false, /*known_original=*/true);
  EXPECT_EQ(rec.original.enabled, std::optional<bool>(true));
  EXPECT_EQ(rec.applied.enabled, std::optional<bool>(false));
  rig.session->restore_write_cache();
  EXPECT_EQ(rig.drive.features_06h, 1u);
}

TEST(DeviceSession, RestoreRunsFromTheDestructorWhenNobodyCalledIt) {
  SessionRig rig;
  FakeNvme* drive = &rig.drive;
  rig.session->apply_write_cache(false);
  EXPECT_EQ(drive->features_06h, 0u);
  rig.session.reset();  // an exception unwinding the run ends here
  EXPECT_EQ(drive->features_06h, 1u);
}

TEST(DeviceSession, APartitionsWriteCacheIsNeverChanged) {
  DeviceIdentity id = fake_nvme_identity();
  id.is_partition = true;
  id.device_path = "/dev/nvme9n1";
  SessionRig rig(id);
  const WriteCacheRecord& rec = rig.session->apply_write_cache(false);
  EXPECT_FALSE(rec.applied.applicable);
  EXPECT_NE(rec.applied.note.find("is a partition"), std::string::npos) << rec.applied.note;
  EXPECT_TRUE(rig.fake->nvme_sent.empty());
  EXPECT_FALSE(rig.session->reapply_write_cache().found);
}

TEST(DeviceSession, PurgeStillChecksConsentAndTheSerial) {
  SessionRig rig;
  PurgeOptions no_serial = SessionRig::format_options();
  no_serial.confirm_serial.reset();
  EXPECT_THROW(rig.session->purge(no_serial), SafetyRefusal);
  PurgeOptions no_consent = SessionRig::format_options();
  no_consent.allow_destructive = false;
  EXPECT_THROW(rig.session->purge(no_consent), SafetyRefusal);
  EXPECT_TRUE(rig.fake->nvme_sent.empty()) << "nothing is sent before the checks pass";
}

TEST(PurgePolicy, AutoSkipsNvmeSanitizeWhenTheSettingRejectsIt) {
  const DeviceIdentity id = fake_nvme_identity();
  EXPECT_EQ(choose_purge_method(id, PurgeMethod::auto_select), PurgeMethod::nvme_sanitize_block);
  PurgePolicy no_sanitize;
  no_sanitize.auto_may_sanitize = false;
  EXPECT_EQ(choose_purge_method(id, PurgeMethod::auto_select, false, no_sanitize), PurgeMethod::nvme_format);
  // An explicit sanitize is still the operator's to ask for (the verdict judges it).
  EXPECT_EQ(choose_purge_method(id, PurgeMethod::nvme_sanitize_block, false, no_sanitize),
            PurgeMethod::nvme_sanitize_block);
}

TEST(PurgePolicy, AnOverwriteSanitizeIsAPtsPurgeOnlyWhenTheSettingSaysSo) {
  EXPECT_FALSE(is_pts_purge(PurgeMethod::nvme_sanitize_overwrite));
  PurgePolicy accept;
  accept.overwrite_is_purge = true;
  EXPECT_TRUE(is_pts_purge(PurgeMethod::nvme_sanitize_overwrite, accept));
  EXPECT_TRUE(is_pts_purge(PurgeMethod::nvme_sanitize_block));
  EXPECT_FALSE(is_pts_purge(PurgeMethod::zero_fill, accept));

  FakePassthrough fake;
  FakeNvme drive;
  drive.install(fake);
  testing::FakeClock clock;
  PurgeOptions opts;
  opts.method = PurgeMethod::nvme_sanitize_overwrite;
  drive.sanitize_log = {{0, 0}, {0xffff, 1}};  // never sanitized, then completed
  const PurgeRecord rec = purge_via(fake, fake_nvme_identity(), opts, clock.clock());
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded);
  EXPECT_FALSE(rec.pts_compliant);
  ASSERT_FALSE(rec.messages.empty());
  EXPECT_NE(rec.messages.front().find("overwrite sanitize leaves every LBA written"), std::string::npos);
  opts.policy = accept;
  drive.sanitize_log = {{0, 0}, {0xffff, 1}};
  EXPECT_TRUE(purge_via(fake, fake_nvme_identity(), opts, clock.clock()).pts_compliant);
}

TEST(PurgeFallbackRecord, AutoOnAnAtaDriveWithoutPtsMethodsNamesWhatItLacks) {
  FakePassthrough fake;
  fake.size_bytes = 8ULL << 20;
  testing::FakeClock clock;
  DeviceIdentity id;
  id.path = "/dev/sdq";
  id.transport = Transport::ata;
  id.purge.discard = true;
  const PurgeRecord rec = purge_via(fake, id, PurgeOptions{}, clock.clock());
  EXPECT_FALSE(rec.pts_compliant);
  ASSERT_GE(rec.messages.size(), 2u);
  EXPECT_EQ(rec.messages[1],
            "no PTS purge method on this ata device: ata-sanitize-block: the drive does not report this SANITIZE "
            "action (IDENTIFY word 59); ata-security-erase: the drive does not support the Security feature set; "
            "ata-sanitize-crypto: the drive does not report this SANITIZE action (IDENTIFY word 59)");
}

TEST(PurgeFallbackRecord, ScsiSupportThatTheDeviceDidNotReportIsUnknownNotAbsent) {
  FakePassthrough fake;
  fake.size_bytes = 8ULL << 20;
  testing::FakeClock clock;
  DeviceIdentity id;
  id.path = "/dev/sdr";
  id.transport = Transport::scsi;
  id.purge.discard = true;  // scsi_sanitize / scsi_format_unit unknown: RSOC not answered
  const PurgeRecord rec = purge_via(fake, id, PurgeOptions{}, clock.clock());
  ASSERT_GE(rec.messages.size(), 2u);
  EXPECT_NE(rec.messages[1].find("scsi-format: the device does not answer REPORT SUPPORTED OPERATION CODES"),
            std::string::npos)
      << rec.messages[1];
}

}  // namespace
}  // namespace ptsuite::device
