// Host preflight (device/preflight.hpp) over a fake /sys and /proc tree: every check's info,
// warning and error cases, and that a clean host gives no warning.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/device/preflight.hpp>
#include <ptsuite/util/units.hpp>
#include "unit/device/fake_system_tree.hpp"

namespace ptsuite::device {
namespace {

namespace fs = std::filesystem;
using testing::FakeSystemTree;

const std::string k_pci = "pci0000:00/0000:00:1d.0/0000:3d:00.0";
const std::string k_controller = k_pci + "/nvme/nvme0";
constexpr int k_self_pid = 4242;

// A host that passes every check: NVMe namespace at full PCIe link, performance governor,
// scheduler none, nobody else holding it, plenty of memory and AIO events.
class Preflight : public ::testing::Test {
 protected:
  void SetUp() override {
    m_disk = m_tree.add_disk("nvme0n1", 259, 0, k_controller);
    link("16.0 GT/s PCIe", "4", "16.0 GT/s PCIe", "4");
    m_tree.write(rel(m_disk) + "/queue/scheduler", "[none] mq-deadline kyber\n");
    for (int cpu = 0; cpu < 4; ++cpu) {
      m_tree.write(fmt_cpu(cpu), "performance\n");
    }
    m_tree.write("proc/meminfo", "MemTotal:       16777216 kB\nMemAvailable:   8388608 kB\n");
    m_tree.write("proc/sys/fs/aio-max-nr", "65536\n");
    m_tree.write("proc/sys/fs/aio-nr", "128\n");
    m_inputs.target = "/dev/nvme0n1";
    m_inputs.roots = m_tree.roots();
    m_inputs.self_pid = k_self_pid;
    m_inputs.needs = {1024, uint64_t{2} << 30, "libaio"};
  }
  static std::string fmt_cpu(int cpu) {
    return "sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cpufreq/scaling_governor";
  }
  std::string rel(const fs::path& p) const { return fs::relative(p, m_tree.root()).string(); }
  void link(const std::string& cur_speed, const std::string& cur_width, const std::string& max_speed,
            const std::string& max_width) const {
    const std::string base = "sys/devices/" + k_pci + "/";
    m_tree.write(base + "current_link_speed", cur_speed + "\n");
    m_tree.write(base + "current_link_width", cur_width + "\n");
    m_tree.write(base + "max_link_speed", max_speed + "\n");
    m_tree.write(base + "max_link_width", max_width + "\n");
  }
  // A process with `target` open as fd 3.
  void add_process(int pid, const std::string& comm, const std::string& target) const {
    const fs::path dir = m_tree.root() / "proc" / std::to_string(pid);
    fs::create_directories(dir / "fd");
    m_tree.write("proc/" + std::to_string(pid) + "/comm", comm + "\n");
    fs::create_symlink(target, dir / "fd" / "3");
    fs::create_symlink("/dev/null", dir / "fd" / "0");
  }
  PreflightFinding finding(const std::string& check) const {
    const PreflightReport r = run_preflight(m_inputs);
    for (const PreflightFinding& f : r.findings) {
      if (f.check == check) {
        return f;
      }
    }
    ADD_FAILURE() << "no finding " << check;
    return {};
  }

