#include <ptsuite/util/fd.hpp>

#include <unistd.h>

namespace ptsuite {

void UniqueFd::reset(int fd) noexcept {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
  m_fd = fd;
}

}  // namespace ptsuite
