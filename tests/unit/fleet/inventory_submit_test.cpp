// The host's drives as Slurm GRES and `fleet submit`'s choices (fleet/inventory.hpp,
// fleet/submit.hpp, fleet/job.hpp's layout), as pure functions.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <ptsuite/fleet/inventory.hpp>
#include <ptsuite/fleet/job.hpp>
#include <ptsuite/fleet/submit.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::fleet {
namespace {

device::DriveEntry drive(const std::string& path, const std::string& serial, const std::string& by_id = "",
                         const std::string& refused = "") {
  device::DriveEntry d;
  d.path = path;
  d.kernel_name = path.substr(5);
  d.transport = device::Transport::nvme;
  d.serial = serial;
  d.by_id = by_id;
  d.refused = refused;
  d.model = "SAMSUNG MZQL23T8HCLS";
  d.capacity_bytes = 3840755982336;
  return d;
}

TEST(FleetInventory, GresLinesForTheDrivesTheGateAllows) {
  std::vector<device::DriveEntry> drives = {
      drive("/dev/nvme0n1", "S64ANE0R 100001", "/dev/disk/by-id/nvme-SAMSUNG_MZQL23T8HCLS_S64ANE0R_100001"),
      drive("/dev/nvme1n1", "S64ANE0R100002"),
      drive("/dev/nvme2n1", "ROOTDISK", "", "nvme2n1p2 is mounted at /"),
      drive("/dev/nvme3n1", "TWIN"),
      drive("/dev/nvme3n2", "TWIN"),
      drive("/dev/loop4", ""),
  };
  drives.push_back(drive("/dev/loop6", ""));
  drives.back().asset_serial = "LAB-0006";
  const Inventory inv = take_inventory(drives, "h1", "nic");
  ASSERT_EQ(inv.drives.size(), 3u);
  EXPECT_EQ(node_gres_line(inv), "NodeName=h1 Gres=nic:S64ANE0R_100001:1,nic:S64ANE0R100002:1,nic:LAB-0006:1");
  const std::vector<std::string> lines = gres_conf_lines(inv);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "NodeName=h1 Name=nic Type=S64ANE0R_100001 File=/dev/disk/by-id/nvme-SAMSUNG_MZQL23T8HCLS_S64ANE0R_100001");
  EXPECT_EQ(lines[1], "NodeName=h1 Name=nic Type=S64ANE0R100002 File=/dev/nvme1n1") << "no by-id link: the node";
  EXPECT_EQ(lines[2], "NodeName=h1 Name=nic Type=LAB-0006 File=/dev/loop6");
  EXPECT_TRUE(inv.drives[2].asset);
  ASSERT_EQ(inv.excluded.size(), 4u);
  EXPECT_NE(inv.excluded[0].reason.find("mounted at /"), std::string::npos);
  EXPECT_NE(inv.excluded[1].reason.find("2 devices"), std::string::npos);
  EXPECT_NE(inv.excluded[3].reason.find("no serial"), std::string::npos);
  const nlohmann::json j = inv;
  EXPECT_EQ(j.at("gres_conf").size(), 3u);
  EXPECT_EQ(j.at("excluded").size(), 4u);
}

pts::RunConfig quick_iops() {
  pts::RunConfig c;
  c.tests = {"iops"};
  c.presets = {"quick"};
  return c;
}

TEST(FleetSubmit, TheTimeLimitCoversThePlansWorstCaseWithMargin) {
  const uint64_t small = time_limit_s(quick_iops(), uint64_t{1} << 30);
  const uint64_t large = time_limit_s(quick_iops(), uint64_t{4} << 40);
  EXPECT_GT(small, k_time_slack_s);
  EXPECT_GT(large, small) << "WIPC and the byte-limited steps grow with the capacity";
  pts::RunConfig full = quick_iops();
  full.presets.clear();
  EXPECT_GT(time_limit_s(full, uint64_t{1} << 30), small) << "the full-length run plans longer";
}

TEST(FleetSubmit, DrivesBySerialOrFromTheRegistry) {
  const std::vector<history::FleetDrive> registered = {
      {"S1", "h1", "PM9A3", "GDC5602Q", "nvme", uint64_t{1} << 40, "S1", "/dev/disk/by-id/x", {}, ""},
      {"S2", "h2", "PM9A3", "GDC5602Q", "nvme", std::nullopt, "S2", "/dev/nvme1n1", {}, ""}};
  const std::vector<SubmitDrive> named = select_drives({"S2", "S 9"}, registered, "", "", {});
  ASSERT_EQ(named.size(), 2u);
  EXPECT_EQ(named[0].node, "h2");
  EXPECT_EQ(named[1].serial, "S_9") << "normalized as its GRES Type is";
  EXPECT_FALSE(named[1].capacity_bytes);
  const std::vector<SubmitDrive> by_model = select_drives({}, registered, "PM9A3", "", {});
  ASSERT_EQ(by_model.size(), 2u);
  EXPECT_EQ(by_model[0].capacity_bytes, std::optional<uint64_t>(uint64_t{1} << 40));
  EXPECT_THROW((void)select_drives({}, registered, "", "", {}), UsageError) << "no selection at all";
  EXPECT_THROW((void)select_drives({}, {}, "PM9A3", "", {}), UsageError) << "nothing registered";
}

TEST(FleetSubmit, ACompleteCampaignRunIsFoundByDriveAndTests) {
  history::RunRecord done;
  done.id = 5;
  done.device_serial = "S 1";
  done.status = "complete";
  done.tests = {"iops"};
  history::RunRecord cut = done;
  cut.id = 6;
  cut.status = "interrupted";
  EXPECT_EQ(completed_run({done, cut}, "S_1", {"iops"})->id, 5);
  EXPECT_FALSE(completed_run({cut}, "S_1", {"iops"}));
  EXPECT_FALSE(completed_run({done}, "S_1", {"iops", "throughput"}));
}

TEST(FleetJob, EachCampaignDriveAndConfigurationHasItsOwnRunDirectory) {
  JobRequest r;
  r.serial = "S1";
  r.campaign = "q4";
  r.run_root = "/var/lib/ptsuite/fleet";
  r.config = quick_iops();
  const JobPaths a = job_paths(r);
  EXPECT_EQ(a.run_dir.parent_path(), "/var/lib/ptsuite/fleet/q4/S1");
  EXPECT_EQ(a.run_dir.filename().string().rfind("iops-", 0), 0u) << a.run_dir;
  EXPECT_EQ(a.push_state, a.run_dir.string() + ".push.json");
  EXPECT_EQ(job_paths(r).run_dir, a.run_dir) << "stable: a requeued job finds its run again";
  r.config.overrides = {{"iops.threads", "2"}};
  EXPECT_NE(job_paths(r).run_dir, a.run_dir) << "another configuration is another run";
  r.config = quick_iops();
  r.config.labels = {{"job", "77"}};
  EXPECT_EQ(job_paths(r).run_dir, a.run_dir) << "labels are not part of what is measured";
}

}  // namespace
}  // namespace ptsuite::fleet
