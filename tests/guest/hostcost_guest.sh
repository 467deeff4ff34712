# shellcheck shell=sh
# tests/guest/hostcost_guest.sh - the host's own paths, timed (run by
# hostcost.sh in the guest of the stock and of the patched bench kernel).
#
# Prints one result per line for hostcost.sh to parse, each the fastest of
# what the tool did in that call:
#   write WHEN NS           ns per 64-byte /dev/kmsg write (kmsgbench)
#   printk WHEN NS          ns per printk() of 64 bytes from a module's
#                           init (/lib/printkbench.ko)
#   readall WHEN NS BYTES LINES
#                           syslog(2) READ_ALL of the full host log
#   readkmsg WHEN NS RECORDS
#                           ns per record reading all of /dev/kmsg, as
#                           util-linux dmesg does
#   unshare WHEN N NS       ns per unshare(CLONE_NEWUTS | CLONE_NEWNET)
#   clock NAME              the guest's clocksource
# WHEN is "none" (no syslog namespace ever created) and, on the patched
# kernel only, "held" (the same with HOLD_N syslog namespaces alive).
COUNT=${COUNT:-20000}
ROUNDS=${ROUNDS:-5}
UNSHARE_N=${UNSHARE_N:-50}
HOLD_N=${HOLD_N:-10000}
echo on >/proc/sys/kernel/printk_devkmsg
fail() {
	echo "hostcost_guest: $*" >&2
	exit 1
}
rounds() {
	for _ in $(seq 1 "$ROUNDS"); do
		echo "write $1 $(kmsgbench "$COUNT")"
		insmod /lib/printkbench.ko count="$COUNT" ||
			fail "insmod printkbench.ko"
		echo "printk $1 $(cat /sys/module/printkbench/parameters/ns)"
		rmmod printkbench || fail "rmmod printkbench"
		echo "readall $1 $(kmsgbench readall 5)"
		echo "readkmsg $1 $(kmsgbench readkmsg 3)"
		nsscale unshare "$UNSHARE_N" | sed "s/^unshare /unshare $1 /"
		# a network namespace is torn down later, by a work queue
		sleep 1
	done
}
# The clock every figure is read from: a TSC that failed its calibration
# leaves refined-jiffies' 4 ms steps, and hostcost.sh boots again.
clock=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
echo "clock $clock"
case $clock in
tsc|tsc-early) ;;
*) exit 3 ;;
esac
# The host log full before the first read.
kmsgbench "$COUNT" >/dev/null || fail "kmsgbench"
rounds none
if [ -e /proc/self/ns/syslog ]; then
	echo $((HOLD_N + 100)) >/proc/sys/user/max_syslog_namespaces
	rm -f /tmp/held
	nsscale hold syslog "$HOLD_N" /tmp/held >/tmp/hold.out &
	pid=$!
	while [ ! -e /tmp/held ]; do
		kill -0 "$pid" 2>/dev/null || fail "nsscale hold died"
		sleep 1
	done
	[ "$(find /proc/$pid/fd -mindepth 1 | wc -l)" -gt "$HOLD_N" ] ||
		fail "nsscale hold keeps fewer than $HOLD_N namespaces open"
	echo "hold $(cat /tmp/hold.out)"
	rounds held
	kill "$pid"
	wait "$pid" 2>/dev/null
fi
echo "hostcost: done"
