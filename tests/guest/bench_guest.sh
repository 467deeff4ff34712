# shellcheck shell=sh
# tests/guest/bench_guest.sh - in-guest cost ratios (run by bench.sh).
#
# Runs inside the QEMU guest of the patched (non-debug) kernel.  Prints
# one result per line for bench.sh to parse:
#   kmsg host NS     ns per 64-byte /dev/kmsg write on the host log
#   kmsg child NS    the same in a child syslog namespace
#   create|destroy|mem|kept KIND N ...
#                    SCALE_N namespaces of each kind alive at once
#                    (nsscale.c says what each line holds)
# Rounds alternate host and child so that drift hits both alike.
COUNT=${COUNT:-50000}
ROUNDS=${ROUNDS:-5}
SCALE_N=${SCALE_N:-10000}
SCALE_ROUNDS=${SCALE_ROUNDS:-3}
echo on >/proc/sys/kernel/printk_devkmsg
for _ in $(seq 1 "$ROUNDS"); do
	echo "kmsg host $(kmsgbench "$COUNT")"
	echo "kmsg child $(klogns exec -n -s 1048576 -- kmsgbench "$COUNT")"
done
# Many namespaces at once: the per-user limits raised for it (root's
# syslog namespaces count against user.max_syslog_namespaces too).
for k in syslog net uts; do
	echo $((SCALE_N + 100)) >/proc/sys/user/max_${k}_namespaces
done
for _ in $(seq 1 "$SCALE_ROUNDS"); do
	for k in uts net syslog; do
		nsscale $k "$SCALE_N"
	done
done
