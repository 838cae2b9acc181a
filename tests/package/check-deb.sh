#!/usr/bin/env bash
# ctest package.deb: builds the Debian package with `cpack -G DEB` in the build directory and
# inspects it with dpkg-deb: its name and version, the library packages dpkg-shlibdeps found
# (Depends), what it installs, and that the packaged binary runs. Exit 77 (skipped) without
# dpkg-deb or dpkg-shlibdeps (apt-get install dpkg-dev).
set -euo pipefail
build=${1:?usage: check-deb.sh BUILD_DIR}
command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null || {
  echo "skipped: dpkg-deb / dpkg-shlibdeps missing (apt-get install dpkg-dev)"; exit 77; }
cd "$build"
rm -rf package
cpack -G DEB >cpack.log 2>&1 || { cat cpack.log; exit 1; }
deb=$(ls package/ptsuite_*.deb)
fail() { echo "package.deb: $*"; exit 1; }
info=$(dpkg-deb --field "$deb" Package Version Depends Recommends Section)
echo "$info"
grep -qx "Package: ptsuite" <<<"$info" || fail "not named ptsuite"
grep -q "^Version: [0-9]" <<<"$info" || fail "no version"
for lib in libpq5 libsqlite3-0 libssl3 libaio1 liburing2 libfmt9 libspdlog1.10 libstdc++6; do
  grep -q "^Depends:.*\b$lib\b" <<<"$info" || fail "Depends lacks $lib"
done
grep -q "^Recommends:.*slurm-client" <<<"$info" || fail "Recommends lacks slurm-client"
contents=$(dpkg-deb --contents "$deb")
for f in ./usr/bin/ptsuite ./usr/share/man/man1/ptsuite.1.gz ./usr/share/bash-completion/completions/ptsuite \
         ./usr/share/doc/ptsuite/fleet.md ./usr/share/doc/ptsuite/README.md; do
  grep -q " $f\$" <<<"$contents" || fail "does not install $f"
done
control=$(dpkg-deb --ctrl-tarfile "$deb" | tar -t)
grep -qx "./postinst" <<<"$control" || fail "no postinst (the fleet run root)"
scratch=$(mktemp -d /dev/shm/ptsuite-fleet-deb-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
dpkg-deb --extract "$deb" "$scratch"
version=$("$scratch/usr/bin/ptsuite" --version)
grep -q "^ptsuite " <<<"$version" || fail "the packaged binary does not run"
# Read whole before grep: `zcat | grep -q` under pipefail fails when grep stops reading first
# (zcat dies of SIGPIPE).
man_text=$(zcat "$scratch/usr/share/man/man1/ptsuite.1.gz")
grep -q "fleet" <<<"$man_text" || fail "the man page lacks the fleet command"
echo "package.deb: $deb ($(du -h "$deb" | cut -f1)) ok"
