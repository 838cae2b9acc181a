// Identity, pass-through error paths and the purge fallbacks on real loop devices and files:
// discard and zero-fill really clear the target (contents verified afterwards), `auto` falls
// back from secure discard, and pass-through ioctls fail cleanly (ENOTTY/EINVAL) on loop.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/nvme.hpp>
#include <ptsuite/device/passthrough.hpp>
#include <ptsuite/device/purge.hpp>
#include <ptsuite/device/scsi.hpp>
#include <ptsuite/util/error.hpp>
#include "integration/device_loop_fixture.hpp"

namespace ptsuite::device {
namespace {

using testing::file_is_all;
using testing::loop_skip_reason;
using testing::LoopDevice;
using testing::run_ptsuite;
using testing::TempDir;

constexpr uint64_t k_purge_target_bytes = 32ULL << 20;

class DevicePurgeLoop : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const auto why = loop_skip_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};

TEST_F(DevicePurgeLoop, IdentityOfALoopDevice) {
  LoopDevice loop(k_purge_target_bytes, false);
  ASSERT_TRUE(loop.ok());
  const auto id = identify(loop.path());
  EXPECT_EQ(id.transport, Transport::loop);
  EXPECT_EQ(id.source, "sysfs");
  EXPECT_EQ(id.backing_file, loop.backing());
  EXPECT_EQ(id.capacity_bytes, k_purge_target_bytes);
  EXPECT_EQ(id.logical_block_bytes, 512u);
  EXPECT_FALSE(id.is_real_drive());
  const auto cli = run_ptsuite("device info --json " + loop.path());
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  const auto j = nlohmann::json::parse(cli.out);
  EXPECT_EQ(j["transport"], "loop");
  EXPECT_EQ(j["loop"]["backing_file"], loop.backing());
  EXPECT_EQ(j["capacity_bytes"], k_purge_target_bytes);
}

TEST_F(DevicePurgeLoop, PassthroughIoctlsFailCleanlyOnLoop) {
  LoopDevice loop(k_purge_target_bytes, false);
  ASSERT_TRUE(loop.ok());
  auto channel = open_read_only_channel(loop.path());
  auto identify_cmd = nvme::identify_controller();
  const auto done = channel->nvme_admin(identify_cmd);
  EXPECT_FALSE(done.ok());
  EXPECT_TRUE(done.os_error == ENOTTY || done.os_error == EINVAL) << done.os_error;
  auto inquiry = scsi::inquiry();
  const auto r = channel->scsi(inquiry);
  EXPECT_NE(r.os_error, 0);
  // The read-only channel refuses a destructive command itself (EPERM), root or not.
  nvme::IdentifyNamespace ns;
  ns.lba_formats.push_back({0, 0, 512, 0});
  auto format = nvme::format_nvm(1, ns, nvme::SecureErase::user_data, 0);
  EXPECT_EQ(channel->nvme_admin(format).os_error, EPERM);
  EXPECT_EQ(channel->block_range(BlockRangeOp::discard, 0, 4096), -EPERM);
  // identify_via on a loop device forced to "nvme" keeps the sysfs identity and says why.
  DeviceIdentity base = identify(loop.path());
  base.transport = Transport::nvme;
  const auto id = identify_via(*channel, base);
  ASSERT_FALSE(id.notes.empty());
  EXPECT_NE(id.notes.back().find("Identify Controller failed"), std::string::npos);
  uint64_t size = 0;
  EXPECT_EQ(channel->block_query(BlockQuery::size_bytes, size), 0);
  EXPECT_EQ(size, k_purge_target_bytes);
}

TEST_F(DevicePurgeLoop, DiscardPurgeClearsTheLoopDevice) {
  LoopDevice loop(k_purge_target_bytes, false, 0xab);
  ASSERT_TRUE(loop.ok());
  ASSERT_FALSE(file_is_all(loop.backing(), 0));
  PurgeOptions opts;
  opts.method = PurgeMethod::discard;
  opts.allow_destructive = true;
  const auto rec = purge(loop.path(), opts);
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded) << rec.messages.back();
  EXPECT_EQ(rec.method, "discard");
  EXPECT_FALSE(rec.pts_compliant);
  EXPECT_TRUE(file_is_all(loop.backing(), 0));  // punched holes read back as zeros
}

