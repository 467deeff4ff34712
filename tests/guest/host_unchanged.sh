#!/bin/bash
# tests/guest/host_unchanged.sh [NAME...] - design S9 on the real kernels:
# the host log of the patched kernel (no child namespace created) answers
# the golden operations exactly as the stock kernel does.
#
# Runs tests/golden/capture with tests/golden/NAME.ops (default: main
# ratelimit loss) on build/kernel/bzImage-stock and build/kernel/bzImage
# (qemu/build-kernel.sh stock / patched), normalises both transcripts as
# docs/golden-format.md says (timestamps, /dev/kmsg sequence numbers and
# times), drops the preload, and diffs them.
#
# Every op is replayed, "syslog 11" included (EINVAL on both: the series
# adds no syslog action).  What remains different are the
# results that read the boot log (its size and text differ between two
# builds; lines with "Linux version" are not shown) and, for loss, the
# counts that follow from it.  Prints the remaining differences; exit 0.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO"
out=build/guest/s9
mkdir -p "$out/ops"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(main ratelimit loss)

gcc -static -O2 -Wall -Wextra -Werror -o "$out/capture" tests/golden/capture.c
files=()
for f in tests/golden/*.ops; do
	cp "$f" "$out/ops/$(basename "$f")"
	files+=(-f "$out/ops/$(basename "$f"):/golden/$(basename "$f")")
done
qemu/initramfs.sh -o "$out/initramfs.cpio.gz" "${files[@]}" \
	-c 'sleep 2; exec /bin/capture "/golden/${golden}.ops"' "$out/capture"

norm() {
	grep -v '^= \|^=  \|^# ' "$1" | sed -E \
		-e 's/\[ *[0-9]+\.[0-9]+\]/[T]/g' \
		-e 's/data= *[0-9]+\.[0-9]+\]/data=T]/' \
		-e 's/(data=|\\x0a)([0-9]+),[0-9]+,[0-9]+,/\1\2,S,T,/g'
}

for name in "${names[@]}"; do
	mode=on
	[ "$name" = ratelimit ] && mode=none
	for k in bzImage-stock bzImage; do
		qemu/run.sh -k "build/kernel/$k" -i "$out/initramfs.cpio.gz" \
			-m "$mode" -a "golden=$name" -t 300 \
			-l "$out/$name-$k.log" -r "$out/$name-$k.results" ||
			echo "host_unchanged: $name on $k: capture rc=$?" >&2
	done
	n=$(diff <(norm "$out/$name-bzImage-stock.results") \
		<(norm "$out/$name-bzImage.results") | grep -c '^[<>]' || true)
	echo "== $name: $n differing result lines (stock <, patched >):"
	diff <(norm "$out/$name-bzImage-stock.results") \
		<(norm "$out/$name-bzImage.results") |
		grep '^[<>]' | grep -v 'Linux version' | cut -c1-160 || true
done
