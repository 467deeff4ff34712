#!/bin/sh
# tests/guest/reliability.sh - in-guest reliability suite of syslog
# namespaces (docs/reliability.md, "In the guest"): flood, churn,
# concurrency, privilege.
#
# Runs inside the QEMU guest (busybox sh, root in the initial namespaces)
# with "klogns" (tests/guest/klogns.c) and "klogstress"
# (tests/guest/klogstress.c) in PATH.  Prints TAP lines and a final
# "N passed, N failed" line; exits non-zero if anything failed.
#
# Mode: the kernel parameter klogmode=short (default), full, fuzz or
# cover, which /init exports as $klogmode (tests/guest/run.sh -M).
#
#   part         short                      full      fuzz
#   flood        10^5 /dev/kmsg writes      10^6      as short
#   nf flood     10^4 packets (LOG rules)   10^4      as short
#   churn        500 cycles                 10^4      as short
#   concurrency  10 s                       60 s      as short
#   fuzz         the seeds of /etc/klogfuzz.seeds, 40 s each (full:
#                60 s); fuzz: one new seed for 30 minutes
#   faults       every allocation of every entry point (the debug
#                kernel only: it has fault injection)
#   memcg        nested namespaces against a memory cgroup's limit
#
# cover is short on the coverage kernel (kernel/config/cover.config):
# the fuzzer and the fault injector collect the kernel addresses their
# calls run (KCOV), and the suite prints them last as "@kcov" lines for
# tests/guest/coverage.sh.
#
# A background "klogstress follow" copies the host's /dev/kmsg to a file
# from the start, so that the propagated copies can be counted exactly and
# no kernel report (lockdep, KASAN, WARNING, BUG) is missed even if the
# host ring wraps.

MODE=${klogmode:-short}
case $MODE in
full)	FLOOD_N=1000000 NF_N=10000 CHURN_N=10000 CONC_S=60 FUZZ_S=60 ;;
fuzz)	FLOOD_N=100000 NF_N=10000 CHURN_N=500 CONC_S=10 FUZZ_S=1800 ;;
cover)	FLOOD_N=100000 NF_N=10000 CHURN_N=500 CONC_S=10 FUZZ_S=40
	export KLOGFUZZ_KCOV=/tmp/kcov.pcs ;;
*)	MODE=short FLOOD_N=100000 NF_N=10000 CHURN_N=500 CONC_S=10 FUZZ_S=40 ;;
esac

PASS=0
FAIL=0
N=0
T=/tmp/reliability
mkdir -p $T
SC=/proc/sys/kernel
UMAX=/proc/sys/user/max_syslog_namespaces
MARK=r$$

# ok, not_ok, check, expect: tests/guest/tap.sh
# shellcheck source=tap.sh
. /etc/tap.sh

# sub NAME SECONDS COMMAND...: run a klogstress check with a time limit;
# its "ok - "/"not ok - " lines become TAP lines, the rest comments.  Its
# output stays in $T/NAME.out.
sub() {
	name=$1
	tmo=$2
	shift 2
	# KILL: the guest's shell starts commands with SIGTERM ignored
	timeout -s KILL "$tmo" "$@" >"$T/$name.out" 2>&1
	rc=$?
	nres=0
	nbad=0
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "${line#ok - }"; nres=$((nres + 1)) ;;
		"not ok - "*) not_ok "${line#not ok - }"; nbad=$((nbad + 1)) ;;
		*) echo "# ${line#\# }" ;;
		esac
	done <"$T/$name.out"
	if [ "$rc" -ne 0 ] && [ "$nbad" -eq 0 ]; then
		not_ok "$name: exit status $rc (137: killed after ${tmo}s)"
	elif [ $((nres + nbad)) -eq 0 ]; then
		not_ok "$name: no result"
	fi
	return "$rc"
}

HOSTLOG=$T/host.kmsg
# follow_sync: wait until the follower has copied everything logged so far.
follow_sync() {
	s="SYNC-$MARK-$N-$(date +%s)"
	echo "<6>$s" >/dev/kmsg
	i=0
	while [ $i -lt 100 ]; do
		grep -q ";$s\$" $HOSTLOG && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}