  FakeSystemTree m_tree;
  fs::path m_disk;
  PreflightInputs m_inputs;
};

TEST_F(Preflight, CleanHostHasOnlyInfoFindingsInOrder) {
  const PreflightReport r = run_preflight(m_inputs);
  const std::vector<std::string> order = {"pcie_link",      "cpu_governor", "io_scheduler", "other_openers",
                                          "sibling_mounts", "temperature",  "free_memory",  "aio_max_nr"};
  ASSERT_EQ(r.findings.size(), order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    EXPECT_EQ(r.findings[i].check, order[i]);
    EXPECT_EQ(r.findings[i].severity, PreflightSeverity::info) << r.findings[i].check << ": " << r.findings[i].message;
  }
  EXPECT_EQ(r.first_at_least(PreflightSeverity::warning), nullptr);
  EXPECT_NE(finding("pcie_link").message.find("16.0 GT/s PCIe x4 (the device's maximum)"), std::string::npos);
  const nlohmann::json j = r;
  EXPECT_EQ(j.at("warnings"), 0);
  EXPECT_EQ(j.at("findings")[0].at("severity"), "info");
}

TEST_F(Preflight, DowntrainedPcieLinkIsAWarning) {
  link("16.0 GT/s PCIe", "2", "16.0 GT/s PCIe", "4");
  PreflightFinding f = finding("pcie_link");
  EXPECT_EQ(f.severity, PreflightSeverity::warning);
  EXPECT_NE(f.message.find("trained at 16.0 GT/s PCIe x2, the device supports 16.0 GT/s PCIe x4"), std::string::npos)
      << f.message;
  link("8.0 GT/s PCIe", "4", "16.0 GT/s PCIe", "4");
  EXPECT_EQ(finding("pcie_link").severity, PreflightSeverity::warning);
  link("Unknown", "4", "16.0 GT/s PCIe", "4");
  EXPECT_EQ(finding("pcie_link").severity, PreflightSeverity::info);
}

TEST_F(Preflight, GovernorOtherThanPerformanceIsAWarning) {
  m_tree.write(fmt_cpu(2), "powersave\n");
  const PreflightFinding f = finding("cpu_governor");
  EXPECT_EQ(f.severity, PreflightSeverity::warning);
  EXPECT_NE(f.message.find("performance on 3, powersave on 1 of 4 CPUs"), std::string::npos) << f.message;
  fs::remove_all(m_tree.root() / "sys/devices/system/cpu");
  EXPECT_EQ(finding("cpu_governor").severity, PreflightSeverity::info);  // a VM without cpufreq
}

TEST_F(Preflight, SchedulerOtherThanNoneIsAWarning) {
  m_tree.write(rel(m_disk) + "/queue/scheduler", "none [mq-deadline] kyber\n");
  const PreflightFinding f = finding("io_scheduler");
  EXPECT_EQ(f.severity, PreflightSeverity::warning);
  EXPECT_NE(f.message.find("nvme0n1 uses the mq-deadline IO scheduler"), std::string::npos) << f.message;
}

TEST_F(Preflight, OtherProcessesHoldingTheDeviceOrAPartitionAreNamed) {
  add_process(k_self_pid, "ptsuite", "/dev/nvme0n1");  // this process: not counted
  add_process(77, "bash", "/dev/pts/0");
  EXPECT_EQ(finding("other_openers").severity, PreflightSeverity::info);
  (void)m_tree.add_partition(rel(m_disk), "nvme0n1p1", 259, 1, 1);
  add_process(1234, "fio", "/dev/nvme0n1p1");
  const PreflightFinding f = finding("other_openers");
  EXPECT_EQ(f.severity, PreflightSeverity::warning);
  EXPECT_NE(f.message.find("fio (pid 1234) has /dev/nvme0n1p1 open"), std::string::npos) << f.message;
  EXPECT_EQ(f.message.find("bash"), std::string::npos);
  EXPECT_EQ(f.message.find("ptsuite"), std::string::npos);
}

TEST_F(Preflight, MountedSiblingNamespaceIsAWarning) {
  const fs::path sibling = m_tree.add_disk("nvme0n2", 259, 2, k_controller);
  EXPECT_NE(finding("sibling_mounts").message.find("1 other namespace(s) on this controller, none mounted"),
            std::string::npos);
  (void)m_tree.add_partition(rel(sibling), "nvme0n2p1", 259, 3, 1);
  m_tree.add_mount(259, 3, "/data", "/dev/nvme0n2p1", "xfs");
  const PreflightFinding f = finding("sibling_mounts");
  EXPECT_EQ(f.severity, PreflightSeverity::warning);
  EXPECT_NE(f.message.find("nvme0n2p1 on /data (xfs)"), std::string::npos) << f.message;
  // A namespace of another controller is no sibling.
  (void)m_tree.add_disk("nvme1n1", 259, 4, k_controller);
  m_tree.add_mount(259, 4, "/other", "/dev/nvme1n1");
  EXPECT_EQ(finding("sibling_mounts").message.find("nvme1n1"), std::string::npos);
}

TEST_F(Preflight, TemperatureAgainstTheDriveThresholds) {
  HealthSnapshot h;
  h.source = "nvme-smart-log";
  h.temperature_celsius = 45;
  h.warning_threshold_celsius = 70;
  h.critical_threshold_celsius = 80;
  m_inputs.health = h;
  EXPECT_EQ(finding("temperature").message, "45 °C at start (warning threshold 70 °C)");
  m_inputs.health->temperature_celsius = 72;
  EXPECT_EQ(finding("temperature").severity, PreflightSeverity::warning);
  m_inputs.health->temperature_celsius = 81;
  const PreflightReport r = run_preflight(m_inputs);
  ASSERT_NE(r.first_at_least(PreflightSeverity::warning), nullptr);
  EXPECT_EQ(r.first_at_least(PreflightSeverity::warning)->check, "temperature");
  EXPECT_EQ(r.first_at_least(PreflightSeverity::error)->severity, PreflightSeverity::error);
  m_inputs.health->temperature_celsius = 40;
  m_inputs.health->critical_warning = 0x04;
  m_inputs.health->critical_warning_flags = {"reliability degraded"};
  EXPECT_EQ(finding("temperature").severity, PreflightSeverity::warning);
  HealthSnapshot none;
  none.source = "none";
  none.note = "no health data for a loop target";
  m_inputs.health = none;
  EXPECT_EQ(finding("temperature").message, "not reported: no health data for a loop target");
}

TEST_F(Preflight, MemoryBelowTheRunsNeedIsAnErrorAndLittleHeadroomAWarning) {
  m_inputs.needs.memory_bytes = uint64_t{10} << 30;  // 8 GiB available
  EXPECT_EQ(finding("free_memory").severity, PreflightSeverity::error);
  m_inputs.needs.memory_bytes = uint64_t{6} << 30;  // 8 < 1.5 x 6
  EXPECT_EQ(finding("free_memory").severity, PreflightSeverity::warning);
  m_inputs.needs.memory_bytes = 0;
  EXPECT_EQ(finding("free_memory").message, units::format_size_human(uint64_t{8} << 30) + " available");
}

TEST_F(Preflight, AioEventsBeyondTheLimitAreAnError) {
  m_inputs.needs.aio_events = 65536 - 128 + 1;  // one more than is free
  const PreflightFinding f = finding("aio_max_nr");
  EXPECT_EQ(f.severity, PreflightSeverity::error);
  EXPECT_NE(f.message.find("sysctl -w fs.aio-max-nr="), std::string::npos) << f.message;
  m_inputs.needs.aio_events = 65536 - 128;
  EXPECT_EQ(finding("aio_max_nr").severity, PreflightSeverity::info);
  m_inputs.needs.engine = "sync";
  m_inputs.needs.aio_events = 1 << 20;
  EXPECT_EQ(finding("aio_max_nr").severity, PreflightSeverity::info);
}

TEST_F(Preflight, RegularFileTargetSkipsDeviceChecks) {
  const fs::path file = m_tree.root() / "target.img";
  m_tree.write("target.img", "x");
  m_inputs.target = file.string();
  EXPECT_EQ(finding("pcie_link").message, "not a block device: no PCIe link to check");
  add_process(99, "dd", fs::canonical(file).string());
  const PreflightFinding f = finding("other_openers");
  EXPECT_EQ(f.severity, PreflightSeverity::warning);
  EXPECT_NE(f.message.find("dd (pid 99)"), std::string::npos) << f.message;
}

}  // namespace
}  // namespace ptsuite::device
