// The `io_uring` and `io_uring_poll` engines (Debian's liburing): one ring per worker thread,
// on the O_DIRECT descriptor registered as fixed file 0 and the IoQueue's slot buffers
// registered as fixed buffers (slot i = buffer index i), so the kernel neither looks up the
// file nor pins the buffer's pages per IO.
//
// Ring: IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN (completion work runs when this
// thread asks for events, not as interrupting task work), created disabled (IORING_SETUP_
// R_DISABLED) so that registration can happen on the thread that opens the queue and the ring
// binds to the IO thread in bind_to_current_thread() (or lazily in the first submit()).
// `io_uring_poll` sets IORING_SETUP_IOPOLL instead of DEFER_TASKRUN: completions are busy-polled
// from the device's poll queues by the waiting thread (one CPU per thread at 100 %). It is
// refused in open() unless the target is a block device whose queue polls
// (/sys/dev/block/M:m/queue/io_poll = 1, e.g. NVMe with the nvme module's poll_queues > 0);
// polling a device without poll queues would spin without gaining anything.
//
// submit(): one SQE per request, then io_uring_submit_and_get_events() (one io_uring_enter with
// GETEVENTS and no wait), which also collects completions that are already done, so a device
// that completes inside submission (zram, a page-cache hit) is reaped without another system
// call. A partial submission leaves unconsumed SQEs in the ring; they are taken back (the SQ
// tail is rewound to the kernel's head, safe because only io_uring_enter reads the SQ without
// SQPOLL) so that "the rest was not looked at" holds as in libaio.
// reap(): completions already in the CQ ring are read without a system call; only when fewer
// than min_completions are there does it wait (io_uring_wait_cqes with the timeout as an
// extended argument: one io_uring_enter).
// close(): io_uring_queue_exit(). Requests still in flight (only after a failed reap) are
// cancelled by the kernel, and their memory stays pinned until they finish (registered
// buffers by the ring, others by the bio), so the caller may unmap its arena afterwards.
#include <fmt/format.h>
#include <liburing.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include <ptsuite/util/error.hpp>

#include "engine/engines.hpp"

namespace ptsuite::engine {

namespace {

constexpr int k_fixed_file_index = 0;
// The kernel's limits: IORING_MAX_ENTRIES (32768 SQ entries) and IORING_MAX_REG_BUFFERS
// (16384 registered buffers, one per slot here); the smaller one bounds the queue depth.
constexpr uint32_t k_max_queue_depth = 16384;

std::string setup_failure(uint32_t entries, int errnum) {
  switch (errnum) {
    case EPERM:
      return fmt::format(
          "io_uring_setup({}) failed: io_uring is disabled here (sysctl kernel.io_uring_disabled) or blocked by "
          "a container/seccomp policy; enable it or use --engine libaio",
          entries);
    case ENOSYS:
      return fmt::format("io_uring_setup({}) failed: the kernel has no io_uring (CONFIG_IO_URING); use --engine libaio",
                         entries);
    case ENOMEM:
      return fmt::format(
          "io_uring_setup({}) failed: out of memory for the rings (locked-memory limit, ulimit -l); raise it, "
          "run as root, or use --engine libaio",
          entries);
    case EINVAL:
      return fmt::format(
          "io_uring_setup({}) failed: the kernel lacks the ring flags ptsuite needs (Linux 6.1 or later); use "
          "--engine libaio",
          entries);
    default:
      return fmt::format("io_uring_setup({}) failed: {}; use --engine libaio", entries, std::strerror(errnum));
  }
}

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// Empty when the block device behind `fd` completes polled IO, else why not.
std::string poll_unsupported_reason(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode)) {
    return "polled completion needs a block device with poll queues; this target is a file";
  }
  const std::string dev = fmt::format("/sys/dev/block/{}:{}", major(st.st_rdev), minor(st.st_rdev));
  std::string io_poll = dev + "/queue/io_poll";
  if (!std::filesystem::exists(io_poll)) {
    io_poll = dev + "/../queue/io_poll";  // a partition: its disk's queue
  }
  const std::string value = read_first_line(io_poll);
  if (value == "1") {
    return {};
  }
  return fmt::format(
      "this device has no polled completion queues ({} reads \"{}\"; NVMe gets them with the nvme module's "
      "poll_queues parameter)",
      io_poll, value.empty() ? "missing" : value);
}

