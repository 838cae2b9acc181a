// The engine registry and each engine's own contract, called directly (without IoQueue) on an
// O_DIRECT file in /dev/shm.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

#include "engine/engines.hpp"
#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::engine {
namespace {

using units::k_ns_per_s;

constexpr uint64_t k_file_bytes = 1 << 20;

std::string unavailable_reason(const std::string& name) {
  for (const EngineInfo& info : list_engines()) {
    if (info.name == name) {
      return info.unavailable_reason;
    }
  }
  return "not registered";
}

bool libaio_available() { return unavailable_reason("libaio").empty(); }

TEST(EngineRegistry, ListsTheEnginesDefaultFirst) {
  const std::vector<EngineInfo> engines = list_engines();
  std::vector<std::string> names;
  for (const EngineInfo& info : engines) {
    names.push_back(info.name);
    EXPECT_FALSE(info.description.empty()) << info.name;
    // A reason exactly when unavailable.
    EXPECT_EQ(info.available, info.unavailable_reason.empty()) << info.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"libaio", "io_uring", "io_uring_poll", "sync", "null"}));
  EXPECT_EQ(engines[0].name, k_default_engine);
  EXPECT_TRUE(engines[3].available);
  EXPECT_TRUE(engines[4].available);
}

TEST(EngineRegistry, CreatesEachEngineByNameWithItsCapabilities) {
  const auto libaio = create_engine("libaio");
  EXPECT_EQ(libaio->name(), "libaio");
  EXPECT_TRUE(libaio->capabilities().asynchronous);
  EXPECT_TRUE(libaio->capabilities().performs_io);

  const auto sync = create_engine("sync");
  EXPECT_EQ(sync->name(), "sync");
  EXPECT_FALSE(sync->capabilities().asynchronous);
  EXPECT_TRUE(sync->capabilities().performs_io);

  for (const char* name : {"io_uring", "io_uring_poll"}) {
    const auto uring = create_engine(name);
    EXPECT_EQ(uring->name(), name);
    EXPECT_TRUE(uring->capabilities().asynchronous);
    EXPECT_TRUE(uring->capabilities().performs_io);
    EXPECT_EQ(uring->capabilities().max_queue_depth, 16384u);  // IORING_MAX_REG_BUFFERS
  }

  const auto null = create_engine("null");
  EXPECT_EQ(null->name(), "null");
  EXPECT_FALSE(null->capabilities().asynchronous);
  EXPECT_FALSE(null->capabilities().performs_io);
}

TEST(EngineRegistry, UnknownEngineIsAUsageErrorListingTheAvailableOnes) {
  try {
    create_engine("bogus");
    FAIL() << "created an unknown engine";
  } catch (const UsageError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("engine: ", 0), 0u) << message;  // the field; the CLI spells it --engine
    EXPECT_NE(message.find("bogus"), std::string::npos) << message;
    EXPECT_NE(message.find("available: libaio, io_uring, io_uring_poll, sync, null"), std::string::npos) << message;
  }
}

// io_setup() refuses a depth above fs.aio-max-nr with EAGAIN, the same error as when the
// system-wide limit is used up by other contexts.
TEST(LibaioEngine, IoSetupEagainNamesAioMaxNr) {
  if (!libaio_available()) {
    GTEST_SKIP() << "libaio unavailable here";
  }
  uint64_t aio_max_nr = 0;
  std::ifstream("/proc/sys/fs/aio-max-nr") >> aio_max_nr;
  // Above 2^22 the kernel answers EINVAL (overflow guard) instead of EAGAIN.
  if (aio_max_nr == 0 || aio_max_nr >= (1u << 22)) {
    GTEST_SKIP() << "fs.aio-max-nr is " << aio_max_nr << ": cannot provoke EAGAIN";
  }
  test_support::ShmTempDir dir;
  const Target target = Target::open_read_only(dir.create_file("t.img", k_file_bytes));
  const auto engine = create_engine("libaio");
  try {
    engine->open({.fd = target.fd(), .queue_depth = static_cast<uint32_t>(aio_max_nr + 1)});
    FAIL() << "io_setup accepted a depth above fs.aio-max-nr";
  } catch (const SystemError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("/proc/sys/fs/aio-max-nr"), std::string::npos) << message;
    EXPECT_NE(message.find("io_setup"), std::string::npos) << message;
  }
  engine->close();
}

// --- every engine's contract, on a file ------------------------------------------------------

