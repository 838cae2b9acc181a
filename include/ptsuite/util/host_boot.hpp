// Contract: which host, and which boot of it, this process runs in. host_boot_id() returns the
// kernel's random boot ID (/proc/sys/kernel/random/boot_id: a UUID drawn at every boot), or ""
// when it cannot be read. Two sessions of a run with different boot IDs had a host restart (a
// reboot or a power loss) between them; the same ID means the host stayed up (kill -9, Ctrl-C).
// host_name() is the kernel's node name (gethostname(2), the UTS namespace's), "" when unset.
// random_hex(n) is n bytes from the kernel's CSPRNG (getrandom(2)) as 2n lower-case hex
// digits: a nonce no other run draws (a run's id, pts/run.hpp); SystemError when the kernel
// cannot supply them. All thread-safe.
#pragma once

#include <cstddef>
#include <string>

namespace ptsuite {

std::string host_boot_id();
std::string host_name();
std::string random_hex(size_t bytes);

}  // namespace ptsuite
