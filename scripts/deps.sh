#!/bin/sh
# scripts/deps.sh - the Debian packages hangdx needs to build and test.
# As root it installs the missing ones (apt-get, non-interactive); as
# anyone else it prints the apt-get line to run.  Why each is there:
# docs/ARCHITECTURE.md, "Dependencies".
PKGS="gcc make time man-db valgrind clang libclang-rt-14-dev pkg-config graphviz libyaml-dev libcmocka-dev libarchive-dev zlib1g-dev libzstd-dev zstd python3 spin chromium chromium-driver fonts-dejavu-core gettext fonts-wqy-microhei libopenmpi-dev openmpi-bin"
missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
	echo "deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq || exit 1
	apt-get install -y -qq --no-install-recommends $missing > /dev/null || exit 1
else
	echo "deps: missing packages; run as root:"
	echo "  apt-get install -y$missing"
	exit 1
fi