# lockdep reports start with "WARNING: " or "INFO: ", KASAN's with "BUG: "
SPLAT='WARNING:\|BUG:\|INFO: \|UBSAN:\|possible circular\|possible recursive\|inconsistent lock\|DEADLOCK\|refcount_t:\|Call Trace\|Oops\|general protection\|stack-protector\|list_add corruption\|list_del corruption'
# no_splat PART: nothing in the host log since boot looks like a kernel
# report.
no_splat() {
	if ! follow_sync; then
		not_ok "$1: the host log follower stopped: no splat check possible"
	elif grep -q "$SPLAT" $HOSTLOG; then
		not_ok "$1: no lockdep, KASAN, WARNING or BUG report in the host log" \
			"$(grep -m 5 "$SPLAT" $HOSTLOG)"
	else
		ok "$1: no lockdep, KASAN, WARNING or BUG report in the host log"
	fi
}

# kmemleak_clean PART: after a scan kmemleak lists nothing new (helpers:
# tests/guest/tap.sh); a kmemleak that cannot scan is a failure.
kmemleak_clean() {
	sleep 6	# kmemleak ignores objects younger than 5 s
	if ! kmemleak_report $T/kmemleak.out; then
		not_ok "$1: kmemleak reports nothing: kmemleak could not scan"
	elif [ -s $T/kmemleak.out ]; then
		not_ok "$1: kmemleak reports nothing" "$(head -20 $T/kmemleak.out)"
	else
		ok "$1: kmemleak reports nothing"
	fi
}

set_sysctls() {	# set_sysctls PROPAGATE BURST INTERVAL_MS
	echo "$1" >$SC/syslog_ns_propagate
	echo "$2" >$SC/syslog_ns_propagate_burst
	echo "$3" >$SC/syslog_ns_propagate_interval_ms
}

# host_count FILE PATTERN: records of the follower's file whose text
# matches PATTERN (a basic regex anchored after the ';').
host_count() {
	grep -c ";$2" "$1"
}
# suppressed FILE TAG: lines "[ns:<id>:TAG] N messages suppressed": count,
# sum.
suppressed() {
	sed -n "s/^[^;]*;\[ns:[0-9]*:$2\] \([0-9]*\) messages suppressed\$/\1/p" "$1" |
		awk '{ n++; s += $1 } END { printf "%d %d\n", n, s }'
}