class EngineContract : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    const std::string why_not = unavailable_reason(GetParam());
    if (!why_not.empty()) {
      GTEST_SKIP() << GetParam() << " unavailable here: " << why_not;
    }
    m_engine = create_engine(GetParam());
  }
  void TearDown() override {
    if (m_engine) {
      m_engine->close();
    }
  }

  // Submits until everything is accepted, then reaps until every completion is back.
  std::vector<IoCompletion> run(std::vector<IoRequest>& requests) {
    std::vector<IoRequest*> pointers;
    for (IoRequest& r : requests) {
      pointers.push_back(&r);
    }
    size_t submitted = 0;
    while (submitted < pointers.size()) {
      const int rc = m_engine->submit(std::span(pointers).subspan(submitted));
      EXPECT_GT(rc, 0);
      if (rc <= 0) {
        return {};
      }
      submitted += static_cast<size_t>(rc);
    }
    std::vector<IoCompletion> all;
    std::vector<IoCompletion> out(requests.size());
    while (all.size() < requests.size()) {
      const int rc = m_engine->reap(1, std::span(out).first(requests.size() - all.size()), k_ns_per_s);
      EXPECT_GE(rc, 0);
      if (rc < 0) {
        return all;
      }
      all.insert(all.end(), out.begin(), out.begin() + rc);
    }
    return all;
  }

  test_support::ShmTempDir m_dir;
  Target m_target = Target::open(test_support::writable(m_dir.create_file("t.img", k_file_bytes)).writable());
  std::unique_ptr<IoEngine> m_engine;
  alignas(4096) std::byte m_buffers[4][8192] = {};
};

TEST_P(EngineContract, EchoesEverySlotOnceWithTheFullLength) {
  m_engine->open({.fd = m_target.fd(), .queue_depth = 4});
  std::vector<IoRequest> requests;
  for (uint32_t i = 0; i < 4; ++i) {  // slots out of order, to see each one echoed
    requests.push_back({i % 2 ? IoOp::write : IoOp::read, 3 - i, 4096, uint64_t{i} * 4096, m_buffers[i]});
  }
  const std::vector<IoCompletion> done = run(requests);
  ASSERT_EQ(done.size(), 4u);
  std::set<uint32_t> slots;
  for (const IoCompletion& c : done) {
    slots.insert(c.slot);
    EXPECT_EQ(c.result, 4096) << "slot " << c.slot;
  }
  EXPECT_EQ(slots, (std::set<uint32_t>{0, 1, 2, 3}));
}

TEST_P(EngineContract, ReadPastTheEndIsReportedShortNotCompleted) {
  if (GetParam() == "null") {
    GTEST_SKIP() << "the null engine does no IO";
  }
  m_engine->open({.fd = m_target.fd(), .queue_depth = 1});
  std::vector<IoRequest> requests = {{IoOp::read, 0, 8192, k_file_bytes - 4096, m_buffers[0]}};
  const std::vector<IoCompletion> done = run(requests);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].result, 4096);
}

// What an engine holds in the kernel, as the process sees it: open descriptors (io_uring's
// ring) and AIO context mappings (libaio's io_setup maps "/[aio]"). The libaio engine's idle
// contexts belong to the process, not to an engine, so they are released first.
size_t kernel_resources() {
  release_libaio_idle_contexts();
  size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    ++count;
  }
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    count += line.find("[aio]") != std::string::npos ? 1 : 0;
  }
  return count;
}

// A second close() releases nothing twice (the resources are back to where they were before
// open(), and stay there) and leaves an engine that opens again and does IO.
TEST_P(EngineContract, CloseIsIdempotent) {
  const size_t before = kernel_resources();
  m_engine->open({.fd = m_target.fd(), .queue_depth = 2});
  m_engine->close();
  EXPECT_EQ(kernel_resources(), before);
  m_engine->close();
  EXPECT_EQ(kernel_resources(), before);
  m_engine->open({.fd = m_target.fd(), .queue_depth = 2});
  std::vector<IoRequest> requests = {{IoOp::read, 0, 4096, 0, m_buffers[0]}};
  const std::vector<IoCompletion> done = run(requests);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].result, 4096);
}

