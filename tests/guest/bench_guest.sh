# shellcheck shell=sh
# tests/guest/bench_guest.sh - in-guest cost ratios (run by bench.sh).
#
# Runs inside the QEMU guest of the patched (non-debug) kernel.  Prints
# one result per line for bench.sh to parse:
#   kmsg host NS     ns per 64-byte /dev/kmsg write on the host log
#   kmsg child NS    the same in a child syslog namespace
#   nflog MODE N NS  ns per packet through netfilter LOG rules with N
#                    bound network namespaces alive (nfcost.c)
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
# netfilter LOG per packet with 1, 100 and 1,000 bound network namespaces
# alive, against the same rules logging into the host's log
# (nf_log_all_netns=1, an unbound netns: upstream's path) and against no
# rule.  The pause lets the kernel's netns cleanup of the last run finish.
NF_M=${NF_M:-20000}
for _ in $(seq 1 "$SCALE_ROUNDS"); do
	nfcost none 1 "$NF_M"
	echo 1 >/proc/sys/net/netfilter/nf_log_all_netns
	nfcost host 1 "$NF_M"
	echo 0 >/proc/sys/net/netfilter/nf_log_all_netns
	for n in 1 100 1000; do
		nfcost bound "$n" "$NF_M"
		sleep $((n / 100 + 1))
	done
done
for _ in $(seq 1 "$SCALE_ROUNDS"); do
	for k in uts net syslog; do
		nsscale $k "$SCALE_N"
	done
done
