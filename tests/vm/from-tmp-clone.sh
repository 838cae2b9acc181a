#!/usr/bin/env bash
# The VM suite does not depend on where the clone lives: the guest masks /tmp, /root, /var/tmp,
# /run and /dev/shm of the shared host root with its own tmpfs, and a clone there (root's home
# is /root) used to be invisible to it ("suite.sh: No such file or directory"). This copies
# tests/vm into a fresh directory under /tmp, as a clone there would hold it, and runs one quick
# check through it (ctest entry vm.from_clone_under_tmp; exit codes as tests/vm/run.sh).
#   tests/vm/from-tmp-clone.sh --ptsuite BUILD/ptsuite --cache BUILD/vm-cache
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ptsuite="" cache=""
while [ $# -gt 0 ]; do
  case $1 in
    --ptsuite) ptsuite=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    *) echo "from-tmp-clone: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$ptsuite" ] && [ -n "$cache" ] || { echo "from-tmp-clone: --ptsuite and --cache are required" >&2; exit 2; }
clone=$(mktemp -d /tmp/ptsuite-clone.XXXXXX)
trap 'rm -rf "$clone" || true' EXIT
mkdir -p "$clone/tests"
cp -r "$here" "$clone/tests/vm"
"$clone/tests/vm/run.sh" --out "$clone/vm-out" --ptsuite "$ptsuite" --cache "$cache" --only 'identity.nvme' --timeout 600
