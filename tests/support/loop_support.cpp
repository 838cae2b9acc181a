#include "support/loop_support.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/fd.hpp>

namespace ptsuite::test_support {

namespace {

std::string probe_loop() {
  std::string reason = engine::LoopDevice::unavailable_reason();
  if (!reason.empty()) {
    return reason;
  }
  try {
    const ShmTempDir dir("ptsuite-loop-probe");
    const engine::LoopDevice probe = attach_loop_over(dir.create_file("probe.img", 1 << 20));
  } catch (const std::exception& e) {
    return std::string("attaching a loop device failed: ") + e.what();
  }
  return {};
}

}  // namespace

const std::string& loop_skip_reason() {
  static const std::string reason = probe_loop();
  return reason;
}

void settle_udev() {
  // udevd probes every new block device (blkid reads its first and last blocks, holding it
  // open meanwhile). Where it runs (a systemd machine, as CI's), a test that counts the IO at
  // the device or asks whether it is open elsewhere would see that probe; its event is queued
  // before attach returns, so settling after attach waits it out. No udevd, nothing to wait.
  if (::access("/run/udev/control", F_OK) != 0) return;
  // NOLINTNEXTLINE(cert-env33-c, concurrency-mt-unsafe): a fixed command, tests only
  [[maybe_unused]] const int status = std::system("udevadm settle --timeout=10 >/dev/null 2>&1");
}

engine::LoopDevice attach_loop_over(const std::string& backing_path, const engine::LoopOptions& options) {
  const UniqueFd fd(::open(backing_path.c_str(), O_RDWR | O_CLOEXEC));
  if (!fd.valid()) {
    throw SystemError("open(" + backing_path + ")", errno);
  }
  engine::LoopDevice device = engine::LoopDevice::attach(fd.get(), options);
  settle_udev();
  return device;
}

std::string loop_sysfs_attribute(uint32_t number, const std::string& attribute) {
  std::ifstream in("/sys/block/loop" + std::to_string(number) + "/" + attribute);
  std::string value;
  std::getline(in, value);
  return value;
}

bool loop_bound_to(uint32_t number, const std::string& backing_name) {
  const std::string backing = loop_sysfs_attribute(number, "loop/backing_file");
  return !backing.empty() && backing.find(backing_name) != std::string::npos;
}

void LoopDeviceFixture::SetUp() { PTSUITE_SKIP_WITHOUT_LOOP(); }

LoopBackedDevice& LoopDeviceFixture::attach_loop(uint64_t size_bytes, const engine::LoopOptions& options) {
  const std::string path = m_temp_dir.create_file("loop" + std::to_string(m_loops.size()) + ".img", size_bytes);
  m_loops.push_back(std::make_unique<LoopBackedDevice>(LoopBackedDevice{path, attach_loop_over(path, options)}));
  return *m_loops.back();
}

}  // namespace ptsuite::test_support