// A closed libaio engine with nothing in flight leaves its context idle for the next open()
// (io_destroy() waits an RCU grace period, tens of ms, at the end of every segment otherwise),
// and a reused context delivers only its own completions: the data read back is what the new
// engine wrote, each slot echoed once. With IO in flight, close() destroys the context (it
// waits for the IO), so nothing with a request in it is ever reused.
TEST(LibaioEngine, ReusesAnIdleContextOnlyWithNothingInFlight) {
  if (!libaio_available()) {
    GTEST_SKIP() << "libaio unavailable here";
  }
  test_support::ShmTempDir dir;
  const Target target = Target::open(test_support::writable(dir.create_file("t.img", k_file_bytes)).writable());
  release_libaio_idle_contexts();
  alignas(4096) static std::byte buffer[2][4096];
  const auto engine = create_engine("libaio");
  auto one_io = [&](IoOp op, std::byte* data, uint32_t slot) {
    IoRequest request{op, slot, 4096, 8192, data};
    IoRequest* pointer = &request;
    ASSERT_EQ(engine->submit(std::span(&pointer, 1)), 1);
    IoCompletion done[4];
    ASSERT_EQ(engine->reap(1, done, k_ns_per_s), 1);
    EXPECT_EQ(done[0].slot, slot);
    EXPECT_EQ(done[0].result, 4096);
  };
  engine->open({.fd = target.fd(), .queue_depth = 4});
  std::fill(std::begin(buffer[0]), std::end(buffer[0]), std::byte{0x5a});
  one_io(IoOp::write, buffer[0], 3);
  engine->close();
  EXPECT_EQ(libaio_idle_contexts(), 1u) << "a drained engine's context is kept";

  engine->open({.fd = target.fd(), .queue_depth = 2});  // fits in the idle depth-4 context
  EXPECT_EQ(libaio_idle_contexts(), 0u) << "open() takes the idle context";
  one_io(IoOp::read, buffer[1], 1);
  EXPECT_EQ(buffer[1][0], std::byte{0x5a});
  EXPECT_EQ(buffer[1][4095], std::byte{0x5a});

  IoRequest pending{IoOp::read, 0, 4096, 0, buffer[1]};  // left in flight: no reap
  IoRequest* pointer = &pending;
  ASSERT_EQ(engine->submit(std::span(&pointer, 1)), 1);
  engine->close();
  EXPECT_EQ(libaio_idle_contexts(), 0u) << "a context with IO in flight is destroyed, not kept";

  engine->open({.fd = target.fd(), .queue_depth = 1});  // a new context (none idle)
  engine->close();
  EXPECT_EQ(libaio_idle_contexts(), 1u);
  // Deeper than the idle one: the idle one is destroyed and a new one made, so the process
  // never holds more contexts than it had in use at once (each counts against fs.aio-max-nr).
  engine->open({.fd = target.fd(), .queue_depth = 8});
  EXPECT_EQ(libaio_idle_contexts(), 0u);
  engine->close();
  EXPECT_EQ(libaio_idle_contexts(), 1u);
  release_libaio_idle_contexts();
  EXPECT_EQ(libaio_idle_contexts(), 0u);
}

INSTANTIATE_TEST_SUITE_P(AllEngines, EngineContract, ::testing::Values("libaio", "io_uring", "sync", "null"),
                         [](const auto& param_info) { return param_info.param; });

// Engines that complete in submit() hold queue_depth completions; beyond that they accept
// only what fits, then nothing.
TEST(CompletingEngines, AcceptOnlyWhatTheirCompletionRingHolds) {
  test_support::ShmTempDir dir;
  const Target target = Target::open_read_only(dir.create_file("t.img", k_file_bytes));
  alignas(4096) static std::byte buffer[4096];
  for (const char* name : {"sync", "null"}) {
    const auto engine = create_engine(name);
    engine->open({.fd = target.fd(), .queue_depth = 2});
    std::vector<IoRequest> requests(3, IoRequest{IoOp::read, 0, 4096, 0, buffer});
    std::vector<IoRequest*> pointers = {&requests[0], &requests[1], &requests[2]};
    EXPECT_EQ(engine->submit(pointers), 2) << name;
    EXPECT_EQ(engine->submit(std::span(pointers).subspan(2)), -EAGAIN) << name;
    std::vector<IoCompletion> out(2);
    EXPECT_EQ(engine->reap(0, out, 0), 2) << name;
    EXPECT_EQ(engine->submit(std::span(pointers).subspan(2)), 1) << name;
    engine->close();
  }
}

}  // namespace
}  // namespace ptsuite::engine
