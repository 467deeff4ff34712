#!/bin/bash
# tests/golden/regenerate.sh - re-record the golden transcripts from the
# stock (unpatched) Linux 6.12 kernel.
#
#   1. builds capture.c statically (build/golden/capture);
#   2. builds or reuses the stock kernel (kernel/build-kernel.sh stock);
#   3. makes an initramfs holding capture and the *.ops files, whose test
#      command waits 2 s for the boot to settle and runs
#      "capture /golden/$golden.ops" (golden=NAME comes from the kernel
#      command line);
#   4. boots it once per transcript and rewrites tests/golden/NAME.txt from
#      the lines between the result markers on the serial console:
#        main       printk.devkmsg=on
#        ratelimit  no printk.devkmsg parameter (the default, ratelimit)
#        loss       printk.devkmsg=on, the ring overwritten
#        signals    printk.devkmsg=on, blocking reads and a signal
#
# Usage: tests/golden/regenerate.sh [NAME...]   (default: all four)
# A transcript is only replaced when capture succeeded (no blocked
# operation, no foreign kernel record during the capture).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO"
golden=tests/golden
out=build/golden
mkdir -p "$out"

names=("$@")
[ ${#names[@]} -gt 0 ] || names=(main ratelimit loss signals)

echo "regenerate: gcc -static capture.c"
gcc -static -O2 -Wall -Wextra -Werror -o "$out/capture" "$golden/capture.c"

t0=$(date +%s.%N)
kernel/build-kernel.sh stock
echo "regenerate: kernel ready after $(awk -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"

files=()
for f in "$golden"/*.ops; do
	files+=(-f "$f:/golden/$(basename "$f")")
done
# shellcheck disable=SC2016 # the guest's shell expands the command
qemu/initramfs.sh -o "$out/initramfs.cpio.gz" "${files[@]}" \
	-c 'sleep 2; exec /bin/capture "/golden/${golden}.ops"' "$out/capture"

for name in "${names[@]}"; do
	case $name in
	main|loss|signals) mode=on ;;
	ratelimit) mode=none ;;
	*) echo "regenerate: unknown transcript '$name'" >&2; exit 2 ;;
	esac
	[ -f "$golden/$name.ops" ] || { echo "regenerate: $golden/$name.ops missing" >&2; exit 2; }
	rc=0
	qemu/run.sh -k build/kernel/bzImage-stock -i "$out/initramfs.cpio.gz" \
		-m "$mode" -a "golden=$name" -t 300 \
		-l "$out/$name.log" -r "$out/$name.results" || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "regenerate: $name: capture failed (rc=$rc); $golden/$name.txt left alone" >&2
		grep -E '^# (WARNING|INTRUDER)' "$out/$name.results" >&2 || true
		exit 1
	fi
	cp "$out/$name.results" "$golden/$name.txt"
	echo "regenerate: $golden/$name.txt ($(grep -c '^> ' "$golden/$name.txt") ops, $(grep -c '^= ' "$golden/$name.txt") preload records)"
done
