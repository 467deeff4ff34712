# shellcheck shell=sh
# tests/guest/bench_guest.sh - in-guest cost ratios (run by bench.sh).
#
# Runs inside the QEMU guest of the patched (non-debug) kernel.  Prints
# one result per line for bench.sh to parse:
#   kmsg host NS     ns per 64-byte /dev/kmsg write on the host log
#   kmsg child NS    the same in a child syslog namespace
#   readall WHERE NS BYTES LINES
#                    syslog(2) READ_ALL of a full 1 MiB log (host or
#                    child), the fastest of 5 (kmsgbench readall)
#   readkmsg WHERE NS RECORDS
#                    ns per record reading all of /dev/kmsg (kmsgbench
#                    readkmsg)
#   follow WHERE RATE MEDIAN P99 MAX LOST
#                    a /dev/kmsg follower's lag in ns behind a writer
#                    (kmsgbench follow; only with benchpart=follow)
#   flood MODE WHO NS
#                    ns per /dev/kmsg write of the host or of a
#                    neighbouring container while another container
#                    floods its log (MODE off, on, copies: on with
#                    kernel.syslog_ns_propagate=2, or copies-alone: no
#                    flood, propagate=2); 10^4 syslog namespaces alive
#                    (only with benchpart=follow)
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
# The clock every figure is read from: a TSC that failed its calibration
# leaves refined-jiffies' 4 ms steps, and bench.sh boots again.
clock=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
echo "clock $clock"
case $clock in
tsc|tsc-early) ;;
*) exit 3 ;;
esac
echo on >/proc/sys/kernel/printk_devkmsg
# A /dev/kmsg follower's lag behind a writer at FOLLOW_RATE records per
# second, on the host and in a child (a 1 MiB ring each): a boot of its
# own with two CPUs (benchpart=follow on the kernel command line), so
# that the reader does not wait for the writer's time slice to end.
if [ "${benchpart:-}" = follow ]; then
	FOLLOW_N=${FOLLOW_N:-100000}
	FOLLOW_RATE=${FOLLOW_RATE:-100000}
	for _ in $(seq 1 "$ROUNDS"); do
		echo "follow host $(kmsgbench follow "$FOLLOW_N" "$FOLLOW_RATE")"
		echo "follow child $(klogns exec -n -s 1048576 -- kmsgbench follow "$FOLLOW_N" "$FOLLOW_RATE")"
	done
	# One container flooding its log (a writer without pause on the
	# other CPU) among 10^4 syslog namespaces alive: what a write costs
	# the host and a neighbouring container, without and with the
	# flood, and with the flood's copies on (kernel.syslog_ns_propagate=2,
	# the copy budget's defaults).
	echo $((SCALE_N + 100)) >/proc/sys/user/max_syslog_namespaces
	nsscale hold syslog "$SCALE_N" /tmp/held >/dev/null &
	hold=$!
	while [ ! -e /tmp/held ]; do
		kill -0 "$hold" 2>/dev/null || exit 1
		sleep 1
	done
	for _ in $(seq 1 "$ROUNDS"); do
		for mode in off on copies-alone copies; do
			flood=
			case $mode in
			copies*) echo 2 >/proc/sys/kernel/syslog_ns_propagate ;;
			esac
			if [ "$mode" = on ] || [ "$mode" = copies ]; then
				# a session of its own: its whole group is stopped
				setsid klogns exec -n -- sh -c \
					'while kmsgbench 100000 >/dev/null; do :; done' &
				flood=$!
				sleep 1
			fi
			echo "flood $mode host $(kmsgbench "$COUNT")"
			echo "flood $mode neighbour $(klogns exec -n -- kmsgbench "$COUNT")"
			if [ -n "$flood" ]; then
				# (the loop ends when its writer is killed)
				kill -TERM -- "-$flood" 2>/dev/null
				killall kmsgbench 2>/dev/null
				wait "$flood" 2>/dev/null
			fi
			echo 0 >/proc/sys/kernel/syslog_ns_propagate
		done
	done
	kill "$hold"
	wait "$hold" 2>/dev/null
	exit 0
fi
for _ in $(seq 1 "$ROUNDS"); do
	echo "kmsg host $(kmsgbench "$COUNT")"
	echo "kmsg child $(klogns exec -n -s 1048576 -- kmsgbench "$COUNT")"
done
# Readers of a full 1 MiB log: the host's (bench.sh boots with
# log_buf_len=1M) and a child's 1 MiB ring, each just filled with
# READ_FILL records of 64 bytes (more than either holds).
READ_FILL=${READ_FILL:-20000}
kmsgbench "$READ_FILL" >/dev/null
for _ in $(seq 1 "$ROUNDS"); do
	echo "readall host $(kmsgbench readall 5)"
	echo "readkmsg host $(kmsgbench readkmsg 3)"
	klogns exec -n -s 1048576 -- sh -c "kmsgbench $READ_FILL >/dev/null
		echo readall child \$(kmsgbench readall 5)
		echo readkmsg child \$(kmsgbench readkmsg 3)"
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