TEST_F(DevicePurgeLoop, ZeroFillPurgeThroughTheCli) {
  LoopDevice loop(k_purge_target_bytes, false, 0x5a);
  ASSERT_TRUE(loop.ok());
  const auto cli = run_ptsuite("device purge " + loop.path() + " --method zero-fill --allow-destructive --json");
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  const auto j = nlohmann::json::parse(cli.out);
  EXPECT_EQ(j["method"], "zero-fill");
  EXPECT_EQ(j["outcome"], "succeeded");
  EXPECT_EQ(j["pts_compliant"], false);
  EXPECT_EQ(j["parameters"]["bytes"], std::to_string(k_purge_target_bytes));
  EXPECT_TRUE(file_is_all(loop.backing(), 0));
}

TEST_F(DevicePurgeLoop, AutoFallsBackFromSecureDiscard) {
  LoopDevice loop(k_purge_target_bytes, false, 0x11);
  ASSERT_TRUE(loop.ok());
  PurgeOptions opts;
  opts.allow_destructive = true;
  const auto rec = purge(loop.path(), opts);
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded);
  EXPECT_FALSE(rec.pts_compliant);
  EXPECT_NE(rec.method, "secure-discard");  // loop devices have no secure erase
  EXPECT_TRUE(file_is_all(loop.backing(), 0));
}

TEST_F(DevicePurgeLoop, PartitionAcceptsOnlyFallbacks) {
  LoopDevice loop(k_purge_target_bytes, true, 0x22);
  ASSERT_TRUE(loop.ok());
  ASSERT_TRUE(loop.add_partition(1 << 20, 8 << 20));
  PurgeOptions opts;
  opts.allow_destructive = true;
  opts.method = PurgeMethod::zero_fill;
  const auto rec = purge(loop.partition_path(), opts);
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded);
  // Only the partition's bytes changed: the MBR and the tail keep their content.
  std::ifstream in(loop.backing(), std::ios::binary);
  std::vector<char> all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(static_cast<uint8_t>(all[510]), 0x55);
  EXPECT_EQ(static_cast<uint8_t>(all[(1 << 20) - 1]), 0x22);
  EXPECT_EQ(all[1 << 20], 0);
  EXPECT_EQ(all[(9 << 20) - 1], 0);
  EXPECT_EQ(static_cast<uint8_t>(all[9 << 20]), 0x22);
}

TEST(DevicePurgeFile, ZeroFillAndDiscardOfARegularFile) {
  TempDir dir;
  const std::string file = dir.path() + "/target.img";
  {
    std::ofstream out(file, std::ios::binary);
    out << std::string(3 << 20, 'x');
  }
  PurgeOptions opts;
  opts.allow_destructive = true;
  opts.method = PurgeMethod::zero_fill;
  auto rec = purge(file, opts);
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded);
  EXPECT_TRUE(file_is_all(file, 0));
  EXPECT_EQ(std::filesystem::file_size(file), 3u << 20);
  {
    std::ofstream out(file, std::ios::binary);
    out << std::string(3 << 20, 'y');
  }
  opts.method = PurgeMethod::discard;
  rec = purge(file, opts);
  if (rec.outcome == PurgeOutcome::succeeded) {
    EXPECT_TRUE(file_is_all(file, 0));
  }
  const auto id = identify(file);
  EXPECT_EQ(id.transport, Transport::file);
  EXPECT_FALSE(id.filesystem.empty());
}

}  // namespace
}  // namespace ptsuite::device
