// The kernel's boot ID, the host name and random nonces (util/host_boot.hpp).
#include <ptsuite/util/host_boot.hpp>

#include <fmt/format.h>
#include <sys/random.h>
#include <unistd.h>
#include <cerrno>
#include <climits>
#include <fstream>
#include <vector>

#include <ptsuite/util/error.hpp>

namespace ptsuite {

std::string host_boot_id() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  if (!std::getline(in, id)) return "";
  // A UUID is 36 characters; anything else is not a boot ID this code understands.
  return id.size() == 36 ? id : "";
}

std::string host_name() {
  char name[HOST_NAME_MAX + 1] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

std::string random_hex(size_t bytes) {
  std::vector<unsigned char> buffer(bytes);
  size_t filled = 0;
  while (filled < bytes) {
    const ssize_t n = ::getrandom(buffer.data() + filled, bytes - filled, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw SystemError("getrandom", errno);
    }
    filled += static_cast<size_t>(n);
  }
  std::string out;
  out.reserve(2 * bytes);
  for (const unsigned char b : buffer) out += fmt::format("{:02x}", b);
  return out;
}

}  // namespace ptsuite
