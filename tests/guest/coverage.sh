#!/bin/bash
# tests/guest/coverage.sh - how much of the series' code the in-guest
# fuzzer and fault injector run (make guest-coverage; not part of check:
# one more kernel build).
#
#   1. builds (or reuses) the coverage kernel: the debug kernel with KCOV
#      and line tables (kernel/build-kernel.sh patched cover);
#   2. runs the reliability suite on it in cover mode
#      (tests/guest/run.sh -L -s reliability -M cover): the short suite,
#      whose fuzzer seeds and fault injector collect, through KCOV, the
#      kernel addresses their calls run and print them as "@kcov" lines;
#   3. applies the series to a fresh copy of the pristine tree and runs
#      tests/guest/coverage.py, which counts the KCOV sites on the lines
#      the series adds and how many of them ran.
#
# Output: the suite's TAP lines in build/coverage/suite.log, the table on
# stdout and build/coverage/table.txt, the lines never run per file in
# build/coverage/never-run.txt.  Exit status: non-zero when the suite
# failed or no address was collected.  KCOV follows the calling task
# only: code the series runs in a work item or in softirq context (the
# copy forwarder, packets received) is not counted, even when it ran.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO"
. qemu/lib.sh
out=build/coverage
mkdir -p "$out"

kernel/build-kernel.sh patched cover
objdir=$(cat build/kernel/bzImage-cover.objdir)

rc=0
tests/guest/run.sh -L -s reliability -M cover -k build/kernel/bzImage-cover \
	-t 2400 >"$out/suite.log" 2>&1 || rc=$?
grep -v '^@kcov ' "$out/suite.log" | tail -5 || true
if [ "$rc" -ne 0 ]; then
	echo "coverage.sh: the suite failed (rc=$rc); see $out/suite.log" >&2
	exit 1
fi

ensure_ksrc
rm -rf "$out/tree"
cp -al "$KSRC" "$out/tree"
kernel-glue/apply.sh "$out/tree" "$REPO"
python3 tests/guest/coverage.py "$objdir/vmlinux" "$KSRC" "$out/tree" \
	kernel-glue "$out/suite.log" "$out/never-run.txt" | tee "$out/table.txt"
rm -rf "$out/tree"
