# shellcheck shell=sh
# tests/guest/bench_guest.sh - in-guest cost ratios (run by bench.sh).
#
# Runs inside the QEMU guest of the patched (non-debug) kernel.  Prints
# one result per line for bench.sh to parse:
#   kmsg host NS     ns per 64-byte /dev/kmsg write on the host log
#   kmsg child NS    the same in a child syslog namespace
# Rounds alternate host and child so that drift hits both alike.
COUNT=${COUNT:-50000}
ROUNDS=${ROUNDS:-5}
echo on >/proc/sys/kernel/printk_devkmsg
for _ in $(seq 1 "$ROUNDS"); do
	echo "kmsg host $(kmsgbench "$COUNT")"
	echo "kmsg child $(klogns exec -n -s 1048576 -- kmsgbench "$COUNT")"
done
