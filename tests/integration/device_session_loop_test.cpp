// The run's device session on real loop devices: it holds the kernel's exclusive claim, a
// second exclusive claim (even from the same process) is refused the way the kernel refuses
// it on every real drive, the workload's plain opens and the session's own purge still work
// under the claim, and a refused claim names the process that has the device open.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <ptsuite/device/openers.hpp>
#include <ptsuite/device/session.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/util/error.hpp>
#include "integration/device_loop_fixture.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::device {
namespace {

using testing::loop_skip_reason;
using testing::LoopDevice;
using testing::run_ptsuite;

constexpr uint64_t k_session_target_bytes = 16ULL << 20;

class DeviceSessionLoop : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const auto why = loop_skip_reason(); !why.empty()) GTEST_SKIP() << why;
  }
  static SessionOptions consent() {
    SessionOptions o;
    o.allow_destructive = true;
    return o;
  }
};

// A child process holding `path` open with O_EXCL until destroyed.
class ExclusiveHolder {
 public:
  explicit ExclusiveHolder(const std::string& path) {
    int ready[2];
    if (::pipe(ready) != 0 || ::pipe(m_release) != 0) return;
    m_pid = ::fork();
    if (m_pid == 0) {
      const int fd = ::open(path.c_str(), O_RDWR | O_EXCL | O_CLOEXEC);
      const char ok = fd >= 0 ? 'y' : 'n';
      (void)!::write(ready[1], &ok, 1);
      char c = 0;
      (void)!::read(m_release[0], &c, 1);
      ::_exit(0);
    }
    char ok = 0;
    m_held = ::read(ready[0], &ok, 1) == 1 && ok == 'y';
    ::close(ready[0]);
    ::close(ready[1]);
  }
  ~ExclusiveHolder() {
    if (m_pid > 0) {
      (void)!::write(m_release[1], "x", 1);
      ::waitpid(m_pid, nullptr, 0);
    }
    ::close(m_release[0]);
    ::close(m_release[1]);
  }
  [[nodiscard]] bool held() const { return m_held; }
  [[nodiscard]] pid_t pid() const { return m_pid; }

 private:
  int m_release[2] = {-1, -1};
  pid_t m_pid = -1;
  bool m_held = false;
};

TEST_F(DeviceSessionLoop, OneClaimServesTheRunAndASecondClaimIsRefused) {
  LoopDevice loop(k_session_target_bytes, false);
  ASSERT_TRUE(loop.ok());
  const TargetGuard guard = test_support::writable(loop.path());  // the gate's token, before the claim
  auto session = DeviceSession::open(guard.writable(), consent());
  // The kernel refuses a second O_EXCL claim, from this very process too: the defect that made
  // every real-drive run fail at its first purge when the purge asked for its own claim.
  try {
    (void)open_destructive_channel(guard.writable(), true);
    FAIL() << "a second exclusive claim was granted";
  } catch (const SafetyRefusal& e) {  // a busy device is a refusal (exit 3), not a failure
    EXPECT_NE(std::string(e.what()).find(fmt::format("open in pid {}", ::getpid())), std::string::npos) << e.what();
  }
  // The workload's own O_DIRECT opens are plain opens: allowed beside the claim.
  EXPECT_NO_THROW((void)engine::Target::open(guard.writable()));
  // The purge runs on the session's claim.
  PurgeOptions purge;
  purge.method = PurgeMethod::zero_fill;
  purge.allow_destructive = true;
  const PurgeRecord rec = session->purge(purge);
  EXPECT_EQ(rec.outcome, PurgeOutcome::succeeded);
  session.reset();  // the claim is released with the session
  EXPECT_NO_THROW((void)open_destructive_channel(guard.writable(), true));
}

TEST_F(DeviceSessionLoop, ARefusedClaimNamesTheProcessHoldingTheDevice) {
  LoopDevice loop(k_session_target_bytes, false);
  ASSERT_TRUE(loop.ok());
  ExclusiveHolder holder(loop.path());
  ASSERT_TRUE(holder.held());
  const DeviceOpeners openers = find_device_openers(loop.path(), ::getpid());
  ASSERT_EQ(openers.processes.size(), 1u);
  EXPECT_EQ(openers.processes[0].pid, holder.pid());
  try {
    // The target gate probes the claim first (and names who has the device open).
    (void)DeviceSession::open(test_support::writable(loop.path()).writable(), consent());
    FAIL() << "the claim was granted while another process held the device exclusively";
  } catch (const SafetyRefusal& e) {
    // The fixture's own loop fd is listed too; the holder must be named.
    EXPECT_NE(std::string(e.what()).find(fmt::format("pid {} (ptsuite_tests)", holder.pid())), std::string::npos)
        << e.what();
  }
  // The CLI says the same in one line, exit 3 (refused: the target is busy; nothing written).
  const auto cli = run_ptsuite("device purge " + loop.path() + " --method zero-fill --allow-destructive");
  EXPECT_EQ(cli.exit_code, 3);
  EXPECT_NE(cli.err.find(fmt::format("pid {} (ptsuite_tests)", holder.pid())), std::string::npos) << cli.err;
}

TEST(DeviceOpeners, NothingForAPathThatIsNotABlockDevice) {
  EXPECT_TRUE(find_device_openers("/proc/self/status").processes.empty());
  EXPECT_NE(describe_device_openers({}).find("no process has it open"), std::string::npos);
}

}  // namespace
}  // namespace ptsuite::device
