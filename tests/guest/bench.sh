#!/bin/bash
# tests/guest/bench.sh - in-guest cost ratios of the patched kernel.
#
# Builds tests/guest/kmsgbench.c (static), boots build/kernel/bzImage with
# bench_guest.sh, and prints, from the best of the rounds, a /dev/kmsg
# write in a child namespace vs on the host log.
# Appends the rows to build/bench/results.csv (scenario guest) when that
# file exists, else writes build/bench/guest.csv.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
kernel=$REPO/build/kernel/bzImage
out=$REPO/build/bench/guest
mkdir -p "$out"
[ -f "$kernel" ] || { echo "bench.sh: $kernel missing: run make kernel" >&2; exit 1; }

gcc -static -O2 -Wall -Wextra -Werror -o "$out/kmsgbench" "$HERE/kmsgbench.c"
gcc -static -O2 -Wall -Wextra -Werror -o "$out/klogns" "$HERE/klogns.c"
"$REPO/qemu/initramfs.sh" -o "$out/initramfs.cpio.gz" \
	-f "$HERE/bench_guest.sh:/etc/bench_guest.sh" \
	-c "sh /etc/bench_guest.sh" "$out/kmsgbench" "$out/klogns"
"$REPO/qemu/run.sh" -k "$kernel" -i "$out/initramfs.cpio.gz" \
	-l "$out/serial.log" -r "$out/results" -t 600 -m none

best() { awk -v k="$1" '$0 ~ "^" k " [0-9]+$" { v = $NF + 0; if (!n++ || v < m) m = v } END { if (n) print m }' "$out/results"; }
host=$(best "kmsg host")
child=$(best "kmsg child")
for v in host child; do
	[ -n "${!v}" ] || { echo "bench.sh: no '$v' result; see $out/serial.log" >&2; exit 1; }
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf '%-44s %8s %8s %7s\n' "in-guest cost per 64-byte message (TCG)" base "ns" ratio
printf '%-44s %8s %8s %7s\n' "/dev/kmsg write: child vs host" "$host" "$child" "$(ratio "$child" "$host")"
csv=$REPO/build/bench/results.csv
[ -f "$csv" ] || { csv=$REPO/build/bench/guest.csv; echo "scenario,param,backend,metric,value" >"$csv"; }
{
	echo "guest,64,kmsg-host,ns_per_rec,$host"
	echo "guest,64,kmsg-child,ns_per_rec,$child"
	echo "guest,64,kmsg,child_over_host,$(ratio "$child" "$host")"
} >>"$csv"
echo "bench.sh: rows added to ${csv#"$REPO"/}"