// IORING_REGISTER_ENABLE_RINGS: the ring starts accepting submissions and, being single-issuer,
// binds to the calling thread. Debian 12's liburing 2.3 declares io_uring_enable_rings() but
// does not export it from the shared library, hence the system call. Returns 0 or -errno.
int enable_rings(const io_uring& ring) noexcept {
  const long rc = ::syscall(__NR_io_uring_register, ring.ring_fd, IORING_REGISTER_ENABLE_RINGS, nullptr, 0);
  return rc < 0 ? -errno : 0;
}

class IoUringEngine final : public IoEngine {
 public:
  explicit IoUringEngine(bool polled) : m_polled(polled) {}
  ~IoUringEngine() override { close(); }

  [[nodiscard]] std::string_view name() const noexcept override { return m_polled ? "io_uring_poll" : "io_uring"; }
  [[nodiscard]] EngineCapabilities capabilities() const noexcept override {
    return {.asynchronous = true, .performs_io = true, .max_queue_depth = k_max_queue_depth};
  }

  void open(const EngineSetup& setup) override {
    close();
    if (m_polled) {
      const std::string reason = poll_unsupported_reason(setup.fd);
      if (!reason.empty()) {
        throw UsageError("--engine", "io_uring_poll: " + reason + "; use --engine io_uring");
      }
    }
    init_ring(setup.queue_depth);
    try {
      register_resources(setup);
    } catch (...) {
      close();
      throw;
    }
    m_cqes.assign(setup.queue_depth, nullptr);
  }

  void bind_to_current_thread() noexcept override {
    if (m_open && !m_enabled && enable_rings(m_ring) == 0) {
      m_enabled = true;
    }
  }

  int submit(std::span<IoRequest* const> requests) noexcept override {
    if (!m_enabled) {
      const int rc = enable_rings(m_ring);
      if (rc < 0) {
        return rc;
      }
      m_enabled = true;
    }
    const auto count = static_cast<unsigned>(std::min<size_t>(requests.size(), io_uring_sq_space_left(&m_ring)));
    if (count == 0) {
      return -EAGAIN;
    }
    for (unsigned i = 0; i < count; ++i) {
      prepare(io_uring_get_sqe(&m_ring), *requests[i]);
    }
    const int rc = io_uring_submit_and_get_events(&m_ring);
    if (rc < static_cast<int>(count)) {
      take_back_unconsumed();
    }
    // rc >= 0: the first rc requests belong to the kernel (one whose submission failed still
    //   completes, with -errno in its CQE). -EAGAIN / -ENOMEM: nothing consumed, the kernel is
    //   short of request memory; -EBUSY: the CQ would overflow (never with <= queue_depth in
    //   flight, but reaping is the cure): all mapped to -EAGAIN. -EINTR: call again.
    if (rc == -ENOMEM || rc == -EBUSY) {
      return -EAGAIN;
    }
    return rc;
  }

