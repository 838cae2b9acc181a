// Target::open(): O_DIRECT always, geometry of regular files, and the user-facing errors.
// Block-device geometry is covered on loop devices in tests/integration/engine_loop_test.cpp.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <string>

#include <ptsuite/engine/target.hpp>
#include <ptsuite/util/error.hpp>

#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::engine {
namespace {

using test_support::ShmTempDir;

// Runs Target::open and returns the UsageError text, failing the test on anything else.
std::string usage_error_of(const std::string& path, Target::Access access = Target::Access::read_only) {
  try {
    // Writing needs the target gate's token, which a path that is no target never gets.
    if (access == Target::Access::read_write) {
      (void)Target::open(test_support::writable(path).writable());
    } else {
      (void)Target::open_read_only(path);
    }
  } catch (const UsageError& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected UsageError, got: " << e.what();
    return {};
  }
  ADD_FAILURE() << "opened " << path;
  return {};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Target, OpensARegularFileWithODirectAndReportsItsGeometry) {
  ShmTempDir dir;
  const std::string path = dir.create_file("t.img", 3 << 20);
  const Target target = Target::open(test_support::writable(path).writable());

  EXPECT_EQ(target.path(), path);
  EXPECT_EQ(target.kind(), TargetKind::regular_file);
  EXPECT_EQ(target.access(), Target::Access::read_write);
  const int flags = ::fcntl(target.fd(), F_GETFL);
  EXPECT_TRUE(flags & O_DIRECT);
  EXPECT_EQ(flags & O_ACCMODE, O_RDWR);
  EXPECT_TRUE(::fcntl(target.fd(), F_GETFD) & FD_CLOEXEC);

  const TargetGeometry& g = target.geometry();
  EXPECT_EQ(g.capacity_bytes, 3u << 20);
  // The kernel's STATX_DIOALIGN when the filesystem reports it, else 512.
  struct statx sx {};
  ASSERT_EQ(::statx(AT_FDCWD, path.c_str(), 0, STATX_DIOALIGN, &sx), 0);
  const bool reported = (sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_offset_align != 0;
  EXPECT_EQ(g.logical_block_bytes, reported ? sx.stx_dio_offset_align : 512u);
  EXPECT_EQ(g.memory_alignment_bytes, reported ? sx.stx_dio_mem_align : 512u);
  EXPECT_EQ(g.physical_block_bytes, g.logical_block_bytes);
}

TEST(Target, ReadOnlyTargetsCannotBeWrittenThrough) {
  ShmTempDir dir;
  const Target target = Target::open_read_only(dir.create_file("t.img", 1 << 20));
  EXPECT_EQ(::fcntl(target.fd(), F_GETFL) & O_ACCMODE, O_RDONLY);
  alignas(4096) static char block[4096] = {};
  EXPECT_EQ(::pwrite(target.fd(), block, sizeof(block), 0), -1);
  EXPECT_EQ(errno, EBADF);
}

TEST(Target, MissingPathIsAUsageError) {
  ShmTempDir dir;
  const std::string message = usage_error_of(dir.file("does-not-exist"));
  EXPECT_TRUE(contains(message, "target: ")) << message;
  EXPECT_TRUE(contains(message, "does-not-exist")) << message;
  EXPECT_TRUE(contains(message, "no such file")) << message;
}

TEST(Target, DirectoriesFifosAndCharacterDevicesAreRefused) {
  ShmTempDir dir;
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // A FIFO would block in open(): refusing it before opening is what keeps this test finite.
  for (const std::string& path : {dir.path(), fifo, std::string("/dev/null")}) {
    const std::string message = usage_error_of(path, Target::Access::read_write);
    EXPECT_TRUE(contains(message, "neither a block device nor a regular file")) << message;
  }
}

TEST(Target, EmptyFileIsAUsageError) {
  ShmTempDir dir;
  const std::string message = usage_error_of(dir.create_file("empty.img", 0));
  EXPECT_TRUE(contains(message, "empty")) << message;
}

TEST(Target, FileSmallerThanOneBlockIsAUsageError) {
  ShmTempDir dir;
  const std::string message = usage_error_of(dir.create_file("tiny.img", 100));
  EXPECT_TRUE(contains(message, "empty (100 bytes")) << message;
}

// procfs has no direct-IO support, so open(O_DIRECT) fails there with EINVAL exactly as on a
// filesystem that refuses it, while a buffered open works.
TEST(Target, FilesystemRefusingODirectIsNamedAndNeverFallsBackToBufferedIo) {
  const std::string message = usage_error_of("/proc/self/status");
  EXPECT_TRUE(contains(message, "does not support O_DIRECT")) << message;
  EXPECT_TRUE(contains(message, "never falls back to buffered IO")) << message;
  EXPECT_TRUE(contains(message, "target: ")) << message;
}

// Permission checks do not apply to root, so the open runs in a child that dropped to an
// unprivileged user (or directly when the tests already run unprivileged).
TEST(Target, PermissionDeniedIsAUsageError) {
  ShmTempDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  const std::string path = dir.create_file("private.img", 1 << 20);
  ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
  if (::geteuid() != 0) {
    ASSERT_EQ(::chmod(path.c_str(), 0), 0);
    EXPECT_TRUE(contains(usage_error_of(path), "permission denied"));
    return;
  }
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    constexpr uid_t k_nobody = 65534;
    if (::setresgid(k_nobody, k_nobody, k_nobody) != 0 || ::setresuid(k_nobody, k_nobody, k_nobody) != 0) {
      ::_exit(3);
    }
    try {
      Target::open_read_only(path);
    } catch (const UsageError& e) {
      ::_exit(contains(e.what(), "permission denied") && contains(e.what(), "target: ") ? 0 : 1);
    } catch (...) {
      ::_exit(2);
    }
    ::_exit(4);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: wrong message, 2: wrong exception, 3: setresuid failed, 4: opened";
}

TEST(Target, OpeningNeverWrites) {
  ShmTempDir dir;
  const std::string path = dir.create_file("t.img", 1 << 20);
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  { const Target target = Target::open(test_support::writable(path).writable()); }
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(after.st_size, before.st_size);
  EXPECT_EQ(after.st_blocks, 0);  // still sparse: not a byte was written
  EXPECT_EQ(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
  EXPECT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
}

}  // namespace
}  // namespace ptsuite::engine
