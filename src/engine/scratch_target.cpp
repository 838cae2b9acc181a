#include <ptsuite/engine/scratch_target.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <utility>
#include <vector>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::engine {

namespace {

constexpr uint64_t k_size_granule_bytes = 4096;
constexpr size_t k_fill_chunk_bytes = 1 << 20;

// splitmix64 (Steele, Lea, Flood 2014). The workload module has its own generators, but the
// engine layer sits below it and filling needs nothing more than fast, seeded, incompressible
// bytes.
uint64_t splitmix64(uint64_t& state) noexcept {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void write_all(int fd, const std::byte* data, size_t length, uint64_t offset, const std::string& path) {
  while (length > 0) {
    const ssize_t done = ::pwrite(fd, data, length, static_cast<off_t>(offset));
    if (done < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw SystemError(fmt::format("filling {}", path), errno);
    }
    data += done;
    length -= static_cast<size_t>(done);
    offset += static_cast<uint64_t>(done);
  }
}

void fill_random(int fd, uint64_t size_bytes, uint64_t seed, const std::string& path) {
  std::vector<uint64_t> chunk(k_fill_chunk_bytes / sizeof(uint64_t));
  uint64_t state = seed;
  for (uint64_t offset = 0; offset < size_bytes; offset += k_fill_chunk_bytes) {
    for (uint64_t& word : chunk) {
      word = splitmix64(state);
    }
    const auto length = static_cast<size_t>(std::min<uint64_t>(k_fill_chunk_bytes, size_bytes - offset));
    write_all(fd, reinterpret_cast<const std::byte*>(chunk.data()), length, offset, path);
  }
}

}  // namespace

ScratchTarget ScratchTarget::create(uint64_t size_bytes, bool prefer_loop, const ScratchOptions& options) {
  if (size_bytes == 0) {
    throw UsageError("--size", "a scratch target needs at least one byte");
  }
  ScratchTarget target;
  target.m_size_bytes = (size_bytes + k_size_granule_bytes - 1) / k_size_granule_bytes * k_size_granule_bytes;

  // The pid in the name tells whose leftover a stray file is.
  std::string name = fmt::format("{}/ptsuite-scratch-{}-XXXXXX", options.directory, ::getpid());
  target.m_file_fd.reset(::mkostemp(name.data(), O_CLOEXEC));
  if (!target.m_file_fd.valid()) {
    throw SystemError(fmt::format("creating a scratch file in {}", options.directory), errno);
  }
  target.m_file_path = name;  // from here on release() removes it, whatever happens below
  if (::ftruncate(target.m_file_fd.get(), static_cast<off_t>(target.m_size_bytes)) != 0) {
    throw SystemError(fmt::format("sizing {}", name), errno);
  }
  if (options.fill_random) {
    fill_random(target.m_file_fd.get(), target.m_size_bytes, options.fill_seed, name);
  }
  const std::string size_text = units::format_size_human(target.m_size_bytes);

  std::string no_loop_reason = prefer_loop ? LoopDevice::unavailable_reason() : "not requested";
  if (no_loop_reason.empty()) {
    try {
      LoopOptions loop_options;
      loop_options.logical_block_bytes = options.loop_logical_block_bytes;
      target.m_loop.emplace(LoopDevice::attach(target.m_file_fd.get(), loop_options));
    } catch (const Error& e) {
      no_loop_reason = e.what();
    }
  }
  if (target.m_loop) {
    // The loop device now holds the file: drop the name so nothing can outlive us.
    ::unlink(target.m_file_path.c_str());
    target.m_file_path.clear();
    target.m_kind = ScratchKind::loop_device;
    target.m_path = target.m_loop->path();
    target.m_description =
        fmt::format("loop device {} ({} in {}, {}, {}-byte blocks)", target.m_path, size_text, options.directory,
                    target.m_loop->direct_io() ? "direct IO" : "buffered", options.loop_logical_block_bytes);
  } else {
    target.m_kind = ScratchKind::file;
    target.m_path = name;
    target.m_description = fmt::format("O_DIRECT file {} ({}; no loop device: {})", name, size_text, no_loop_reason);
  }
  return target;
}

ScratchTarget::ScratchTarget(ScratchTarget&& other) noexcept
    : m_kind(other.m_kind),
      m_path(std::move(other.m_path)),
      m_file_path(std::exchange(other.m_file_path, {})),
      m_file_fd(std::move(other.m_file_fd)),
      m_loop(std::exchange(other.m_loop, std::nullopt)),
      m_size_bytes(other.m_size_bytes),
      m_description(std::move(other.m_description)) {}

ScratchTarget& ScratchTarget::operator=(ScratchTarget&& other) noexcept {
  if (this != &other) {
    release();
    m_kind = other.m_kind;
    m_path = std::move(other.m_path);
    m_file_path = std::exchange(other.m_file_path, {});
    m_file_fd = std::move(other.m_file_fd);
    m_loop = std::exchange(other.m_loop, std::nullopt);
    m_size_bytes = other.m_size_bytes;
    m_description = std::move(other.m_description);
  }
  return *this;
}

void ScratchTarget::release() noexcept {
  m_loop.reset();  // detaches
  if (!m_file_path.empty()) {
    ::unlink(m_file_path.c_str());
    m_file_path.clear();
  }
  m_file_fd.reset();
}

}  // namespace ptsuite::engine
