# shellcheck shell=sh
# tests/guest/tap.sh - TAP helpers of the in-guest suites, sourced by
# syslog_ns_tests.sh and reliability.sh (installed as /etc/tap.sh).
#
# The suite sets PASS=0 FAIL=0 N=0 and T (a scratch directory) first.
# The kmemleak helpers are at the end.
#   ok DESC / not_ok DESC [LINE...]   one TAP line (and comment lines)
#   check DESC COMMAND...             the command's exit status decides
#   expect DESC WANTED COMMAND...     the command's stdout must be WANTED

ok() {
	N=$((N + 1))
	PASS=$((PASS + 1))
	echo "ok $N - $1"
}

not_ok() {
	N=$((N + 1))
	FAIL=$((FAIL + 1))
	echo "not ok $N - $1"
	shift
	# every line commented, so that no "[" line looks like the console
	printf '%s\n' "$@" | sed 's/^/#   /'
}

# check DESCRIPTION COMMAND...: the command's exit status decides.
check() {
	desc=$1
	shift
	if "$@" >"$T/check.out" 2>&1; then
		ok "$desc"
	else
		not_ok "$desc" "command: $*" "$(head -5 "$T/check.out")"
	fi
}

# expect DESCRIPTION WANTED COMMAND...: the command's stdout must be WANTED.
expect() {
	desc=$1
	want=$2
	shift 2
	got=$("$@" 2>"$T/expect.err")
	if [ "$got" = "$want" ]; then
		ok "$desc"
	else
		not_ok "$desc" "command: $*" "wanted: $want" "got: $got" \
			"$(head -3 "$T/expect.err")"
	fi
}

# --- kmemleak (the debug kernel) ---------------------------------------------
# tests/guest/run.sh -L (make guest-debug, guest-reliability-debug) boots
# with klogkmemleak=1 and puts the leak module at /lib/kleak.ko: kmemleak
# must then be there and enabled, or the run fails.  Without -L there are
# no leak checks, and the suites say so.
#   kmemleak_wanted                    klogkmemleak=1 on the command line
#   kmemleak_enabled                   debugfs mounted, the file there, and
#                                      kmemleak not disabled (it refuses
#                                      every command but "clear" then)
#   kmemleak_report FILE               two scans, then the report in FILE;
#                                      fails if kmemleak cannot scan
#   kmemleak_start                     when wanted, a TAP line: kmemleak is
#                                      there and enabled; then KMEMLEAK_ON=1
#                                      and what boot left is forgotten
#   kmemleak_control                   TAP line: a planted leak (kleak.ko,
#                                      its data marked KLEAK-PLANTED-LEAK)
#                                      is reported
KMEMLEAK=/sys/kernel/debug/kmemleak
kmemleak_wanted() {
	[ "${klogkmemleak:-0}" = 1 ]
}
kmemleak_enabled() {
	[ -e "$KMEMLEAK" ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	[ -e "$KMEMLEAK" ] || { echo "no $KMEMLEAK"; return 1; }
	# stack=on is the default: a harmless probe, EPERM once disabled
	echo stack=on 2>/dev/null >"$KMEMLEAK" || { echo "kmemleak refuses commands: disabled"; return 1; }
	if busybox dmesg | grep -q 'kmemleak: .*disabled'; then
		busybox dmesg | grep 'kmemleak: ' | head -3
		return 1
	fi
}
# shellcheck disable=SC2034 # KMEMLEAK_ON is read by the suites
kmemleak_start() {
	KMEMLEAK_ON=0
	if ! kmemleak_wanted; then
		echo "# kmemleak: not asked for (run.sh -L): no leak check on this kernel"
		return 0
	fi
	if kmemleak_enabled >"$T/kmemleak.state" 2>&1; then
		ok "kmemleak: $KMEMLEAK is there and kmemleak is enabled"
		KMEMLEAK_ON=1
		echo clear >"$KMEMLEAK"
	else
		not_ok "kmemleak: $KMEMLEAK is there and kmemleak is enabled" \
			"$(cat "$T/kmemleak.state")"
	fi
}
kmemleak_report() {
	echo scan 2>/dev/null >"$KMEMLEAK" && echo scan 2>/dev/null >"$KMEMLEAK" &&
		cat "$KMEMLEAK" >"$1"
}
kmemleak_control() {
	if ! insmod /lib/kleak.ko >"$T/kleak.insmod" 2>&1; then
		not_ok "kmemleak: positive control: kleak.ko loads" "$(cat "$T/kleak.insmod")"
		return
	fi
	sleep 6	# kmemleak ignores objects younger than 5 s
	# the hex dump shows the marker's first 16 bytes, then the next 16;
	# a stale copy of the pointer (in insmod's freed kernel stack, which
	# the stack cache keeps until a new task takes it) can hide the leak
	# from a scan: up to five tries, with new tasks in between
	i=0
	while [ $i -lt 5 ]; do
		kmemleak_report "$T/kleak.out" &&
			grep -q '^unreferenced object ' "$T/kleak.out" &&
			grep -q 'comm "insmod"' "$T/kleak.out" &&
			grep -q '  KLEAK-PLANTED-LE$' "$T/kleak.out" && break
		pids=
		for _ in 1 2 3 4 5 6 7 8; do
			sleep 1 &
			pids="$pids $!"
		done
		# only these: the suite has other background jobs
		# shellcheck disable=SC2086 # one word per pid
		wait $pids
		i=$((i + 1))
	done
	if [ $i -lt 5 ]; then
		ok "kmemleak: positive control: the planted leak (kleak.ko) is reported ($((i + 1)) tries)"
	else
		not_ok "kmemleak: positive control: the planted leak (kleak.ko) is reported" \
			"$(head -12 "$T/kleak.out" 2>/dev/null)"
	fi
	echo clear >"$KMEMLEAK"
}
