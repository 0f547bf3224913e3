#!/usr/bin/env bash
# Installs the Debian packages the test suite needs (listed in packages.txt beside this file),
# so `npm test` works on a fresh machine with nothing installed by hand. Each line of the list
# is "<package> <path-that-proves-it-is-installed>"; a package already present costs nothing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
missing=()
while read -r pkg probe; do
  [ -z "${pkg:-}" ] && continue
  case "$pkg" in \#*) continue ;; esac
  [ -e "$probe" ] || missing+=("$pkg")
done < "$here/packages.txt"
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing Debian packages for the tests: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
