#include <ptsuite/util/line_reader.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <ptsuite/util/error.hpp>

namespace ptsuite {

namespace {

constexpr size_t k_read_bytes = 1 << 16;

const char* kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a pipe";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a file";
}

std::string line_size_text(size_t bytes) {
  return bytes >= (1U << 20) ? fmt::format("{} MiB", bytes >> 20) : fmt::format("{} KiB", bytes >> 10);
}

}  // namespace

UniqueFd open_regular_file(const std::string& path, const std::string& source) {
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever before fstat.
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) throw UsageError(source, fmt::format("cannot read {}: {}", path, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    throw UsageError(source, fmt::format("cannot read {}: {}", path, std::strerror(errno)));
  }
  if (!S_ISREG(st.st_mode)) {
    throw UsageError(source, fmt::format("{} is not a regular file ({}): save the trace to a file first "
                                         "(e.g. `cat {} > trace.file`) and give that file",
                                         path, kind_of(st.st_mode), path));
  }
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags >= 0) ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

LineReader::LineReader(const std::string& path, size_t max_line_bytes, std::string source)
    : m_fd(open_regular_file(path, source)),
      m_path(path),
      m_source(std::move(source)),
      m_max_line_bytes(max_line_bytes),
      m_buffer(std::max(max_line_bytes + 1, k_read_bytes) + k_read_bytes) {}

// Moves the unread bytes to the front and reads more behind them; false at the end of the file.
bool LineReader::fill() {
  if (m_eof) return false;
  if (m_begin > 0) {
    std::memmove(m_buffer.data(), m_buffer.data() + m_begin, m_end - m_begin);
    m_end -= m_begin;
    m_begin = 0;
  }
  for (;;) {
    const ssize_t n = ::read(m_fd.get(), m_buffer.data() + m_end, m_buffer.size() - m_end);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw UsageError(m_source, fmt::format("cannot read {}: {}", m_path, std::strerror(errno)));
    if (n == 0) m_eof = true;
    m_end += static_cast<size_t>(n);
    return n > 0;
  }
}

bool LineReader::next(std::string& line) {
  size_t scanned = m_begin;
  for (;;) {
    const char* start = m_buffer.data() + scanned;
    const auto* nl = static_cast<const char*>(std::memchr(start, '\n', m_end - scanned));
    if (nl != nullptr) {
      const auto at = static_cast<size_t>(nl - m_buffer.data());
      if (at - m_begin > m_max_line_bytes) break;
      line.assign(m_buffer.data() + m_begin, at - m_begin);
      m_begin = at + 1;
      ++m_line;
      return true;
    }
    if (m_end - m_begin > m_max_line_bytes) break;
    const size_t unread = m_end - m_begin;
    if (!fill()) {
      if (unread == 0) return false;
      line.assign(m_buffer.data() + m_begin, unread);  // a last line without '\n'
      m_begin = m_end;
      ++m_line;
      return true;
    }
    scanned = unread;  // after fill() the unread bytes start at 0
  }
  throw UsageError(m_source, fmt::format("{}:{}: a line longer than {}, more than any line of this kind can be: "
                                         "check that the file is the trace you meant",
                                         m_path, m_line + 1, line_size_text(m_max_line_bytes)));
}

}  // namespace ptsuite
