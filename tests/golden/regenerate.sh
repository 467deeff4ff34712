#!/bin/bash
# tests/golden/regenerate.sh - re-record the golden transcripts from the
# stock (unpatched) Linux 6.12 kernel.
#
#   1. builds capture.c statically (build/golden/capture);
#   2. builds or reuses the stock kernel (kernel/build-kernel.sh stock),
#      and for the kernel transcript the stock kernel with modules and
#      CONFIG_PRINTK_CALLER (kernel/build-kernel.sh stock golden) and the
#      goldenk module against it;
#   3. makes an initramfs holding capture, the *.ops files and goldenk.ko,
#      whose test command loads goldenk (kernel transcript only), waits
#      2 s for the boot to settle and runs "capture /golden/$golden.ops"
#      (golden=NAME comes from the kernel command line);
#   4. boots it once per transcript and rewrites tests/golden/NAME.txt from
#      the lines between the result markers on the serial console:
#        main       printk.devkmsg=on
#        ratelimit  no printk.devkmsg parameter (the default, ratelimit)
#        loss       printk.devkmsg=on, the ring overwritten
#        signals    printk.devkmsg=on, blocking reads and a signal
#        settings   no printk.devkmsg parameter (so that the sysctl can
#                   change it), settings changed at run time
#        kernel     printk.devkmsg=on, the golden kernel: kernel messages
#                   from goldenk (levels, continuations, dictionaries)
#                   and the caller id
#
# Usage: tests/golden/regenerate.sh [NAME...]   (default: all six)
# A transcript is only replaced when capture succeeded (no blocked
# operation, no foreign kernel record during the capture).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO"
golden=tests/golden
out=build/golden
mkdir -p "$out"

names=("$@")
[ ${#names[@]} -gt 0 ] || names=(main ratelimit loss signals settings kernel)

echo "regenerate: gcc -static capture.c"
gcc -static -O2 -Wall -Wextra -Werror -o "$out/capture" "$golden/capture.c"

t0=$(date +%s.%N)
files=()
stock=0
for name in "${names[@]}"; do
	if [ "$name" = kernel ]; then
		kernel/build-kernel.sh stock golden
		objdir=$(cat build/kernel/bzImage-stock-golden.objdir)
		rm -rf "$out/goldenk"
		cp -r "$golden/goldenk" "$out/goldenk"
		make -s -C "$objdir" M="$REPO/$out/goldenk" modules
		files+=(-f "$out/goldenk/goldenk.ko:/lib/goldenk.ko")
	else
		stock=1
	fi
done
[ "$stock" -eq 0 ] || kernel/build-kernel.sh stock
echo "regenerate: kernels ready after $(awk -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"

for f in "$golden"/*.ops; do
	files+=(-f "$f:/golden/$(basename "$f")")
done
# shellcheck disable=SC2016 # the guest's shell expands the command
qemu/initramfs.sh -o "$out/initramfs.cpio.gz" "${files[@]}" \
	-c 'if [ "$golden" = kernel ]; then insmod /lib/goldenk.ko || exit 3; fi
sleep 2; exec /bin/capture "/golden/${golden}.ops"' "$out/capture"

for name in "${names[@]}"; do
	kernel=build/kernel/bzImage-stock
	case $name in
	main|loss|signals) mode=on ;;
	ratelimit|settings) mode=none ;;
	kernel) mode=on kernel=build/kernel/bzImage-stock-golden ;;
	*) echo "regenerate: unknown transcript '$name'" >&2; exit 2 ;;
	esac
	[ -f "$golden/$name.ops" ] || { echo "regenerate: $golden/$name.ops missing" >&2; exit 2; }
	rc=0
	qemu/run.sh -k "$kernel" -i "$out/initramfs.cpio.gz" \
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
