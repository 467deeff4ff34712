#!/bin/bash
# tools/deps.sh GROUP... - install the Debian packages a make target needs.
#
# Groups: core (build + unit tests), kernel (kernel tree, build, QEMU
# guest, and the runtimes the guest suite runs: util-linux unshare,
# bubblewrap, crun), fuzz (clang/libFuzzer), bench (gnuplot), lint
# (shellcheck).  Packages already installed are skipped, so a second run
# costs one dpkg query; apt-get update runs at most once per invocation.
set -euo pipefail

declare -A GROUP=(
	[core]="build-essential meson ninja-build pkg-config libcmocka-dev valgrind python3 groff-base"
	[kernel]="linux-source-6.12 ccache flex bison bc libelf-dev libssl-dev cpio xz-utils kmod busybox-static qemu-system-x86 util-linux iptables ebtables iproute2 sparse bubblewrap crun"
	[fuzz]="clang libclang-rt-14-dev llvm"
	[bench]="gnuplot-nox"
	[lint]="shellcheck"
)

want=()
for g in "$@"; do
	[ -n "${GROUP[$g]+x}" ] || { echo "deps.sh: unknown group '$g'" >&2; exit 2; }
	for p in ${GROUP[$g]}; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || want+=("$p")
	done
done
[ ${#want[@]} -eq 0 ] && exit 0

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "deps.sh: installing ${want[*]}"
export DEBIAN_FRONTEND=noninteractive
# One apt-get update per hour is enough across the targets of one make run.
stamp=${TMPDIR:-/tmp}/.libklog-apt-updated
if [ -z "$(find "$stamp" -mmin -60 2>/dev/null)" ]; then
	$SUDO apt-get update -qq
	touch "$stamp"
fi
$SUDO apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null
