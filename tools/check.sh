#!/bin/bash
# tools/check.sh - make check: every test tier, in two lanes.
#
# The machine has two cores and most tiers use one: a QEMU guest runs on
# one host thread (TCG, one vCPU), valgrind and the fuzzers are single
# threaded.  So the tiers run in two lanes at once:
#
#   kernel  the debug kernel (lockdep, KASAN, kmemleak, fault
#           injection), then the suites on it: the longest chain, so it
#           starts at once
#   user    the user-space tiers, then the patched kernel (its build
#           waits for the debug kernel's) and the suites on it
#
# The kernel builds themselves take both cores and run one at a time
# (kernel/build-kernel.sh holds a lock); runs of the guest suites on two
# kernels write files of their own (tests/guest/run.sh).  Each lane's
# lines are prefixed with its name; each tier prints how long it took.
# Packages are installed first, once, before the lanes start.
#
# Exit status: 0 when both lanes passed, else 1 (the failing tier is
# named at the end).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
REPO=$(pwd)

KERNEL_LANE="kernel-debug guest-debug guest-reliability-debug"
USER_LANE="shellcheck unit valgrind sanitize kcompile checkpatch \
bench-smoke fuzz kernel guest host-unchanged guest-reliability"

tools/deps.sh core kernel fuzz lint || exit 1
# shellcheck source=qemu/lib.sh
. "$REPO/qemu/lib.sh"
ensure_ksrc

status=$(mktemp -d)
trap 'rm -rf "$status"' EXIT

# lane NAME TARGET... - make each target in turn; stop at the first
# failure and record it.
lane() {
	local name=$1 t t0
	shift
	for t in "$@"; do
		t0=$(date +%s)
		echo "=== $t"
		if ! make --no-print-directory "$t"; then
			echo "=== $t FAILED after $(($(date +%s) - t0)) s"
			echo "$t" >"$status/$name"
			return 1
		fi
		echo "=== $t passed in $(($(date +%s) - t0)) s"
	done
}

start=$(date +%s)
# shellcheck disable=SC2086 # the lanes are word lists
(lane kernel $KERNEL_LANE 2>&1 | sed -u 's/^/[kernel] /') &
kpid=$!
# shellcheck disable=SC2086
(lane user $USER_LANE 2>&1 | sed -u 's/^/[user] /') &
upid=$!
wait "$kpid"
wait "$upid"

echo "check: both lanes ended after $(($(date +%s) - start)) s"
rc=0
for name in kernel user; do
	if [ -f "$status/$name" ]; then
		echo "check: the $name lane failed at: make $(cat "$status/$name")"
		rc=1
	fi
done
exit "$rc"
