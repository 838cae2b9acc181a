// The kernel's boot ID (util/host_boot.hpp).
#include <ptsuite/util/host_boot.hpp>

#include <fstream>

namespace ptsuite {

std::string host_boot_id() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  if (!std::getline(in, id)) return "";
  // A UUID is 36 characters; anything else is not a boot ID this code understands.
  return id.size() == 36 ? id : "";
}

}  // namespace ptsuite