# bound_checks TAG WHAT COPIES_PATTERN TOTAL ELAPSED_MS BURST INTERVAL_MS
# SHARE: the host got at most BURST lines (copies and suppressed-count
# notes) per window, at least SHARE copies in the first one (the child's
# share of the host's budget), and every record was either copied or
# counted.
bound_checks() {
	tag=$1 what=$2 pat=$3 total=$4 el=$5 burst=$6 iv=$7 share=$8
	check "$what: the host log follower is still copying" follow_sync
	copies=$(host_count $HOSTLOG "$pat")
	sup=$(suppressed $HOSTLOG "$tag")	# "LINES SUM"
	slines=${sup% *} ssum=${sup#* }
	windows=$((el / iv + 1))
	allowed=$((windows * burst))
	echo "# $what: $total records in ${el} ms; host got $copies copies +" \
		"$slines suppressed-count lines (reporting $ssum);" \
		"allowed $allowed = $windows windows x $burst"
	check "$what: host lines ($((copies + slines))) within the bound $allowed" \
		test $((copies + slines)) -le $allowed
	check "$what: the first window's share of $share copies reached the host" \
		test "$copies" -ge "$share"
	check "$what: copies + reported suppressed == records ($copies + $ssum == $total)" \
		test $((copies + ssum)) -eq "$total"
	check "$what: the host follower lost nothing" hasnt_lost
}
hasnt_lost() {
	! grep -q '^LOST$' $HOSTLOG
}

echo "# mode $MODE: flood $FLOOD_N, nf flood $NF_N, churn $CHURN_N," \
	"concurrency ${CONC_S}s, $(grep -c ^processor /proc/cpuinfo) cpus"
echo "# kernel $(uname -r) $(uname -v)"
T0=$(cut -d. -f1 /proc/uptime)

echo on >$SC/printk_devkmsg
chmod 0666 /dev/kmsg
# iptables-legacy (klogstress and klogfuzz run it) locks /run/xtables.lock:
# let the unprivileged workers open it.
mkdir -p /run
touch /run/xtables.lock
chmod 0666 /run/xtables.lock
# On the debug kernel (run.sh -L: klogkmemleak=1) kmemleak must be there
# and enabled; without -L there is no leak check.
kmemleak_start
klogstress follow $HOSTLOG &
FOLLOWER=$!
check "the host log follower runs" follow_sync

# --- 1. flood through /dev/kmsg (propagate=2) ----------------------------
HOSTSIZE=$(klogns rc 10)
klogstress write "HOSTPRE-$MARK" 0 20
# 10 copies per second: over a flood of half a minute (the debug
# kernel's) the bound keeps the copies well inside the 128 KiB host ring.
BURST=10 IV=1000
rm -f $T/flood.done $T/sib.ready
# The sibling's first half goes in before copies are on: otherwise,
# alone for a moment, it may take the whole first window (its share is
# the whole budget then) and leave the flood none of it.
klogns exec -n -s 262144 -t sib -- sh -c "
	klogstress write SIB-$MARK 0 500
	touch $T/sib.ready
	while [ ! -e $T/flood.done ]; do sleep 0.5; done
	klogstress write SIB-$MARK 500 500
	klogstress expect SIB-$MARK 1000" >$T/sib.out 2>&1 &
SIB=$!
i=0
while [ ! -e $T/sib.ready ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
set_sysctls 2 $BURST $IV
t=$(date +%s)
sub flood 600 klogns exec -n -s 1048576 -t fl -- \
	klogstress flood "FL-$MARK" $FLOOD_N $((IV + 300))
touch $T/flood.done
echo "# flood wall time $(($(date +%s) - t)) s"
wait $SIB
sub sibling 10 cat $T/sib.out
el=$(sed -n 's/^elapsed_ms //p' $T/flood.out)
# fl and sib share the host's budget: fl's share is half of it.
bound_checks fl "flood" "\[ns:[0-9]*:fl\] FL-$MARK [0-9]*\$" $((FLOOD_N + 1)) \
	"${el:-0}" $BURST $IV $((BURST / 2))
check "flood: the sibling's records never reached the flooding namespace" \
	sh -c "! grep -q 'SIB-$MARK' $T/flood.out"
# survives SIZE PER_LINE WHAT MARKER: the worst case the bound allows
# since MARKER (every allowed line at its longest, PER_LINE bytes with
# the record header, plus 16 KiB for the sibling's copies and the sync
# lines) fits in the host ring, and MARKER's 20 records are still there.
survives() {
	worst=$(($1 * $2 + 16384))
	check "$3: the bound keeps the worst case inside the host ring ($1 lines x $2 + 16384 = $worst < $HOSTSIZE bytes)" \
		test "$worst" -lt "$HOSTSIZE"
	busybox dmesg >$T/host.dmesg
	expect "$3: the host's 20 records written before it are all still there" \
		20 grep -c "$4 [0-9]*\$" $T/host.dmesg
}
# a copy "[ns:4026532NNN:fl] FL-rNNN 1000000": < 48 bytes of text, + 16
survives "$allowed" 64 "flood" "HOSTPRE-$MARK"
set_sysctls 0 10 5000

# --- 1b. netfilter LOG flood in a container (propagate=2) -----------------
# A bound netns's LOG lines are stored in its syslog namespace and never
# copied: the host log takes them straight from netfilter, as 6.12 does,
# only while nf_log_all_netns=1.  So even under policy 2 a flood with
# nf_log_all_netns=0 adds nothing to the host log; the control turns it
# on for a few packets, which reach the host exactly as 6.12 prints them.
echo 4194304 >$SC/syslog_ns_max_size
klogstress write "HOSTNF-$MARK" 0 20
set_sysctls 2 10 $IV
t=$(date +%s)
# A 4 MiB ring needs the host's CAP_SYS_ADMIN, so the host makes the
# syslog namespace and, in it, the netns: a netns is bound only to a log
# of its own owner (a user namespace made in between would get none).
sub nflood 600 klogns exec -n -s 4194304 -t nf -- \
	klogstress nflood "NF-$MARK" $NF_N $((IV + 300))
echo "# nf flood wall time $(($(date +%s) - t)) s"
echo 1 >/proc/sys/net/netfilter/nf_log_all_netns
sub nflood-all 60 klogns exec -n -t nfa -- klogstress nflood "NFA-$MARK" 3 0
echo 0 >/proc/sys/net/netfilter/nf_log_all_netns
check "nf flood: the host log follower is still copying" follow_sync
expect "nf flood: policy 2, nf_log_all_netns=0: none of its $((2 * (NF_N + 1))) LOG lines reached the host" \
	0 host_count $HOSTLOG ".*NF-$MARK: IN="
expect "nf flood: nor a suppressed-count note" "0 0" suppressed $HOSTLOG nf
expect "nf flood: control: with nf_log_all_netns=1 the host has all 8 lines, as 6.12 prints them" \
	8 host_count $HOSTLOG "NFA-$MARK: IN="
expect "nf flood: control: and no labelled copy of them" \
	0 host_count $HOSTLOG ".*\\[ns:[0-9]*:nfa\\]"
busybox dmesg >$T/host.dmesg
expect "nf flood: the host's 20 records written before it are all still there" \
	20 grep -c "HOSTNF-$MARK [0-9]*\$" $T/host.dmesg
set_sysctls 0 10 5000
echo 1048576 >$SC/syslog_ns_max_size
no_splat "flood"

# --- 2. churn -------------------------------------------------------------
# slab_kb FIELD: /proc/meminfo's FIELD in kB.
slab_kb() {
	sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo
}
# settle: let RCU callbacks, the netns cleanup worker and deferred frees
# run, then drop the reclaimable caches.
settle() {
	sync
	sleep 3
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1
}
sub churn-warmup 300 klogstress churn 50
settle
s0=$(slab_kb Slab) u0=$(slab_kb SUnreclaim)
[ "$KMEMLEAK_ON" = 1 ] && echo clear >$KMEMLEAK
t=$(date +%s)
sub churn 3000 klogstress churn $CHURN_N
echo "# churn wall time $(($(date +%s) - t)) s"
# The tolerance: 256 kB, against the more than 4.5 kB per cycle a leaked
# namespace (object + 4 KiB ring) would cost (2.2 MB for 500 cycles).
TOL=256
i=0
while :; do
	settle
	s1=$(slab_kb Slab) u1=$(slab_kb SUnreclaim)
	[ $((u1 - u0)) -le $TOL ] || kmemleak_wanted && break
	i=$((i + 1))
	[ $i -ge 5 ] && break
done
echo "# slab before $s0 kB after $s1 kB; SUnreclaim before $u0 kB after $u1 kB ($CHURN_N cycles, $i extra waits)"
if kmemleak_wanted; then
	# KASAN's quarantine keeps freed objects: the numbers are only shown
	echo "# debug kernel: slab figures not compared (KASAN quarantine); kmemleak decides"
	[ "$KMEMLEAK_ON" = 1 ] && kmemleak_clean "churn"
else
	check "churn: SUnreclaim back within $TOL kB of its baseline ($u0 -> $u1 kB)" \
		test $((u1 - u0)) -le $TOL
	# control: the same measurement sees 200 namespaces kept alive
	rm -f $T/hold.ready
	klogstress hold 200 $T/hold.ready &
	HOLD=$!
	i=0
	while [ ! -e $T/hold.ready ] && [ $i -lt 300 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	settle
	u2=$(slab_kb SUnreclaim)
	kill $HOLD
	wait $HOLD 2>/dev/null
	echo "# control: SUnreclaim with 200 live namespaces $u2 kB"
	check "churn: the measurement sees 200 live namespaces (+$((u2 - u1)) kB > $TOL kB)" \
		test $((u2 - u1)) -gt $TOL
fi
no_splat "churn"

# --- 3. concurrency ------------------------------------------------------
set_sysctls 2 100 1000
t=$(date +%s)
sub conc $((CONC_S + 120)) klogstress conc $CONC_S 8192
echo "# concurrency wall time $(($(date +%s) - t)) s"
set_sysctls 0 10 5000
no_splat "concurrency"

# --- 4. privilege ----------------------------------------------------------
# uid 1000 in a user namespace of its own (root there, CAP_SYSLOG there)
# but in the host's syslog namespace.  $U is that prefix for sh -c.
U="klogns exec -u 1000 -U --"
for a in 0:CLOSE 1:OPEN 2:READ 4:READ_CLEAR 5:CLEAR 9:SIZE_UNREAD; do
	nr=${a%%:*} act=${a#*:}
	expect "privilege: user namespace root, host log: syslog $act ($nr) is EPERM" \
		EPERM timeout -s KILL 10 klogns exec -u 1000 -U -- klogns rc "$nr" 4096
done
for a in 6 7 8; do
	expect "privilege: user namespace root: console action $a is EPERM" \
		EPERM klogns exec -u 1000 -U -- klogns rc "$a" 4
	expect "privilege: ... also from its own syslog namespace: action $a is EPERM" \
		EPERM klogns exec -u 1000 -U -n -- klogns rc "$a" 4
done
expect "privilege: its own syslog namespace: READ_CLEAR works (control)" 0 \
	klogns exec -u 1000 -U -n -- klogns rc 4 4096
# upstream leaves READ_ALL, SIZE_BUFFER and /dev/kmsg reads open unless
# dmesg_restrict is set
check "privilege: dmesg_restrict=0: READ_ALL of the host log is allowed, as upstream" \
	sh -c "$U klogns rc 3 4096 | grep -q '^[0-9][0-9]*\$'"
echo 1 >$SC/dmesg_restrict
expect "privilege: dmesg_restrict=1: READ_ALL is EPERM" EPERM \
	klogns exec -u 1000 -U -- klogns rc 3 4096
expect "privilege: dmesg_restrict=1: SIZE_BUFFER is EPERM" EPERM \
	klogns exec -u 1000 -U -- klogns rc 10
expect "privilege: dmesg_restrict=1: opening /dev/kmsg to read is EPERM" EPERM \
	sh -c "$U klogns kmsg | head -1"
echo 0 >$SC/dmesg_restrict
# /proc/kmsg is 0400: make the mode let it through so that the syslog
# permission check is what answers
if chmod 0444 /proc/kmsg 2>/dev/null; then
	expect "privilege: opening /proc/kmsg (made 0444) is EPERM" EPERM \
		timeout -s KILL 10 klogns exec -u 1000 -U -- klogns proc-kmsg
	chmod 0400 /proc/kmsg
else
	expect "privilege: opening /proc/kmsg is refused (EACCES, mode 0400)" \
		E13 timeout -s KILL 10 klogns exec -u 1000 -U -- klogns proc-kmsg
fi
expect "privilege: one byte above kernel.syslog_ns_max_size is EINVAL" EINVAL \
	klogns exec -u 1000 -U -- klogns newns - $(($(cat $SC/syslog_ns_max_size) + 1))
expect "privilege: kernel.syslog_ns_max_size itself needs CAP_SYS_ADMIN in the initial user namespace" \
	EPERM klogns exec -u 1000 -U -- klogns newns - "$(cat $SC/syslog_ns_max_size)"
expect "privilege: the default size (64 KiB) is fine" 0 \
	klogns exec -u 1000 -U -- klogns newns - 65536
check "privilege: the user namespace's root cannot raise kernel.syslog_ns_max_size" \
	klogns exec -u 1000 -U -- sh -c "! echo 1073741824 2>/dev/null >$SC/syslog_ns_max_size"
expect "privilege: kernel.syslog_ns_max_size unchanged" 1048576 \
	cat $SC/syslog_ns_max_size
umax=$(cat $UMAX)
echo 3 >$UMAX
sub quota 60 klogns exec -u 1000 -- klogstress quota 3
echo "$umax" >$UMAX
sub fdpass 60 klogns exec -u 1000 -- klogstress fdpass "$MARK" "HOSTPRE-$MARK"

# --- 5. system call fuzzer (tests/guest/klogfuzz.c) -----------------------
# Four workers of random calls over everything the series adds; every
# result must be one the interface documents.  make check replays the
# seeds of tests/guest/klogfuzz.seeds (fixed sequences per worker; the
# interleaving varies); make guest-fuzz-long runs a new seed.  The host
# settings the fuzzer may change are put back afterwards.
SETTINGS="$SC/syslog_ns_propagate $SC/syslog_ns_propagate_burst
$SC/syslog_ns_propagate_interval_ms $SC/syslog_ns_auto $SC/syslog_ns_max_size
$SC/dmesg_restrict $UMAX $SC/printk"
settings() {
	for f in $SETTINGS; do
		echo "$f=$(tr '\t' ' ' <"$f")"
	done
}
settings >$T/settings
restore_settings() {
	while IFS='=' read -r f v; do
		echo "$v" >"$f"
	done <$T/settings
	xtables-legacy-multi iptables -F OUTPUT 2>/dev/null
}
if [ "$MODE" = fuzz ]; then
	seed=$((($(date +%s) + $$) % 1000000))
	echo "$seed 4 $FUZZ_S" >$T/seeds
else
	sed 's/#.*//; /^ *$/d' /etc/klogfuzz.seeds |
		awk -v s="$FUZZ_S" '{ print $1, $2, s }' >$T/seeds
fi
while read -r seed workers secs; do
	echo "# fuzz: seed $seed, $workers workers, $secs s (replay: klogfuzz run $seed $workers $secs)"
	sub "fuzz-$seed" $((secs + 300)) klogfuzz run "$seed" "$workers" "$secs" \
		</dev/null
	restore_settings
done <$T/seeds
check "fuzz: the host's settings are back" \
	sh -c "[ \"\$(cat $T/settings)\" = '$(settings)' ]"
no_splat "fuzz"

# --- 6. fault injection (debug kernel) -------------------------------------
# user.max_syslog_namespaces at 8: "klogfuzz quota" creates nested
# namespaces until ENOSPC.  A namespace or ucount charge that an injected
# failure leaked would lower the count after the run.
quota_count() {
	klogfuzz quota | cut -d' ' -f1
}
# quota_settles WANT: the count comes back to WANT (frees may be deferred)
quota_settles() {
	i=0
	while [ $i -lt 10 ]; do
		[ "$(quota_count)" = "$1" ] && return 0
		sleep 1
		i=$((i + 1))
	done
	return 1
}
if [ "$KMEMLEAK_ON" = 1 ]; then
	umax=$(cat $UMAX)
	echo 8 >$UMAX
	expect "faults: with user.max_syslog_namespaces=8, 8 nested namespaces, then ENOSPC" \
		"8 No space left on device" klogfuzz quota
	klogns exec -n -- sleep 20 &
	HOLD=$!
	sleep 1
	expect "faults: control: one namespace held elsewhere leaves 7" 7 quota_count
	kill $HOLD
	wait $HOLD 2>/dev/null
	check "faults: control: 8 again once it is gone" quota_settles 8
	t=$(date +%s)
	sub faults 1500 klogfuzz faults
	echo "# faults: $(($(date +%s) - t)) s"
	check "faults: no namespace or ucount charge leaked (8 again)" quota_settles 8
	echo "$umax" >$UMAX
	no_splat "faults"
else
	echo "# faults: this kernel has no fault injection; make guest-reliability-debug runs them"
fi

# --- the end ----------------------------------------------------------------
no_splat "whole run"
if [ "$KMEMLEAK_ON" = 1 ]; then
	kmemleak_clean "whole run (since the churn)"
	kmemleak_control
fi

# --- 7. a memory cgroup's limit (after the whole-run checks) ---------------
# "klogfuzz memcg": uid 1000 nests syslog namespaces with 64 KiB rings in
# a memory cgroup limited to its usage + 1 MiB; the kernel must refuse with
# ENOMEM, leave nothing half made and uncharge the rings with their
# namespaces.  The child is exempt from the OOM killer, so each refused
# charge prints the kernel's memory cgroup OOM report ("invoked
# oom-killer", a stack dump, "no killable processes"): the report check
# of this part allows those and nothing else.
# only_oom_reports FILE: no line of FILE looks like a kernel report, but
# for the stack dumps of OOM reports (one at most per report).
only_oom_reports() {
	[ "$(grep -c 'Call Trace' "$1")" -le "$(grep -c 'invoked oom-killer' "$1")" ] &&
		! grep "$SPLAT\|VM_FAULT_OOM" "$1" | grep -q -v 'Call Trace'
}
CG=/sys/fs/cgroup
if mount -t cgroup2 none $CG && echo +memory >$CG/cgroup.subtree_control &&
	mkdir $CG/fz; then
	follow_sync
	from=$(wc -l <$HOSTLOG)
	sub memcg 300 klogfuzz memcg $CG/fz
	if follow_sync; then
		tail -n +$((from + 1)) $HOSTLOG >$T/memcg.kmsg
		ooms=$(grep -c 'invoked oom-killer' $T/memcg.kmsg)
		traces=$(grep -c 'Call Trace' $T/memcg.kmsg)
		echo "# memcg: $ooms OOM reports, $traces stack dumps in the host log"
		check "memcg: the limit was reached in the kernel (its OOM report is in the host log)" \
			test "$ooms" -ge 1
		check "memcg: no kernel report but the memory cgroup's OOM reports" \
			only_oom_reports $T/memcg.kmsg
		# controls: a report planted among them, and one stack dump
		# more than there are OOM reports, are each caught
		for plant in "WARNING: CPU: 0 PID: 1 at planted" "Call Trace:"; do
			cp $T/memcg.kmsg $T/memcg.planted
			n=1
			[ "$plant" = "Call Trace:" ] && n=$((ooms - traces + 1))
			for _ in $(seq "$n"); do
				echo "4,1,1,-;$plant" >>$T/memcg.planted
			done
			if only_oom_reports $T/memcg.planted; then
				not_ok "memcg: control: a planted \"$plant\" is caught"
			else
				ok "memcg: control: a planted \"$plant\" is caught"
			fi
		done
	else
		not_ok "memcg: the host log follower stopped: no report check possible"
	fi
	[ "$KMEMLEAK_ON" = 1 ] && kmemleak_clean "memcg"
	check "memcg: the cgroup is removed once empty" rmdir $CG/fz
	check "memcg: cgroup2 is unmounted" umount $CG
else
	not_ok "memcg: cgroup2 with the memory controller is available"
fi

# --- coverage (cover mode) ------------------------------------------------
if [ "$MODE" = cover ]; then
	# every part collected and saved its own: "# kcov: PART: N distinct
	# kernel addresses", N > 0, never "(not saved)"
	# kcov_part PART: every line PART printed says it saved N > 0.
	kcov_part() {
		grep -h "^# kcov: $1: " $T/*.out >"$T/kcov.$1" &&
			! grep -q 'not saved\|: 0 distinct' "$T/kcov.$1"
	}
	for part in run faults memcg; do
		check "cover: KCOV collected and saved the $part part's kernel code" \
			kcov_part $part
	done
	klogfuzz kcov-print "$KLOGFUZZ_KCOV" >$T/kcov.out 2>&1
	n=$(sed -n 's/^# kcov: \([0-9]*\) distinct.*/\1/p' $T/kcov.out)
	echo "# kcov: ${n:-no} distinct kernel addresses (fuzzer and faults)"
	# a few thousand from the syscall entry paths alone
	check "cover: KCOV collected the fuzzer's and the faults' kernel code" \
		test "${n:-0}" -gt 5000
	grep '^@kcov ' $T/kcov.out
fi

kill $FOLLOWER
echo "# guest time $(($(cut -d. -f1 /proc/uptime) - T0)) s"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