  int reap(uint32_t min_completions, std::span<IoCompletion> out, uint64_t timeout_ns) noexcept override {
    const auto capacity = static_cast<unsigned>(std::min(out.size(), m_cqes.size()));
    const unsigned wanted = std::min<unsigned>(min_completions, capacity);
    unsigned got = io_uring_peek_batch_cqe(&m_ring, m_cqes.data(), capacity);
    if (got < wanted || got == 0) {  // none visible: with min 0, one non-blocking look (polls or runs deferred work)
      __kernel_timespec timeout{};
      timeout.tv_sec = static_cast<long long>(timeout_ns / 1'000'000'000ULL);
      timeout.tv_nsec = static_cast<long long>(timeout_ns % 1'000'000'000ULL);
      io_uring_cqe* first = nullptr;
      // -ETIME: the timeout passed with fewer than `wanted` (return what there is, like
      // io_getevents); -EINTR: a signal, nothing lost.
      __kernel_timespec* limit = timeout_ns == k_no_timeout ? nullptr : &timeout;
      const int rc =
          wanted > 0 ? io_uring_wait_cqes(&m_ring, &first, wanted, limit, nullptr) : io_uring_get_events(&m_ring);
      got = io_uring_peek_batch_cqe(&m_ring, m_cqes.data(), capacity);
      if (got == 0 && rc < 0 && rc != -ETIME) {
        return rc;
      }
    }
    for (unsigned i = 0; i < got; ++i) {
      out[i].slot = static_cast<uint32_t>(io_uring_cqe_get_data64(m_cqes[i]));
      out[i].result = m_cqes[i]->res;
    }
    io_uring_cq_advance(&m_ring, got);
    return static_cast<int>(got);
  }

  void close() noexcept override {
    if (m_open) {
      io_uring_queue_exit(&m_ring);
      m_open = false;
      m_enabled = false;
      m_fixed_buffers = false;
    }
  }

 private:
  void init_ring(uint32_t queue_depth) {
    io_uring_params params{};
    params.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_R_DISABLED |
                   (m_polled ? IORING_SETUP_IOPOLL : IORING_SETUP_DEFER_TASKRUN);
    const int rc = io_uring_queue_init_params(queue_depth, &m_ring, &params);
    if (rc < 0) {
      throw SystemError(setup_failure(queue_depth, -rc));
    }
    m_open = true;
    if ((params.features & IORING_FEAT_EXT_ARG) == 0) {
      close();
      throw SystemError(setup_failure(queue_depth, EINVAL));
    }
  }

  void register_resources(const EngineSetup& setup) {
    int rc = io_uring_register_files(&m_ring, &setup.fd, 1);
    if (rc < 0) {
      throw SystemError(fmt::format("io_uring_register_files failed: {}; use --engine libaio", std::strerror(-rc)));
    }
    if (setup.buffer_base == nullptr) {
      return;  // buffers of the caller's own (engine tests): plain reads and writes
    }
    std::vector<iovec> buffers(setup.queue_depth);
    for (uint32_t i = 0; i < setup.queue_depth; ++i) {
      buffers[i] = {setup.buffer_base + uint64_t{i} * setup.buffer_stride_bytes, setup.buffer_stride_bytes};
    }
    rc = io_uring_register_buffers(&m_ring, buffers.data(), setup.queue_depth);
    if (rc < 0) {
      throw SystemError(fmt::format(
          "io_uring_register_buffers ({} buffers of {} bytes) failed: {}; raise the locked-memory limit (ulimit -l) "
          "or run as root, or use --engine libaio",
          setup.queue_depth, setup.buffer_stride_bytes, std::strerror(-rc)));
    }
    m_fixed_buffers = true;
  }

  void prepare(io_uring_sqe* sqe, const IoRequest& request) const noexcept {
    const bool read = request.op == IoOp::read;
    if (m_fixed_buffers) {
      const int index = static_cast<int>(request.slot);
      if (read) {
        io_uring_prep_read_fixed(sqe, k_fixed_file_index, request.buffer, request.length_bytes, request.offset_bytes,
                                 index);
      } else {
        io_uring_prep_write_fixed(sqe, k_fixed_file_index, request.buffer, request.length_bytes, request.offset_bytes,
                                  index);
      }
    } else if (read) {
      io_uring_prep_read(sqe, k_fixed_file_index, request.buffer, request.length_bytes, request.offset_bytes);
    } else {
      io_uring_prep_write(sqe, k_fixed_file_index, request.buffer, request.length_bytes, request.offset_bytes);
    }
    sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data64(sqe, request.slot);
  }

  // Rewinds the SQ tail to the kernel's head: SQEs prepared but not consumed by the last
  // io_uring_enter are dropped, as if never queued.
  void take_back_unconsumed() noexcept {
    io_uring_sq& sq = m_ring.sq;
    const unsigned head = io_uring_smp_load_acquire(sq.khead);
    sq.sqe_head = head;
    sq.sqe_tail = head;
    IO_URING_WRITE_ONCE(*sq.ktail, head);
  }

  bool m_polled;
  io_uring m_ring{};
  bool m_open = false;
  bool m_enabled = false;
  bool m_fixed_buffers = false;
  std::vector<io_uring_cqe*> m_cqes;
};

}  // namespace

std::unique_ptr<IoEngine> make_io_uring_engine() { return std::make_unique<IoUringEngine>(false); }
std::unique_ptr<IoEngine> make_io_uring_poll_engine() { return std::make_unique<IoUringEngine>(true); }

std::string io_uring_unavailable_reason() {
  io_uring ring{};
  io_uring_params params{};
  params.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED;
  const int rc = io_uring_queue_init_params(1, &ring, &params);
  if (rc < 0) {
    return setup_failure(1, -rc);
  }
  const bool ext_arg = (params.features & IORING_FEAT_EXT_ARG) != 0;
  io_uring_queue_exit(&ring);
  return ext_arg ? std::string() : setup_failure(1, EINVAL);
}

}  // namespace ptsuite::engine
