// Contract: which boot of the host this process runs in. host_boot_id() returns the kernel's
// random boot ID (/proc/sys/kernel/random/boot_id: a UUID drawn at every boot), or "" when it
// cannot be read. Two sessions of a run with different boot IDs had a host restart (a reboot or
// a power loss) between them; the same ID means the host stayed up (kill -9, Ctrl-C).
#pragma once

#include <string>

namespace ptsuite {

std::string host_boot_id();

}  // namespace ptsuite
