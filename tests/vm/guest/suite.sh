#!/bin/bash
# Runs inside the guest (chroot of the host's root; see tests/vm/guest/init). $1: the results
# share. Environment from the kernel command line: PTSUITE (the host-built binary),
# PTSUITE_VM_ONLY (a glob over check names), PTSUITE_REPO.
OUT=$1
exec >"$OUT/guest.log" 2>&1
set -u
export OUT
export XDG_DATA_HOME=/root/.local/share
here=$(dirname "$0")
# shellcheck source=lib.sh
source "$here/lib.sh"
# Run ptsuite from the guest's RAM: a binary on a 9p share is paged in over virtio on every start.
cp "$PTSUITE" /tmp/ptsuite && PTSUITE=/tmp/ptsuite
echo "guest: kernel $(uname -r), ptsuite $("$PTSUITE" --version 2>&1 | head -n 1)"
ls -l /dev/nvme* /dev/sd* 2>&1
for f in "$here"/checks/*.sh; do
  # shellcheck source=/dev/null
  source "$f"
done
touch "$OUT/suite.done"
