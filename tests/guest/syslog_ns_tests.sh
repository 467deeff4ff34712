#!/bin/sh
# tests/guest/syslog_ns_tests.sh - in-guest tests of syslog namespaces.
#
# Runs inside the QEMU guest (busybox sh, as root in the initial
# namespaces) with the static helper "klogns" (tests/guest/klogns.c) and
# the installed tool "syslogns" (tools/syslogns) in PATH, and unmodified
# Debian runtimes: util-linux unshare (/bin/unshare), bwrap and crun.
# Prints TAP lines ("ok N - ...", "not ok N - ...") and a final
# "N passed, N failed" line; exits non-zero if anything failed.
#
# Conventions: "host" is a process that never created a syslog namespace;
# "child" runs under "klogns exec -n" (a new syslog namespace), "user
# child" under "klogns exec -u 1000 -U -n" (uid 1000, its own user
# namespace, then a syslog namespace owned by it).

PASS=0
FAIL=0
N=0
T=/tmp/syslogns
mkdir -p $T

# ok, not_ok, check, expect: tests/guest/tap.sh
# shellcheck source=tap.sh
. /etc/tap.sh

# has/hasnt PATTERN FILE; on failure they show what the file holds.
has() {
	grep -q -- "$1" "$2" && return 0
	echo "no match in $2 ($(wc -l <"$2") lines), its last lines:"
	tail -3 "$2"
	return 1
}
hasnt() {
	[ -r "$2" ] || { echo "no file $2"; return 1; }
	grep -q -- "$1" "$2" || return 0
	echo "unexpected match in $2:"
	grep -- "$1" "$2" | head -3
	return 1
}

# host_kept BEFORE AFTER PATTERN: the host lost none of its records (they
# are the start of AFTER) and none of the lines it gained matches PATTERN
# (the attacker's text, tags, labels and notes).  Lines the kernel printed
# meanwhile for reasons of its own (under TCG: "hrtimer: interrupt took
# ...") are shown, not counted.
host_kept() {
	nb=$(wc -l <"$1")
	if ! head -n "$nb" "$2" | cmp -s - "$1"; then
		echo "the host's records before are not the start of the log after:"
		diff "$1" "$2" | head -5
		return 1
	fi
	tail -n +$((nb + 1)) "$2" >"$2.new"
	! grep -q -- "$3" "$2.new"
}
# gained AFTER: show what host_kept let through, as comments.
gained() {
	sed 's/^/# host gained (not the user'"'"'s): /' "$1.new"
}
# fails COMMAND...: succeeds if the command fails (for positive controls).
fails() {
	! "$@"
}
# Controls of has/hasnt: a match, and a missing file, must fail them.
echo "CONTROL-LINE" >$T/ctl.has
check "control: has finds a line that is there" has "CONTROL-LINE" $T/ctl.has
check "control: hasnt fails on a line that is there" fails hasnt "CONTROL-LINE" $T/ctl.has
check "control: hasnt fails on a missing file" fails hasnt "CONTROL-LINE" $T/no-such-file
check "control: has fails on a missing file" fails has "CONTROL-LINE" $T/no-such-file
# Unique markers: nothing else in any log contains them.
MARK=m$$
HOST1="HOSTONE-$MARK"
HOST2="HOSTTWO-$MARK"

# The kernel is booted without printk.devkmsg= so that the mode can be
# switched here: "on" except for the ratelimit test.
echo on >/proc/sys/kernel/printk_devkmsg
echo "<6>$HOST1" >/dev/kmsg
# devtmpfs makes /dev/kmsg 0644 root: let unprivileged users write it, as
# an administrator who hands the log to containers would.
chmod 0666 /dev/kmsg

# --- creation and isolation ----------------------------------------------
klogns exec -n -t c1 -- sh -c \
	"echo '<6>CHILDONE-$MARK' >/dev/kmsg; busybox dmesg" >$T/c1.dmesg 2>&1
check "child: busybox dmesg shows the child's record" has "CHILDONE-$MARK" $T/c1.dmesg
check "child: busybox dmesg does not show the host's record" hasnt "$HOST1" $T/c1.dmesg
expect "child: its log holds its first line and one record" 2 sh -c "grep -c . $T/c1.dmesg"
check "child: its first line names it" \
	has "^\[ *[0-9]*\.[0-9]*\] syslog_ns: log of ns:[0-9]*:c1 begins (depth 1, ring 65536 bytes)\$" $T/c1.dmesg
busybox dmesg >$T/host.dmesg
check "host: dmesg does not show the child's record" hasnt "CHILDONE-$MARK" $T/host.dmesg
# util-linux dmesg: /dev/kmsg (SEEK_DATA, nonblocking reads) and -S (syslog)
klogns exec -n -- sh -c "echo '<6>UTIL-$MARK' >/dev/kmsg; /usr/bin/dmesg; echo syslog:; /usr/bin/dmesg -S" >$T/util.out 2>&1
check "child: util-linux dmesg (/dev/kmsg) shows the child's record" sh -c \
	"sed -n '1,/^syslog:/p' $T/util.out | grep -q 'UTIL-$MARK'"
check "child: util-linux dmesg -S (syslog) shows the child's record" sh -c \
	"sed -n '/^syslog:/,\$p' $T/util.out | grep -q 'UTIL-$MARK'"
check "child: util-linux dmesg shows no host record" hasnt "$HOST1" $T/util.out
check "host: dmesg still shows the host's record" has "$HOST1" $T/host.dmesg

# Root in a new user namespace (uid_map "0 0 1"), then a syslog namespace tagged c1.
klogns exec -U -n -t c1 -- sh -c \
	"echo '<6>USERNS-$MARK' >/dev/kmsg; busybox dmesg" >$T/un.out 2>&1
check "user namespace + CLONE_NEWSYSLOG: dmesg shows the child's record" has "USERNS-$MARK" $T/un.out
check "user namespace child: dmesg does not show the host's record" hasnt "$HOST1" $T/un.out
busybox dmesg >$T/host.dmesg
check "host: does not see the user namespace child's record" hasnt "USERNS-$MARK" $T/host.dmesg

# An unprivileged user: its own user namespace, then a syslog namespace.
klogns exec -u 1000 -U -n -t u1 -- sh -c \
	"echo '<5>USERONE-$MARK' >/dev/kmsg; busybox dmesg; klogns rc 10" \
	>$T/u1.out 2>&1
check "user child: creates a syslog namespace and reads its own log" has "USERONE-$MARK" $T/u1.out
check "user child: does not see the host's record" hasnt "$HOST1" $T/u1.out
check "user child: default ring size is 65536" has "^65536$" $T/u1.out
busybox dmesg >$T/host.dmesg
check "host: does not see the user child's record" hasnt "USERONE-$MARK" $T/host.dmesg
expect "unprivileged, no user namespace: unshare(CLONE_NEWSYSLOG) is EPERM" EPERM \
	klogns exec -u 1000 -- klogns newns - 0

# --- destructive reads in a child leave the host alone ------------------
# Drain the host's syslog cursor, then give it exactly one unread record.
unread=$(klogns rc 9)
[ "$unread" -gt 0 ] 2>/dev/null && klogns read 2 "$unread" >/dev/null
echo "<6>$HOST2" >/dev/kmsg
before=$(klogns rc 9)
klogns exec -n -- sh -c "echo '<6>CHILDREAD-$MARK' >/dev/kmsg;
	klogns read 2 4096; klogns proc-kmsg; busybox dmesg -c; busybox dmesg -C;
	echo after-clear; busybox dmesg" >$T/c2.out 2>&1
check "child: syslog(SYSLOG_ACTION_READ) returns the child's record" has "CHILDREAD-$MARK" $T/c2.out
check "child: the destructive read shows no host record" hasnt "$HOST2" $T/c2.out
# shellcheck disable=SC2016 # $ is sed's last line
expect "child: after dmesg -c and -C, dmesg shows nothing" after-clear \
	sed -n '/after-clear/,$p' $T/c2.out
expect "host: SIZE_UNREAD unchanged by the child's reads" "$before" klogns rc 9
klogns read 2 65536 >$T/host.read
check "host: its syslog READ still returns its unread record" has "$HOST2" $T/host.read
busybox dmesg >$T/host.dmesg
check "host: clear point untouched by the child's dmesg -C" has "$HOST1" $T/host.dmesg

# --- syslog(2) actions and arguments -------------------------------------
expect "child: SIZE_BUFFER of a 4096-byte ring" 4096 klogns exec -n -s 4096 -- klogns rc 10
expect "child: a 3000-byte request is rounded up to 4096" 4096 klogns exec -n -s 3000 -- klogns rc 10
expect "child: a 100000-byte request is rounded up to 131072" 131072 klogns exec -n -s 100000 -- klogns rc 10
expect "new namespace: a size above the maximum is EINVAL" EINVAL klogns newns - 2097152
expect "new namespace: a negative size is EINVAL" EINVAL klogns newns - -1
expect "new namespace: a 32-byte tag is EINVAL" EINVAL klogns newns 0123456789abcdef0123456789abcdef 0
expect "new namespace: a tag with a space is EINVAL" EINVAL klogns newns "a b" 0
expect "new namespace: a tag with ']' (a forged label) is EINVAL" EINVAL klogns newns "drm]" 0
expect "new namespace: a tag with ':' is EINVAL" EINVAL klogns newns "drm:x" 0
expect "new namespace: a tag of [A-Za-z0-9._-] is fine" 0 klogns newns "a.B_c-9" 0
expect "new namespace: a 31-byte tag is fine" 0 klogns newns 0123456789abcdef0123456789abcde 0
expect "child: SIZE_UNREAD of an empty log is 0" 0 klogns exec -n -- klogns rc 9
expect "child, no CAP_SYSLOG over the owner: READ is EPERM" EPERM \
	klogns exec -n -- klogns exec -u 1000 -- klogns rc 2 100
expect "child, no CAP_SYSLOG: the permission check comes before the length check" EPERM \
	klogns exec -n -- klogns exec -u 1000 -- klogns rc 2 -1
expect "child, no CAP_SYSLOG: READ_ALL is allowed (dmesg_restrict=0)" 0 \
	klogns exec -n -- klogns exec -u 1000 -- klogns rc 3 100
expect "child, no CAP_SYSLOG: CLEAR is EPERM" EPERM \
	klogns exec -n -- klogns exec -u 1000 -- klogns rc 5
expect "child with CAP_SYSLOG: READ with a negative length is EINVAL" EINVAL \
	klogns exec -n -- klogns rc 2 -1
expect "user child: console level (action 8) needs the initial namespace: EPERM" EPERM \
	klogns exec -u 1000 -U -n -- klogns rc 8 4
level=$(cut -f1 /proc/sys/kernel/printk)
expect "root child: console level acts on the global console" 0 \
	klogns exec -n -- klogns rc 8 "$level"
expect "user child: CONSOLE_OFF is EPERM" EPERM klogns exec -u 1000 -U -n -- klogns rc 6
expect "unknown action 12 in a user child is EINVAL" EINVAL klogns exec -u 1000 -U -n -- klogns rc 12

# --- nesting and siblings ----------------------------------------------
klogns exec -n -t P -- sh -c "
	klogns exec -n -t A -- sh -c 'echo \"<6>SIBA-$MARK\" >/dev/kmsg; busybox dmesg' >$T/a.out
	klogns exec -n -t B -- sh -c 'echo \"<6>SIBB-$MARK\" >/dev/kmsg; busybox dmesg' >$T/b.out
	echo '<6>PARENT-$MARK' >/dev/kmsg
	busybox dmesg" >$T/p.out 2>&1
check "sibling A sees its record" has "SIBA-$MARK" $T/a.out
check "sibling A does not see sibling B's" hasnt "SIBB-$MARK" $T/a.out
check "sibling B does not see sibling A's" hasnt "SIBA-$MARK" $T/b.out
check "sibling A does not see the parent's" hasnt "PARENT-$MARK" $T/a.out
check "the parent sees its own record" has "PARENT-$MARK" $T/p.out
check "user writes in children do not reach the parent (policy 1)" hasnt "SIB" $T/p.out

# --- /dev/kmsg and /proc/kmsg ------------------------------------------
klogns exec -n -- sh -c "echo '<6>KMSGA' >/dev/kmsg; echo '<13>KMSGB' >/dev/kmsg; echo 'KMSGC' >/dev/kmsg; klogns kmsg" >$T/k.out 2>&1
expect "child /dev/kmsg: record 0 begins the log and names the namespace" \
	"6,0,syslog_ns: log of ns:N begins (depth 1, ring 65536 bytes)" \
	sh -c "sed -n '1s/^\([0-9]*,[0-9]*\),[0-9]*,[-c];/\1,/p' $T/k.out | sed 's/ of ns:[0-9]* / of ns:N /'"
expect "child /dev/kmsg: the first written record, sequence 1, LOG_USER facility" "14,1,KMSGA" \
	sh -c "sed -n '2s/^\([0-9]*,[0-9]*\),[0-9]*,[-c];/\1,/p' $T/k.out"
expect "child /dev/kmsg: the next keeps <13>" "13,2,KMSGB" \
	sh -c "sed -n '3s/^\([0-9]*,[0-9]*\),[0-9]*,[-c];/\1,/p' $T/k.out"
expect "child /dev/kmsg: no prefix means LOG_USER and the default level" "12,3,KMSGC" \
	sh -c "sed -n '4s/^\([0-9]*,[0-9]*\),[0-9]*,[-c];/\1,/p' $T/k.out"
klogns exec -n -- sh -c "echo '<6>PROCK-$MARK' >/dev/kmsg; klogns proc-kmsg; echo second; klogns proc-kmsg" >$T/pk.out 2>&1
check "child /proc/kmsg: reads the child's record in syslog format" has "^<14>\[ *[0-9]*\.[0-9]*\] PROCK-$MARK" $T/pk.out
# shellcheck disable=SC2016 # $ is sed's last line
expect "child /proc/kmsg: the read was destructive" second sed -n '/second/,$p' $T/pk.out
klogns exec -n -- klogns hold "<6>HELD-$MARK" >$T/hold.out 2>&1
check "an open /dev/kmsg keeps its namespace after its last task left" has "HELD-$MARK" $T/hold.out
exec 3</dev/kmsg
klogns exec -n -- klogns kmsg 3 >$T/fd3.out 2>&1
exec 3<&-
check "a /dev/kmsg opened in the host reads the host log inside a child" has "$HOST1" $T/fd3.out
klogns exec -n -- sh -c "exec 4</dev/kmsg; klogns poll 4; echo '<6>P' >/dev/kmsg; klogns poll 4" >$T/poll.out 2>&1
expect "child /dev/kmsg poll: empty, then readable" "$(printf '\nIN RDNORM')" cat $T/poll.out
klogns exec -n -s 4096 -- sh -c "exec 4</dev/kmsg; i=0; while [ \$i -lt 200 ]; do echo \"<6>flood \$i\" >/dev/kmsg; i=\$((i+1)); done; klogns poll 4; klogns kmsg 4 | head -1" >$T/loss.out 2>&1
expect "child /dev/kmsg: a reader that fell behind gets POLLERR|POLLPRI, then EPIPE" \
	"$(printf 'IN PRI ERR RDNORM\nEPIPE')" cat $T/loss.out

# --- /dev/kmsg write ratelimit; its note names a comm: not kernel text ----
echo ratelimit >/proc/sys/kernel/printk_devkmsg
echo 1 >/proc/sys/kernel/syslog_ns_propagate
klogns exec -n -t rl -- sh -c "
	i=0
	while [ \$i -lt 15 ]; do
		echo \"<6>RL\$i-$MARK\" >/dev/kmsg
		i=\$((i + 1))
	done
	sleep 6
	echo '<6>RLAFTER-$MARK' >/dev/kmsg
	busybox dmesg" >$T/rl.out 2>&1
echo on >/proc/sys/kernel/printk_devkmsg
echo 0 >/proc/sys/kernel/syslog_ns_propagate
expect "ratelimit: 15 writes through 15 opens store 10 (per namespace)" 10 \
	sh -c "grep -c 'RL[0-9]*-$MARK' $T/rl.out"
check "ratelimit: the child's log reports 5 suppressed lines" \
	has "sh: 5 output lines suppressed due to ratelimiting" $T/rl.out
check "ratelimit: the write after the window is stored" has "RLAFTER-$MARK" $T/rl.out
busybox dmesg >$T/host.dmesg
check "policy 1: the note (it names the writer's comm) is not copied to the host" \
	hasnt "5 output lines suppressed due to ratelimiting" $T/host.dmesg
check "the child's own writes are not copied to the host" hasnt "RL1-$MARK" $T/host.dmesg

# --- dmesg_restrict ------------------------------------------------------
echo 1 >/proc/sys/kernel/dmesg_restrict
expect "dmesg_restrict=1: unprivileged host process is denied the host log" EPERM \
	klogns exec -u 1000 -- klogns rc 3 100
klogns exec -u 1000 -U -n -- sh -c "echo '<6>RESTR-$MARK' >/dev/kmsg; busybox dmesg" >$T/r.out 2>&1
check "dmesg_restrict=1: a user child still reads its own log" has "RESTR-$MARK" $T/r.out
expect "dmesg_restrict=1 is inherited: a child's READ_ALL needs CAP_SYSLOG" EPERM \
	klogns exec -n -- klogns exec -u 1000 -- klogns rc 3 100
echo 0 >/proc/sys/kernel/dmesg_restrict

# --- netfilter LOG --------------------------------------------------------
# A container: user ns + syslog ns + netns, a LOG rule on lo, one ping.
# Its netns is created after (nfa) or with (nfb: clone3 with CLONE_NEWNET |
# CLONE_NEWSYSLOG) its syslog namespace; nfe's netns exists before its
# syslog namespace, which does not take it over; nfh has no syslog
# namespace and keeps upstream's nf_log_all_netns guard.
mkdir -p /run
ln -sf xtables-legacy-multi /bin/iptables
# iptables-legacy locks /run/xtables.lock: let unprivileged users open it.
touch /run/xtables.lock
chmod 0666 /run/xtables.lock
cat >$T/nfc.sh <<'NFC'
ip link set lo up
iptables -A OUTPUT -o lo -j LOG --log-prefix "NF-$1-$2: " || echo "iptables failed"
ping -c 1 -W 1 127.0.0.1 >/dev/null 2>&1
busybox dmesg
NFC
busybox dmesg >$T/nf.before
klogns exec -U -n -t nfa -- unshare -n sh $T/nfc.sh nfa "$MARK" >$T/nfa.out 2>&1
klogns exec -U -- klogns clone3 0x40000040 sh $T/nfc.sh nfb "$MARK" >$T/nfb.out 2>&1
klogns exec -U -- unshare -n klogns exec -n -t nfe -- sh $T/nfc.sh nfe "$MARK" >$T/nfe.out 2>&1
klogns exec -U -- unshare -n sh $T/nfc.sh nfh "$MARK" >$T/nfh.out 2>&1
busybox dmesg >$T/host.dmesg
check "netfilter: LOG in a netns made after the syslog ns logs there" \
	has "NF-nfa-$MARK: IN= OUT=lo" $T/nfa.out
check "netfilter: LOG in a netns made with the syslog ns (one clone3) logs there" \
	has "NF-nfb-$MARK: IN= OUT=lo" $T/nfb.out
check "netfilter: a syslog ns made later does not take over an existing netns" \
	hasnt "NF-nfe-$MARK" $T/nfe.out
check "netfilter: positive control: that netns's rule was installed" \
	hasnt "iptables failed" $T/nfe.out
check "netfilter: a container does not see its sibling's packets (a)" hasnt "NF-nfb-$MARK" $T/nfa.out
check "netfilter: a container does not see its sibling's packets (b)" hasnt "NF-nfa-$MARK" $T/nfb.out
check "netfilter: at defaults the host log is unchanged (same records before and after)" \
	host_kept $T/nf.before $T/host.dmesg "NF-nf[abeh]-$MARK"
gained $T/host.dmesg
check "netfilter: a netns without a syslog ns keeps the nf_log_all_netns guard" \
	hasnt "NF-nfh-$MARK" $T/host.dmesg
check "netfilter: the netns that predates its syslog ns keeps the guard too" \
	hasnt "NF-nfe-$MARK" $T/host.dmesg
check "netfilter: positive control: the unbound netns's rule was installed" \
	hasnt "iptables failed" $T/nfh.out
# Copies of everything (policy 2) still respect nf_log_all_netns=0 ...
echo 2 >/proc/sys/kernel/syslog_ns_propagate
klogns exec -U -n -t nfc -- unshare -n sh $T/nfc.sh nfc "$MARK" >$T/nfc.out 2>&1
busybox dmesg >$T/host.dmesg
check "netfilter: policy 2, nf_log_all_netns=0: the container logs its packets" \
	has "NF-nfc-$MARK: IN=" $T/nfc.out
check "netfilter: policy 2, nf_log_all_netns=0: no copy reaches the host" \
	hasnt "NF-nfc-$MARK" $T/host.dmesg
# ... and with nf_log_all_netns=1 the host log takes a bound netns's
# lines as 6.12 prints them, never as copies, whatever the policy: at 2
# (nfd) and at the default 0 (nfg); the container keeps its own.
echo 1 >/proc/sys/net/netfilter/nf_log_all_netns
klogns exec -U -n -t nfd -- unshare -n sh $T/nfc.sh nfd "$MARK" >$T/nfd.out 2>&1
echo 0 >/proc/sys/kernel/syslog_ns_propagate
klogns exec -U -n -t nfg -- unshare -n sh $T/nfc.sh nfg "$MARK" >$T/nfg.out 2>&1
echo 0 >/proc/sys/net/netfilter/nf_log_all_netns
busybox dmesg >$T/host.dmesg
check "netfilter: nf_log_all_netns=1, policy 2: the host has the line as 6.12 prints it" \
	has "^\[[ 0-9.]*\] NF-nfd-$MARK: IN= OUT=lo" $T/host.dmesg
check "netfilter: nf_log_all_netns=1, policy 0: the host has the line as 6.12 prints it" \
	has "^\[[ 0-9.]*\] NF-nfg-$MARK: IN= OUT=lo" $T/host.dmesg
check "netfilter: nf_log_all_netns=1: the containers keep their own lines (d)" \
	has "NF-nfd-$MARK: IN= OUT=lo" $T/nfd.out
check "netfilter: nf_log_all_netns=1: the containers keep their own lines (g)" \
	has "NF-nfg-$MARK: IN= OUT=lo" $T/nfg.out
expect "netfilter: nf_log_all_netns=1: the host has each of the container's lines once (d)" \
	"$(grep -c "NF-nfd-$MARK: IN=" $T/nfd.out)" grep -c "NF-nfd-$MARK: IN=" $T/host.dmesg
check "netfilter: nf_log_all_netns=1: no labelled copy reaches the host" \
	hasnt "\[ns:[0-9]*:nf[dg]\]" $T/host.dmesg
check "netfilter: nf_log_all_netns=0: no line of a container's packets in the host log" \
	hasnt "NF-nf[abceh]-$MARK" $T/host.dmesg
# The dictionary of a copy on the host's /dev/kmsg: the two keys 6.12's
# records carry, which journald stores as _KERNEL_SUBSYSTEM and
# _KERNEL_DEVICE.  dict_of FILE PATTERN: the dictionary lines of the first
# record in FILE (/dev/kmsg format) whose line matches PATTERN, on one line.
dict_of() {
	awk -v pat="$2" 'f && /^ / { printf "%s%s", sep, substr($0, 2); sep = " "; next }
		{ f = 0 } !d && $0 ~ pat { f = 1; d = 1 } END { print "" }' "$1"
}
echo 2 >/proc/sys/kernel/syslog_ns_propagate
klogns exec -U -n -t dk -- sh -c "echo '<6>DICT-$MARK' >/dev/kmsg
	echo '<34>AUTH-$MARK' >/dev/kmsg; klogns kmsg" >$T/dk.kmsg 2>&1
echo 0 >/proc/sys/kernel/syslog_ns_propagate
echo "<6>HOSTDICT-$MARK" >/dev/kmsg
echo "<34>HOSTAUTH-$MARK" >/dev/kmsg
klogns kmsg >$T/host.kmsg 2>&1
# pri_of FILE PATTERN: the priority (facility * 8 + level) of the first
# record in FILE (/dev/kmsg format) whose text matches PATTERN.
pri_of() {
	sed -n "s/^\([0-9]*\),[0-9]*,[0-9]*,[-c];$2\$/\1/p" "$1" | head -1
}
# A container may write <34> (auth.crit) into its own log, but its copy
# on the host is filed as user.notice: it cannot pose as the host's
# authentication log.  Controls: the container's own record, and the
# host's own write, keep 34.
expect "copy facility: the container's own auth.crit record keeps 34" \
	34 pri_of $T/dk.kmsg "AUTH-$MARK"
expect "copy facility: its copy on the host is user.notice, 13" \
	13 pri_of $T/host.kmsg "\\[ns:[0-9]*:dk\\] AUTH-$MARK"
expect "copy facility: control: the host's own <34> write keeps 34" \
	34 pri_of $T/host.kmsg "HOSTAUTH-$MARK"
dkid=$(sed -n "s/^[0-9]*,[0-9]*,[0-9]*,[-c];\[ns:\([0-9]*\):dk\] DICT-$MARK\$/\1/p" $T/host.kmsg | head -1)
check "dictionary: policy 2 copied the container's /dev/kmsg line to the host" \
	test -n "$dkid"
expect "dictionary: the copy on the host's /dev/kmsg carries SUBSYSTEM=syslog_ns and DEVICE=+syslog_ns:<id>" \
	"SUBSYSTEM=syslog_ns DEVICE=+syslog_ns:${dkid:-none}" dict_of $T/host.kmsg "\\[ns:[0-9]*:dk\\] DICT-$MARK\$"
expect "dictionary: control: a host record has no dictionary" "" \
	dict_of $T/host.kmsg ";HOSTDICT-$MARK\$"
check "dictionary: control: dict_of reads a planted dictionary" \
	sh -c "printf '6,1,0,-;x\n SUBSYSTEM=a\n DEVICE=+b:1\n6,2,0,-;y\n' >$T/dict.ctl"
expect "dictionary: control: dict_of gives both lines of a planted record and nothing of the next" \
	"SUBSYSTEM=a DEVICE=+b:1" dict_of $T/dict.ctl ";x\$"

# The binding cannot be diverted: inside a uid-1000 container (netns
# bound to "victim"), the root of a nested user namespace makes a syslog
# namespace and sends a UDP packet: it stays in victim's log.  Nor can the
# container's own root (CAP_NET_ADMIN over the netns): a syslog namespace
# it makes later ("heir") does not take the netns over either.
cat >$T/divert.sh <<'EOF'
ip link set lo up
iptables -A OUTPUT -o lo -j LOG --log-prefix "DIV-$1: " || echo "iptables failed"
klogns exec -U -n -t thief -- sh -c "klogns udp 9; echo thief:; busybox dmesg"
echo victim:
busybox dmesg
klogns exec -n -t heir -- sh -c "ping -c 1 -W 1 127.0.0.1 >/dev/null 2>&1; echo heir:; busybox dmesg"
echo victim-after:
busybox dmesg
EOF
klogns exec -u 1000 -U -n -t victim -- unshare -n sh $T/divert.sh "$MARK" >$T/divert.out 2>&1
check "binding: a nested namespace without CAP_NET_ADMIN over the netns cannot divert it" \
	sh -c "sed -n '/^victim:/,/^heir:/p' $T/divert.out | grep -q 'DIV-$MARK: IN='"
check "binding: the would-be thief sent its packet (positive control)" \
	grep -q "^sent\$" $T/divert.out
check "binding: the would-be thief's log has none of the packets" \
	sh -c "sed -n '/^thief:/,/^victim:/p' $T/divert.out | grep -q '^victim:' &&
		! sed -n '/^thief:/,/^victim:/p' $T/divert.out | grep -q 'DIV-$MARK'"
check "binding: the container's root that makes a namespace does not take the netns" \
	sh -c "sed -n '/^heir:/,/^victim-after:/p' $T/divert.out | grep -q '^victim-after:' &&
		! sed -n '/^heir:/,/^victim-after:/p' $T/divert.out | grep -q 'DIV-$MARK'"
check "binding: the heir's ping stays in the container's log (two packets there)" \
	sh -c "[ \$(sed -n '/^victim-after:/,\$p' $T/divert.out | grep -c 'DIV-$MARK: IN=') -ge 2 ]"

# --- sysctls: propagation policy, its ratelimit, the size limit ----------
SC=/proc/sys/kernel
expect "sysctl: kernel.syslog_ns_propagate defaults to 0 (no copies)" 0 cat $SC/syslog_ns_propagate
expect "sysctl: kernel.syslog_ns_propagate_burst defaults to 10" 10 cat $SC/syslog_ns_propagate_burst
expect "sysctl: kernel.syslog_ns_propagate_interval_ms defaults to 5000" 5000 \
	cat $SC/syslog_ns_propagate_interval_ms
expect "sysctl: kernel.syslog_ns_max_size defaults to 1 MiB" 1048576 cat $SC/syslog_ns_max_size
check "sysctl: a user namespace's root cannot write syslog_ns_propagate" \
	klogns exec -U -- sh -c "! echo 2 2>/dev/null >$SC/syslog_ns_propagate"
check "sysctl: syslog_ns_propagate=3 is refused" sh -c "! echo 3 2>/dev/null >$SC/syslog_ns_propagate"
check "sysctl: syslog_ns_propagate_interval_ms=0 is refused (never unlimited)" \
	sh -c "! echo 0 2>/dev/null >$SC/syslog_ns_propagate_interval_ms"
check "sysctl: syslog_ns_propagate_burst=10001 is refused" \
	sh -c "! echo 10001 2>/dev/null >$SC/syslog_ns_propagate_burst"
expect "sysctl: the refused writes changed nothing" "0 10 5000" sh -c \
	"echo \$(cat $SC/syslog_ns_propagate $SC/syslog_ns_propagate_burst $SC/syslog_ns_propagate_interval_ms)"
klogns exec -n -t p0 -- sh -c "echo '<6>PZERO-$MARK' >/dev/kmsg"
echo 2 >$SC/syslog_ns_propagate
klogns exec -n -t p2 -- sh -c "echo '<6>PTWO-$MARK' >/dev/kmsg"
echo 1 >$SC/syslog_ns_propagate
klogns exec -n -t p1 -- sh -c "echo '<6>PONE-$MARK' >/dev/kmsg"
echo 0 >$SC/syslog_ns_propagate
busybox dmesg >$T/host.dmesg
check "policy 0: a child's /dev/kmsg write is not copied" hasnt "PZERO-$MARK" $T/host.dmesg
check "policy 2: a child's /dev/kmsg write is copied, labelled [ns:<id>:p2]" \
	has "^\[[ 0-9.]*\] \[ns:[0-9]*:p2\] PTWO-$MARK\$" $T/host.dmesg
check "policy 1: a child's /dev/kmsg write is not copied" hasnt "PONE-$MARK" $T/host.dmesg
# The copy budget: burst 2 per 1000 ms; 5 writes, then one in the next
# window, which first reports the 3 refused as one line.  The refused
# ones count in the container's kernel.syslog_ns_stats (copies sent,
# refused) as soon as its forwarder has seen them, though the last two
# were passed over without going to the host's budget.
echo 2 >$SC/syslog_ns_propagate
echo 2 >$SC/syslog_ns_propagate_burst
echo 1000 >$SC/syslog_ns_propagate_interval_ms
sleep 1.1	# the copies above must not share prl's window
klogns exec -n -t prl -- sh -c "
	for i in 1 2 3 4 5; do echo \"<6>PRL\$i-$MARK\" >/dev/kmsg; done
	for i in \$(seq 1 50); do
		[ \"\$(cut -d' ' -f5,6 $SC/syslog_ns_stats)\" = '2 3' ] && break
		sleep 0.1
	done
	cut -d' ' -f5,6 $SC/syslog_ns_stats
	sleep 1.2
	echo '<6>PRLNEXT-$MARK' >/dev/kmsg
	sleep 0.5
	cut -d' ' -f5,6 $SC/syslog_ns_stats" >$T/prl.stats 2>&1
echo 0 >$SC/syslog_ns_propagate
echo 10 >$SC/syslog_ns_propagate_burst
echo 5000 >$SC/syslog_ns_propagate_interval_ms
busybox dmesg | grep ':prl\] ' >$T/prl.host
expect "copy budget: burst 2, then one suppressed line, then the next window" \
	"[ns:N:prl] PRL1-$MARK|[ns:N:prl] PRL2-$MARK|[ns:N:prl] 3 messages suppressed|[ns:N:prl] PRLNEXT-$MARK" \
	sh -c "sed -e 's/^\[[ 0-9.]*\] //' -e 's/^\[ns:[0-9]*:/[ns:N:/' $T/prl.host | tr '\\n' '|' | sed 's/|\$//'"
expect "copy budget: kernel.syslog_ns_stats counts the 3 refused at once, then 3 sent" \
	"2 3|3 3" sh -c "tr '\n' '|' <$T/prl.stats | sed 's/|\$//'"
# A container decides what it takes from its own children; the host's
# settings stay the host's.
klogns exec -u 1000 -U -n -t own -- sh -c "
	cat $SC/syslog_ns_propagate
	echo 2 >$SC/syslog_ns_propagate
	echo 3 >$SC/syslog_ns_propagate_burst
	cat $SC/syslog_ns_propagate $SC/syslog_ns_propagate_burst
	klogns exec -n -t sub -- sh -c 'for i in 1 2 3 4 5; do echo \"<6>OWN\$i-$MARK\" >/dev/kmsg; done'
	busybox dmesg" >$T/own.out 2>&1
expect "own policy: a container reads the host's policy (0), sets 2 and burst 3" \
	"0|2|3" sh -c "head -3 $T/own.out | tr '\n' '|' | sed 's/|\$//'"
expect "own policy: its child's 5 writes give 3 labelled copies in the container" 3 \
	grep -c "^\[[ 0-9.]*\] \[ns:[0-9]*:sub\] OWN[0-9]-$MARK\$" $T/own.out
busybox dmesg >$T/host.dmesg
check "own policy: nothing of it reaches the host" hasnt "OWN[0-9]-$MARK" $T/host.dmesg
expect "own policy: the host's policy and burst are unchanged" "0 10" sh -c \
	"echo \$(cat $SC/syslog_ns_propagate $SC/syslog_ns_propagate_burst)"

echo 65536 >$SC/syslog_ns_max_size
expect "syslog_ns_max_size=65536: a 131072-byte ring is EINVAL" EINVAL klogns newns - 131072
expect "syslog_ns_max_size=65536: a 65536-byte ring is fine" 0 klogns newns - 65536
check "syslog_ns_max_size below 4096 is refused" sh -c "! echo 1024 2>/dev/null >$SC/syslog_ns_max_size"
echo 20000 >$SC/syslog_ns_max_size
expect "syslog_ns_max_size=20000, below the default: a new namespace still comes, its ring the largest allowed" \
	16384 klogns exec -n -- cat $SC/syslog_ns_size
echo 1048576 >$SC/syslog_ns_max_size
expect "syslog_ns_max_size back to 1 MiB (control): a new namespace has the default ring" \
	65536 klogns exec -n -- cat $SC/syslog_ns_size

# --- the ns file: /proc/PID/ns/syslog, setns, NS_GET_PARENT ---------------
INIT_INO=4026531830	# PROC_SYSLOG_INIT_INO
ino_of() { stat -L -c %i "$1"; }
expect "ns file: the host's /proc/self/ns/syslog is syslog:[$INIT_INO]" \
	"syslog:[$INIT_INO]" readlink /proc/self/ns/syslog
echo 2 >$SC/syslog_ns_propagate
klogns exec -n -- sh -c "readlink /proc/self/ns/syslog; echo '<6>NSID-$MARK' >/dev/kmsg" \
	>$T/nsid.out 2>&1
echo 0 >$SC/syslog_ns_propagate
ino=$(sed -n 's/^syslog:\[\([0-9]*\)\]$/\1/p' $T/nsid.out)
busybox dmesg >$T/host.dmesg
check "ns file: a child's link names an inode of its own" \
	sh -c "[ -n '$ino' ] && [ '$ino' != $INIT_INO ]"
check "ns file: that inode is the [ns:<inode>] label of the child's copies" \
	has "^\[[ 0-9.]*\] \[ns:$ino\] NSID-$MARK\$" $T/host.dmesg

# Two siblings that exit at once; bind mounts of their ns files keep them.
for f in nsA nsB host l1 l2 l3; do touch $T/$f; done
mount --bind /proc/self/ns/syslog $T/host
klogns exec -n -t sa -- sh -c \
	"echo '<6>KEEPA-$MARK' >/dev/kmsg; mount --bind /proc/self/ns/syslog $T/nsA"
klogns exec -n -t sb -- sh -c \
	"echo '<6>KEEPB-$MARK' >/dev/kmsg; mount --bind /proc/self/ns/syslog $T/nsB"
klogns exec -j $T/nsA -- busybox dmesg >$T/keepa.out 2>&1
check "setns: a bind-mounted ns file keeps an exited namespace's log" \
	has "KEEPA-$MARK" $T/keepa.out
check "setns: the joined log is that namespace's only" hasnt "KEEPB-$MARK" $T/keepa.out
klogns exec -j $T/nsA -- klogns exec -j $T/nsB -- busybox dmesg >$T/keepb.out 2>&1
check "setns: sibling A's root enters sibling B (both owned by the host)" \
	has "KEEPB-$MARK" $T/keepb.out
check "setns: after entering B, A's records are not visible" hasnt "KEEPA-$MARK" $T/keepb.out
expect "setns: a user namespace's root cannot enter a host-owned sibling" EPERM \
	klogns exec -U -n -- klogns setns $T/nsB
expect "setns: a container cannot enter the host's log" EPERM \
	klogns exec -U -n -- klogns setns $T/host
expect "setns: an unprivileged user cannot enter a namespace" EPERM \
	klogns exec -u 1000 -- klogns setns $T/nsA
expect "setns: a CLONE_NEWNET type for a syslog ns file is EINVAL" EINVAL \
	klogns setns $T/nsA 0x40000000
expect "setns: the host enters a child and comes back" 0 \
	klogns exec -j $T/nsA -- klogns setns $T/host

# --- the namespace type: CLONE_NEWSYSLOG, clone3, setns by pidfd ----------
expect "ns file: NS_GET_NSTYPE is CLONE_NEWSYSLOG" 0x40 \
	klogns exec -n -- klogns nstype /proc/self/ns/syslog
expect "setns: the type CLONE_NEWSYSLOG is accepted for a syslog ns file" 0 \
	klogns exec -j $T/nsA -- klogns setns $T/host 0x40
expect "setns: the type CLONE_NEWSYSLOG is EINVAL for a UTS ns file" EINVAL \
	klogns setns /proc/self/ns/uts 0x40
klogns clone3 0x40 sh -c "readlink /proc/self/ns/syslog;
	echo '<6>CLONE3-$MARK' >/dev/kmsg; busybox dmesg" >$T/c3.out 2>&1
check "clone3(CLONE_NEWSYSLOG): the child is in a new namespace" hasnt \
	"syslog:\[$INIT_INO\]" $T/c3.out
check "clone3(CLONE_NEWSYSLOG): the child reads its own record" has "CLONE3-$MARK" $T/c3.out
check "clone3(CLONE_NEWSYSLOG): the child does not read the host's" hasnt "$HOST1" $T/c3.out
expect "clone3(CLONE_NEWSYSLOG): the parent stays in the host's" \
	"syslog:[$INIT_INO]" readlink /proc/self/ns/syslog
klogns exec -u 1000 -- klogns clone3 0x10000040 sh -c \
	"echo '<6>C3USER-$MARK' >/dev/kmsg; busybox dmesg" >$T/c3u.out 2>&1
check "clone3(CLONE_NEWUSER|CLONE_NEWSYSLOG) by uid 1000: reads its own log" \
	has "C3USER-$MARK" $T/c3u.out
check "clone3(CLONE_NEWUSER|CLONE_NEWSYSLOG) by uid 1000: not the host's" \
	hasnt "$HOST1" $T/c3u.out
expect "clone3(CLONE_NEWSYSLOG) by uid 1000 without a user namespace is EPERM" \
	EPERM klogns exec -u 1000 -- klogns clone3 0x40 true
klogns clone3 0x04000040 readlink /proc/self/ns/syslog /proc/self/ns/uts \
	>$T/c3both.out 2>&1
check "clone3(CLONE_NEWSYSLOG|CLONE_NEWUTS): a new syslog namespace" \
	hasnt "syslog:\[$INIT_INO\]" $T/c3both.out
check "clone3(CLONE_NEWSYSLOG|CLONE_NEWUTS): and a new UTS namespace" \
	hasnt "uts:.$(readlink /proc/self/ns/uts | tr -dc 0-9)" $T/c3both.out
busybox dmesg >$T/host.dmesg
check "host: the clone3 children's records are not in its log" sh -c \
	"! grep -q 'CLONE3-$MARK\\|C3USER-$MARK' $T/host.dmesg"
klogns exec -n -- sh -c "echo '<6>PIDFD-$MARK' >/dev/kmsg; exec sleep 60" &
ppid=$!
for i in $(seq 50); do
	[ "$(readlink /proc/$ppid/ns/syslog)" != "syslog:[$INIT_INO]" ] && break
	sleep 0.1
done
klogns pidfd-setns $ppid 0x40 busybox dmesg >$T/pidfd.out 2>&1
check "setns(pidfd, CLONE_NEWSYSLOG): the host's root reads the task's log" \
	has "PIDFD-$MARK" $T/pidfd.out
check "setns(pidfd, CLONE_NEWSYSLOG): and only that log" hasnt "$HOST1" $T/pidfd.out
expect "setns(pidfd, CLONE_NEWSYSLOG) by an unprivileged user is EPERM" EPERM \
	klogns exec -u 1000 -- klogns pidfd-setns $ppid 0x40 true
expect "setns(pidfd, CLONE_NEWSYSLOG) by a user namespace's root is EPERM" EPERM \
	klogns exec -U -- klogns pidfd-setns $ppid 0x40 true
kill $ppid 2>/dev/null; wait $ppid 2>/dev/null

# --- the series' kselftest (tools/testing/selftests/syslog_ns) --------------
syslog_ns_test >$T/kst.out 2>&1
kst_rc=$?
# shellcheck disable=SC2094 # the loop and the grep in it only read kst.out
while read -r line; do
	case $line in
	"ok "*) ok "kselftest: ${line#ok [0-9]* }" ;;
	"not ok "*) not_ok "kselftest: ${line#not ok [0-9]* }" \
		"$(grep '^#' $T/kst.out | grep -v '^# \(RUN\|  *OK\)' | head -5)" ;;
	esac
done <$T/kst.out
check "kselftest: syslog_ns_test ran its tests and exited 0" sh -c \
	"[ $kst_rc -eq 0 ] && grep -q '^# Totals: pass:[1-9][0-9]* fail:0 ' $T/kst.out"

# --- kernel.syslog_ns_tag and kernel.syslog_ns_size ------------------------
expect "sysctl: the host has no kernel.syslog_ns_tag" ENOENT \
	klogns sysctl syslog_ns_tag x
expect "sysctl: the host has no kernel.syslog_ns_size" ENOENT \
	klogns sysctl syslog_ns_size 4096
expect "sysctl: a child's tag reads back" web \
	klogns exec -n -t web -- cat /proc/sys/kernel/syslog_ns_tag
expect "sysctl: a child without a tag reads an empty one" "" \
	klogns exec -n -- cat /proc/sys/kernel/syslog_ns_tag
expect "sysctl: a child's size reads back, rounded" 8192 \
	klogns exec -n -s 5000 -- cat /proc/sys/kernel/syslog_ns_size
expect "sysctl: the default size reads back" 65536 \
	klogns exec -n -- cat /proc/sys/kernel/syslog_ns_size
expect "sysctl: the tag is EBUSY after the first record" EBUSY \
	klogns exec -n -t early -- sh -c "echo '<6>BUSY-$MARK' >/dev/kmsg;
	klogns sysctl syslog_ns_tag late"
expect "sysctl: a refused tag leaves the old one" early \
	klogns exec -n -t early -- sh -c "echo '<6>BUSY-$MARK' >/dev/kmsg;
	klogns sysctl syslog_ns_tag late >/dev/null; cat /proc/sys/kernel/syslog_ns_tag"
expect "sysctl: the size is EBUSY after the first record" EBUSY \
	klogns exec -n -- sh -c "echo '<6>BUSY-$MARK' >/dev/kmsg;
	klogns sysctl syslog_ns_size 4096"
expect "sysctl: a refused resize keeps the ring and its record" "65536 1" \
	klogns exec -n -- sh -c "echo '<6>BUSY-$MARK' >/dev/kmsg;
	klogns sysctl syslog_ns_size 4096 >/dev/null;
	echo \$(cat /proc/sys/kernel/syslog_ns_size) \$(busybox dmesg | grep -c BUSY-$MARK)"
expect "sysctl: a resize before the first record keeps a reader's file" \
	"RESIZED-$MARK" klogns exec -n -- sh -c "exec 3</dev/kmsg;
	klogns sysctl syslog_ns_size 4096 >/dev/null;
	echo '<6>RESIZED-$MARK' >/dev/kmsg; klogns kmsg 3 | grep -o 'RESIZED-$MARK'"
expect "sysctl: a container's root cannot tag a host-owned namespace" EPERM \
	klogns exec -n -- klogns exec -U -- klogns sysctl syslog_ns_tag x
expect "sysctl: an unprivileged user cannot open a namespace's tag" EACCES \
	klogns exec -n -- klogns exec -u 1000 -- klogns sysctl syslog_ns_tag x
expect "sysctl: uid 1000 cannot give its namespace more than the default" EPERM \
	klogns exec -u 1000 -U -n -- klogns sysctl syslog_ns_size 131072
expect "sysctl: uid 1000 may give its namespace less than the default" 0 \
	klogns exec -u 1000 -U -n -- klogns sysctl syslog_ns_size 4096
expect "sysctl: a size over the maximum is EINVAL" EINVAL \
	klogns exec -n -- klogns sysctl syslog_ns_size 2097152
expect "sysctl: a tag of 32 bytes is EINVAL" EINVAL \
	klogns exec -n -- klogns sysctl syslog_ns_tag 0123456789abcdef0123456789abcdef

# Another user's container: uid 1000 in its own user namespace.
klogns exec -u 1000 -U -n -t uo -- sh -c "echo '<6>OTHER-$MARK' >/dev/kmsg; exec sleep 60" &
upid=$!
for i in 1 2 3 4 5 6 7 8 9 10; do
	[ "$(readlink /proc/$upid/ns/syslog)" != "syslog:[$INIT_INO]" ] && break
	sleep 0.2
done
touch $T/nsU
mount --bind /proc/$upid/ns/syslog $T/nsU
expect "NS_GET_USERNS: the owner is the creator's user namespace" \
	"$(ino_of /proc/$upid/ns/user)" klogns owner $T/nsU
expect "NS_GET_USERNS: a host-made namespace is owned by the initial one" \
	"$(ino_of /proc/self/ns/user)" klogns owner $T/nsA
expect "setns: another user's container cannot enter uid 1000's namespace" EPERM \
	klogns exec -u 1001 -U -- klogns setns $T/nsU
expect "setns: a root-owned container cannot enter uid 1000's namespace" EPERM \
	klogns exec -U -n -- klogns setns $T/nsU
klogns exec -j $T/nsU -- busybox dmesg >$T/nsu.out 2>&1
check "setns: the host's root enters uid 1000's namespace and reads it" \
	has "OTHER-$MARK" $T/nsu.out
kill $upid
wait $upid 2>/dev/null

# Three levels, each bind-mounted, with a record written at the deepest.
cat >$T/level.sh <<EOF
n=\$1
mount --bind /proc/self/ns/syslog $T/l\$n
if [ \$n -lt 3 ]; then
	klogns exec -n -t t\$((n + 1)) -- sh $T/level.sh \$((n + 1))
else
	echo "<6>DEEP-$MARK" >/dev/kmsg
fi
EOF
echo 2 >$SC/syslog_ns_propagate
klogns exec -n -t t1 -- sh $T/level.sh 1
# Copies go up asynchronously, each level's from a work item of its own
# forwarder: wait until the host has its copy (10 s at most) before the
# copies are turned off and the logs read.
for _w in $(seq 100); do
	busybox dmesg | grep -q "DEEP-$MARK" && break
	sleep 0.1
done
echo 0 >$SC/syslog_ns_propagate
i1=$(ino_of $T/l1); i2=$(ino_of $T/l2); i3=$(ino_of $T/l3)
check "nesting: three namespaces with inodes of their own" \
	sh -c "[ $i1 != $i2 ] && [ $i2 != $i3 ] && [ $i1 != $INIT_INO ]"
expect "NS_GET_PARENT from the host: l3 -> l2 -> l1 -> host, then EPERM" \
	"$i2 $i1 $INIT_INO EPERM" klogns parents $T/l3
expect "NS_GET_PARENT inside l1 stops at l1" "$i2 $i1 EPERM" \
	klogns exec -j $T/l1 -- klogns parents $T/l3
expect "NS_GET_PARENT inside l3 cannot reach l2's parent" "EPERM" \
	klogns exec -j $T/l3 -- klogns parents $T/l2
klogns exec -j $T/l3 -- busybox dmesg >$T/l3.out 2>&1
klogns exec -j $T/l2 -- busybox dmesg >$T/l2.out 2>&1
klogns exec -j $T/l1 -- busybox dmesg >$T/l1.out 2>&1
busybox dmesg >$T/host.dmesg
TS='^\[[ 0-9.]*\]'
# The patterns, anchored at both ends: one per level, used by the checks
# and by their controls below.
P3="$TS DEEP-$MARK\$"
P2="$TS \[ns:$i3:t3\] DEEP-$MARK\$"
P1="$TS \[ns:$i2:t2\] \[ns:$i3:t3\] DEEP-$MARK\$"
PH="$TS \[ns:$i1:t1\] \[ns:$i2:t2\] \[ns:$i3:t3\] DEEP-$MARK\$"
check "nesting: level 3 holds its record unlabelled" has "$P3" $T/l3.out
check "nesting: level 2 holds the copy labelled [ns:$i3:t3]" has "$P2" $T/l2.out
check "nesting: level 1 holds [ns:$i2:t2] [ns:$i3:t3]" has "$P1" $T/l1.out
check "nesting: the host holds [ns:$i1:t1] [ns:$i2:t2] [ns:$i3:t3]" has "$PH" $T/host.dmesg
expect "nesting: the host holds exactly one copy" 1 grep -c "DEEP-$MARK" $T/host.dmesg
expect "nesting: levels 3, 2 and 1 hold exactly one copy each" "1 1 1" sh -c \
	"echo \$(grep -c 'DEEP-$MARK' $T/l3.out) \$(grep -c 'DEEP-$MARK' $T/l2.out) \$(grep -c 'DEEP-$MARK' $T/l1.out)"
# Controls: each pattern refuses a line with one label more (a tag the
# level must not show, a duplicated one) and takes its own line.
ts='[    1.000000]'
printf '%s [ns:%s:t3] DEEP-%s\n' "$ts" "$i3" "$MARK" >$T/ctl.3
printf '%s [ns:%s:t3] [ns:%s:t3] DEEP-%s\n' "$ts" "$i3" "$i3" "$MARK" >$T/ctl.2
printf '%s [ns:%s:t2] [ns:%s:t2] [ns:%s:t3] DEEP-%s\n' "$ts" "$i2" "$i2" "$i3" "$MARK" >$T/ctl.1
printf '%s [ns:%s:t1] [ns:%s:t1] [ns:%s:t2] [ns:%s:t3] DEEP-%s\n' "$ts" "$i1" "$i1" "$i2" "$i3" "$MARK" >$T/ctl.h
check "nesting: control: the unlabelled pattern refuses a labelled line" fails has "$P3" $T/ctl.3
check "nesting: control: level 2's pattern refuses a duplicated label" fails has "$P2" $T/ctl.2
check "nesting: control: level 1's pattern refuses a duplicated label" fails has "$P1" $T/ctl.1
check "nesting: control: the host's pattern refuses a duplicated label" fails has "$PH" $T/ctl.h
printf '%s DEEP-%s\n' "$ts" "$MARK" >$T/ctl.own
check "nesting: control: the unlabelled pattern takes an unlabelled line" has "$P3" $T/ctl.own
for f in nsA nsB nsU host l1 l2 l3; do umount $T/$f; done

# --- per-namespace kernel.dmesg_restrict ----------------------------------
klogns exec -n -- sh -c "cat $SC/dmesg_restrict; echo 1 >$SC/dmesg_restrict;
	cat $SC/dmesg_restrict; klogns exec -u 1000 -- klogns rc 3 100" >$T/dr.out 2>&1
expect "dmesg_restrict: a child reads 0, sets 1, then an unprivileged read is EPERM" \
	"0 1 EPERM" sh -c "tr '\n' ' ' <$T/dr.out | sed 's/ \$//'"
expect "dmesg_restrict: the host's value is untouched" 0 cat $SC/dmesg_restrict
expect "dmesg_restrict: a user child's root sets its own namespace's value" 1 \
	klogns exec -U -n -- sh -c "echo 1 >$SC/dmesg_restrict; cat $SC/dmesg_restrict"
check "dmesg_restrict: without CAP_SYS_ADMIN over the owner a write is refused" \
	klogns exec -n -- klogns exec -U -- sh -c "! echo 1 2>/dev/null >$SC/dmesg_restrict"
expect "dmesg_restrict: an unprivileged container's root (uid 1000) sets its own value" 1 \
	klogns exec -u 1000 -U -n -- sh -c "echo 1 >$SC/dmesg_restrict; cat $SC/dmesg_restrict"
expect "dmesg_restrict: in that container the file is owned by its root" "0 0" \
	klogns exec -u 1000 -U -n -- stat -c "%u %g" $SC/dmesg_restrict
check "dmesg_restrict: uid 1000's user namespace root cannot write the host's" \
	klogns exec -u 1000 -U -- sh -c "! echo 1 2>/dev/null >$SC/dmesg_restrict"
expect "dmesg_restrict: on the host the file is root's, mode 0644" "0 0 644" \
	stat -c "%u %g %a" $SC/dmesg_restrict
expect "dmesg_restrict: still 0 on the host" 0 cat $SC/dmesg_restrict

# --- user.max_syslog_namespaces ---------------------------------------------
UMAX=/proc/sys/user/max_syslog_namespaces
umax=$(cat $UMAX)
check "user.max_syslog_namespaces exists and is positive" test "$umax" -gt 0
echo 0 >$UMAX
expect "user.max_syslog_namespaces=0: CLONE_NEWSYSLOG is ENOSPC" ENOSPC klogns newns - 0
echo "$umax" >$UMAX
expect "user.max_syslog_namespaces restored: CLONE_NEWSYSLOG works" 0 klogns newns - 0
expect "a user namespace's limit of 1: the second namespace is ENOSPC" ENOSPC \
	klogns exec -U -- sh -c "echo 1 >$UMAX; klogns exec -n -- klogns newns - 0"

# --- syslogns, the installed tool (tools/syslogns) ---------------------------
# What an administrator does with it: run containers, list them, enter
# one, read one's log from the host; and its errors (exit status 1 and a
# message naming the cause).
SNS=$T/sns
mkdir -p $SNS
initu=$(ino_of /proc/self/ns/user)
# exits_with STATUS PATTERN COMMAND...: the command exits with STATUS and a
# line of its stderr matches PATTERN.
exits_with() {
	ew_want=$1 ew_pat=$2
	shift 2
	"$@" >$T/ew.out 2>$T/ew.err
	ew_rc=$?
	if [ "$ew_rc" != "$ew_want" ]; then
		echo "exit status $ew_rc, wanted $ew_want; stderr:"
		cat $T/ew.err
		return 1
	fi
	grep -q -- "$ew_pat" $T/ew.err && return 0
	echo "no line of stderr matches: $ew_pat; stderr:"
	cat $T/ew.err
	return 1
}
# wait_comm PID COMM: until /proc/PID/comm is COMM (5 s at most): the
# container has set itself up and exec'd its last program.
wait_comm() {
	for _w in $(seq 50); do
		[ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] && return 0
		sleep 0.1
	done
	echo "process $1 is not $2"
	return 1
}
# json_ok FILE: FILE is the JSON of "syslogns list --json": an object with
# one array "namespaces" of objects, one a line, each with the keys ns,
# parent, userns, uid, tag, size, held, lost, sent, refused, nprocs, pid,
# command in that order,
# every value a JSON string, integer or null; commas between the objects
# and not after the last.
cat >$T/json.awk <<'AWK'
function fail(why) { print "line " NR ": " why ": " $0; bad = 1; exit 1 }
# the pairs of one object (the text between its braces); the keys in order
function pairs(s,   keys) {
	keys = ""
	while (1) {
		if (!match(s, /^"[a-z]+": /))
			fail("a key")
		keys = keys substr(s, 2, RLENGTH - 4) " "
		s = substr(s, RLENGTH + 1)
		if (match(s, /^"([^"\\[:cntrl:]]|\\["\\\/bfnrt]|\\u[0-9a-f][0-9a-f][0-9a-f][0-9a-f])*"/) ||
		    match(s, /^-?[0-9]+/) || match(s, /^null/))
			s = substr(s, RLENGTH + 1)
		else
			fail("a value")
		if (s == "")
			return keys
		if (substr(s, 1, 2) != ", ")
			fail("a separator")
		s = substr(s, 3)
	}
}
NR == 1 { if ($0 != "{") fail("the opening brace"); next }
NR == 2 { if ($0 != "   \"namespaces\": [") fail("the array"); next }
$0 == "   ]" { if (!n || comma) fail("the array's end"); end = NR; next }
end && NR == end + 1 { if ($0 != "}") fail("the closing brace"); closed = 1; next }
end { fail("text after the end") }
{
	if (!match($0, /^      \{.*\},?$/))
		fail("an object")
	if (n && !comma)
		fail("no comma after the previous object")
	comma = substr($0, length($0)) == ","
	body = substr($0, 8, length($0) - 8 - comma)
	if (pairs(body) != "ns parent userns uid tag size held lost sent refused nprocs pid command ")
		fail("the keys")
	n++
}
END { if (!bad && !closed) { print "no end"; exit 1 } if (!bad) print n }
AWK
json_ok() {
	awk -f $T/json.awk "$1"
}
check "syslogns: control: exits_with refuses a command that succeeds" \
	fails exits_with 1 . true
check "syslogns: control: exits_with refuses another message" \
	fails exits_with 1 "^syslogns: no such process" syslogns dmesg "nosuch-$MARK"

# run -t -s: the tag and size are set before the first record; dmesg in
# it (util-linux's) shows that record and nothing else.
syslogns run -t snsa -s 8192 -- sh -c "echo '<6>SNSA-$MARK' >/dev/kmsg
	cat /proc/sys/kernel/syslog_ns_tag /proc/sys/kernel/syslog_ns_size
	echo log:; dmesg" >$SNS/a.out 2>&1
expect "syslogns run -t snsa -s 8192: the namespace's tag and size" "snsa 8192" \
	sh -c "sed -n 1,2p $SNS/a.out | tr '\n' ' ' | sed 's/ \$//'"
check "syslogns run: dmesg inside shows the container's record" has "SNSA-$MARK" $SNS/a.out
expect "syslogns run: dmesg inside shows only its first line and that line" 2 \
	sh -c "sed '1,/^log:\$/d' $SNS/a.out | grep -c ."
check "syslogns run: dmesg inside shows no host record" hasnt "$HOST1" $SNS/a.out
expect "syslogns run --user: the caller is root in its user namespace" 0 \
	klogns exec -u 1000 -- syslogns run --user -- id -u
# --user --net in one unshare call: the new netns is bound to the new log.
klogns exec -u 1000 -- syslogns run --user --net -t snsnet -- \
	sh $T/nfc.sh snsnet "$MARK" >$SNS/net.out 2>&1
check "syslogns run --user --net: the container's LOG lines are in its log" \
	has "NF-snsnet-$MARK: IN= OUT=lo" $SNS/net.out
busybox dmesg >$T/host.dmesg
check "syslogns run --user --net: and not in the host's" hasnt "NF-snsnet-$MARK" $T/host.dmesg

# Containers that stay: root's (b, 3 records), uid 1000's with --user
# (u), a nested pair whose outer namespace has no process left (its only
# process re-ran syslogns, which moved it into the inner one), a 4096-byte
# ring flooded with 100 records of some 100 bytes (fl), and a namespace
# that takes at most 3 copies a window from its children (p) with a
# child that writes 5 records (c).
syslogns run -t snsb -s 16K -- sh -c "echo '<6>SNSB-$MARK' >/dev/kmsg
	echo '<6>SNSB2-$MARK' >/dev/kmsg; echo '<6>SNSB3-$MARK' >/dev/kmsg
	exec sleep 300" &
bpid=$!
klogns exec -u 1000 -- syslogns run --user -t snsu -- \
	sh -c "echo '<6>SNSU-$MARK' >/dev/kmsg; exec sleep 300" &
upid2=$!
syslogns run -t snsouter -- syslogns run -t snsinner -- sleep 300 &
npid=$!
syslogns run -t snsfl -s 4096 -- sh -c "i=0; while [ \$i -lt 100 ]; do
	echo \"<6>SNSFL-$MARK \$i ................................................................................\" >/dev/kmsg
	i=\$((i + 1)); done; exec sleep 300" &
flpid=$!
syslogns run -t snsp -- sh -c "echo 2 >$SC/syslog_ns_propagate
	echo 3 >$SC/syslog_ns_propagate_burst
	echo 600000 >$SC/syslog_ns_propagate_interval_ms
	exec syslogns run -t snsc -- sh -c 'for j in 1 2 3 4 5; do
		echo \"<6>SNSC\$j-$MARK\" >/dev/kmsg; done; exec sleep 300'" &
cpid=$!
sns_up() {
	wait_comm $bpid sleep && wait_comm $upid2 sleep && wait_comm $npid sleep &&
		wait_comm $flpid sleep && wait_comm $cpid sleep
}
check "syslogns run: the five containers are up" sns_up
bino=$(ino_of /proc/$bpid/ns/syslog)
uino=$(ino_of /proc/$upid2/ns/syslog)
uuser=$(ino_of /proc/$upid2/ns/user)
iino=$(ino_of /proc/$npid/ns/syslog)
oino=$(klogns parents /proc/$npid/ns/syslog | cut -d' ' -f1)
flino=$(ino_of /proc/$flpid/ns/syslog)
cino=$(ino_of /proc/$cpid/ns/syslog)
pino=$(klogns parents /proc/$cpid/ns/syslog | cut -d' ' -f1)

# A namespace that only a bind mount of its ns file keeps.
touch $SNS/bound
syslogns run -t snsbnd -- mount --bind /proc/self/ns/syslog $SNS/bound
bdino=$(ino_of $SNS/bound)

# The columns: 1 NS, 2 PARENT, 3 USERNS, 4 UID, 5 TAG, 6 SIZE, 7 HELD,
# 8 LOST, 9 SENT, 10 REFUSED, 11 NPROCS, 12 PID, 13... COMMAND.
syslogns list >$SNS/list.out 2>&1
# shellcheck disable=SC2016 # $1.. are awk's fields
expect "syslogns list: a namespace kept only by a bind mount, found in mountinfo" \
	"$INIT_INO snsbnd 0 0 - -" \
	awk -v ns="$bdino" '$1 == ns { print $2, $5, $7, $11, $12, $13 }' $SNS/list.out
expect "syslogns list: the columns" \
	"NS PARENT USERNS UID TAG SIZE HELD LOST SENT REFUSED NPROCS PID COMMAND" \
	sh -c "head -1 $SNS/list.out | tr -s ' ' | sed 's/^ //; s/ \$//'"
# shellcheck disable=SC2016 # $1.. are awk's fields
expect "syslogns list: root's container: parent, owner, tag, size, 4 held (its first line and 3), none lost, processes" \
	"$INIT_INO $initu 0 snsb 16384 4 0 0 0 1 $bpid sleep 300" \
	awk -v ns="$bino" '$1 == ns { $1 = ""; sub(/^ /, ""); print }' $SNS/list.out
# shellcheck disable=SC2016 # $1.. are awk's fields
expect "syslogns list: uid 1000's container is owned by its user namespace" \
	"$INIT_INO $uuser 1000 snsu 65536 2 0 0 0 1 $upid2 sleep 300" \
	awk -v ns="$uino" '$1 == ns { $1 = ""; sub(/^ /, ""); print }' $SNS/list.out
# shellcheck disable=SC2016 # $1.. are awk's fields
expect "syslogns list: the host: no parent, no tag, its syslog(2) size, no counters, PID 1" \
	"- $initu 0 - $(klogns rc 10) - - - - 1" \
	awk -v ns="$INIT_INO" '$1 == ns { print $2, $3, $4, $5, $6, $7, $8, $9, $10, $12 }' $SNS/list.out
# shellcheck disable=SC2016 # $1.. are awk's fields
expect "syslogns list: a namespace without processes, found by NS_GET_PARENT" \
	"$INIT_INO snsouter 0 0 0 0 0 - -" \
	awk -v ns="$oino" '$1 == ns { print $2, $5, $7, $8, $9, $10, $11, $12, $13 }' $SNS/list.out
# shellcheck disable=SC2016 # $1.. are awk's fields
expect "syslogns list: its child names it as its parent" "$oino snsinner 1" \
	awk -v ns="$iino" '$1 == ns { print $2, $5, $11 }' $SNS/list.out
# The flood: the ring kept some, lost the rest, and the two add up to
# what the namespace stored (its own kernel.syslog_ns_stats, 2nd field).
# shellcheck disable=SC2016 # $1.. are awk's fields
awk -v ns="$flino" '$1 == ns { print $7, $8, $9, $10 }' $SNS/list.out >$SNS/fl.row
read -r flheld fllost flsent flrefused <$SNS/fl.row
flstored=$(syslogns enter $flpid -- cat $SC/syslog_ns_stats | cut -d' ' -f2)
echo "# syslogns list: a 4096-byte ring after 100 records: held $flheld, lost $fllost, stored $flstored"
check "syslogns list: a flooded 4096-byte ring held some of its 101 records (100 and the first) and lost the rest" \
	sh -c "[ '$flheld' -gt 0 ] && [ '$fllost' -gt 0 ] && [ \$(($flheld + $fllost)) -eq 101 ]"
expect "syslogns list: held + lost is what its kernel.syslog_ns_stats says it stored" \
	"stored $flstored" sh -c "echo stored \$(($flheld + $fllost))"
expect "syslogns list: the flooded ring sent and was refused no copies (policy 0)" \
	"0 0" echo "$flsent" "$flrefused"
# Copies: burst 3 in snsp's window for its children: snsc's 5 records
# gave 3 copies and 2 refusals; snsp holds the 3 copies.  Each log holds
# its first line too (never copied).
# shellcheck disable=SC2016 # $1.. are awk's fields
expect "syslogns list: a child with 5 records and a parent's burst of 3: 6 held, 3 sent, 2 refused" \
	"$pino snsc 6 0 3 2" \
	awk -v ns="$cino" '$1 == ns { print $2, $5, $7, $8, $9, $10 }' $SNS/list.out
# shellcheck disable=SC2016 # $1.. are awk's fields
expect "syslogns list: that parent holds its first line and the 3 copies" "snsp 4 0 0 0" \
	awk -v ns="$pino" '$1 == ns { print $5, $7, $8, $9, $10 }' $SNS/list.out
expect "syslogns list: the parent's log has the 3 labelled copies" 3 \
	sh -c "syslogns dmesg snsp | grep -c '\[ns:$cino:snsc\] SNSC[1-5]-$MARK\$'"
# What uid 1000 cannot enter it lists with ? (and the counters too).
klogns exec -u 1000 -- syslogns list >$SNS/list1000.out 2>&1
# shellcheck disable=SC2016 # $1.. are awk's fields
expect "syslogns list by uid 1000: its container's tag, size and counters are ?" \
	"? ? ? ? ? ?" \
	awk -v ns="$uino" '$1 == ns { print $5, $6, $7, $8, $9, $10 }' $SNS/list1000.out
expect "syslogns list: one row per namespace" "" \
	sh -c "awk 'NR > 1 { print \$1 }' $SNS/list.out | sort | uniq -d"

syslogns list --json >$SNS/list.json 2>&1
expect "syslogns list --json parses, one object per namespace of the table" \
	"$(($(wc -l <$SNS/list.out) - 1))" json_ok $SNS/list.json
check "syslogns list --json: the namespace kept by a bind mount is there" \
	grep -q "\"ns\": $bdino," $SNS/list.json
umount $SNS/bound
# shellcheck disable=SC2016 # $1.. are awk's fields
expect "syslogns list: control: once unmounted, that namespace is gone" "" \
	sh -c "syslogns list | awk -v ns='$bdino' '\$1 == ns'"
expect "syslogns list --json: root's container" \
	"{\"ns\": $bino, \"parent\": $INIT_INO, \"userns\": $initu, \"uid\": 0, \"tag\": \"snsb\", \"size\": 16384, \"held\": 4, \"lost\": 0, \"sent\": 0, \"refused\": 0, \"nprocs\": 1, \"pid\": $bpid, \"command\": \"sleep 300\"}" \
	sh -c "grep '\"ns\": $bino,' $SNS/list.json | sed 's/^ *//; s/,\$//'"
expect "syslogns list --json: the process-less namespace has null PID and command" \
	"{\"ns\": $oino, \"parent\": $INIT_INO, \"userns\": $initu, \"uid\": 0, \"tag\": \"snsouter\", \"size\": 65536, \"held\": 0, \"lost\": 0, \"sent\": 0, \"refused\": 0, \"nprocs\": 0, \"pid\": null, \"command\": null}" \
	sh -c "grep '\"ns\": $oino,' $SNS/list.json | sed 's/^ *//; s/,\$//'"
expect "syslogns list --json: the host's counters are null" \
	"\"held\": null, \"lost\": null, \"sent\": null, \"refused\": null" \
	sh -c "grep '\"ns\": $INIT_INO,' $SNS/list.json | grep -o '\"held\".*\"refused\": [a-z0-9]*'"
expect "syslogns list --json: the copies' counters" \
	"\"held\": 6, \"lost\": 0, \"sent\": 3, \"refused\": 2" \
	sh -c "grep '\"ns\": $cino,' $SNS/list.json | grep -o '\"held\".*\"refused\": [a-z0-9]*'"
# Controls: json_ok refuses a missing comma, a trailing comma, an
# unquoted string, a missing key and a truncated file.
sed '3s/},$/}/' $SNS/list.json >$T/bad1.json
sed '$d' $SNS/list.json | sed '$d' | sed '$s/}$/},/' >$T/bad2.json
printf '   ]\n}\n' >>$T/bad2.json
sed '3s/"tag": "\([^"]*\)"/"tag": \1/' $SNS/list.json >$T/bad3.json
sed '3s/"uid": [0-9]*, //' $SNS/list.json >$T/bad4.json
sed '$d' $SNS/list.json >$T/bad5.json
for b in 1 2 3 4 5; do
	check "syslogns list --json: control: json_ok refuses planted defect $b" \
		fails json_ok $T/bad$b.json
done

syslogns enter $bpid -- dmesg >$SNS/enter.out 2>&1
check "syslogns enter PID: reads the container's log" has "SNSB-$MARK" $SNS/enter.out
check "syslogns enter PID: and only that log" hasnt "$HOST1" $SNS/enter.out
expect "syslogns enter PID: the program runs in that namespace" "syslog:[$bino]" \
	syslogns enter $bpid -- readlink /proc/self/ns/syslog
syslogns enter /proc/$bpid/ns/syslog -- dmesg >$SNS/enterf.out 2>&1
check "syslogns enter NSFILE: reads the container's log" has "SNSB-$MARK" $SNS/enterf.out

syslogns dmesg snsb >$SNS/dm.out 2>&1
check "syslogns dmesg TAG: the host reads the container's log" has "SNSB-$MARK" $SNS/dm.out
check "syslogns dmesg TAG: and only that log" hasnt "$HOST1" $SNS/dm.out
check "syslogns dmesg TAG: without -r no raw prefix" hasnt "^<[0-9]" $SNS/dm.out
syslogns dmesg snsb -r >$SNS/dmr.out 2>&1
check "syslogns dmesg TAG -r: dmesg's options are passed on" \
	has "^<[0-9][0-9]*>\[ *[0-9]*\.[0-9]*\] SNSB-$MARK\$" $SNS/dmr.out
syslogns dmesg snsu >$SNS/dmu.out 2>&1
check "syslogns dmesg TAG: the host reads uid 1000's container" has "SNSU-$MARK" $SNS/dmu.out
syslogns dmesg $bpid >$SNS/dmp.out 2>&1
check "syslogns dmesg PID: reads the container's log" has "SNSB-$MARK" $SNS/dmp.out
syslogns dmesg /proc/$bpid/ns/syslog >$SNS/dmf.out 2>&1
check "syslogns dmesg NSFILE: reads the container's log" has "SNSB-$MARK" $SNS/dmf.out

# Errors: exit status 1 and the cause.
true &
dead=$!
wait $dead
check "syslogns enter: a PID that does not exist: 'no such process'" \
	exits_with 1 "^syslogns: no such process: $dead\$" syslogns enter $dead -- true
check "syslogns dmesg: an unknown tag: 'no syslog namespace with the tag'" \
	exits_with 1 "^syslogns: no syslog namespace with the tag nosuch-$MARK\$" \
	syslogns dmesg "nosuch-$MARK"
syslogns run -t snsdup -- sleep 300 &
d1=$!
syslogns run -t snsdup -- sleep 300 &
d2=$!
wait_comm $d1 sleep && wait_comm $d2 sleep
dups=$(printf '%s\n' "$(ino_of /proc/$d1/ns/syslog)" "$(ino_of /proc/$d2/ns/syslog)" | sort -n | xargs)
check "syslogns dmesg: an ambiguous tag: both namespaces named" \
	exits_with 1 "^syslogns: tag snsdup is ambiguous: namespaces $dups;" syslogns dmesg snsdup
check "syslogns run: unprivileged without --user: EPERM, CAP_SYS_ADMIN named" \
	exits_with 1 "^syslogns: cannot create a syslog namespace: need CAP_SYS_ADMIN in the user namespace that will own it" \
	klogns exec -u 1000 -- syslogns run -t snsx -- true
check "syslogns run: positive control: the same user with --user succeeds" \
	klogns exec -u 1000 -- syslogns run --user -t snsx -- true
check "syslogns enter: unprivileged: EPERM, CAP_SYS_ADMIN over the owner named" \
	exits_with 1 "^syslogns: cannot enter the syslog namespace of $bpid: need CAP_SYS_ADMIN over the namespace's owner user namespace" \
	klogns exec -u 1000 -- syslogns enter $bpid -- true
check "syslogns run: a ring above kernel.syslog_ns_max_size: named" \
	exits_with 1 "^syslogns: cannot set the ring size to 2097152: above kernel.syslog_ns_max_size (1048576)\$" \
	syslogns run -s 2M -- true
check "syslogns run --user: a ring above the default needs the initial namespace" \
	exits_with 1 "a ring above the default (65536 bytes) needs CAP_SYS_ADMIN in the initial user namespace" \
	klogns exec -u 1000 -- syslogns run --user -s 128K -- true
echo 0 >$UMAX
check "syslogns run: user.max_syslog_namespaces reached: ENOSPC named" \
	exits_with 1 "^syslogns: cannot create a syslog namespace: user.max_syslog_namespaces (0) reached" \
	syslogns run -- true
echo "$umax" >$UMAX
check "syslogns enter: a namespace file of another type: named" \
	exits_with 1 "^syslogns: /proc/self/ns/net is a net namespace, not a syslog namespace\$" \
	syslogns enter /proc/self/ns/net -- true
kill $bpid $upid2 $npid $flpid $cpid $d1 $d2 2>/dev/null
wait $bpid $upid2 $npid $flpid $cpid $d1 $d2 2>/dev/null

# --- real runtimes: unmodified Debian binaries, kernel.syslog_ns_auto -------
# util-linux unshare (/bin/unshare: a bare "unshare" is busybox's applet),
# bubblewrap and crun, copied from the build host by tests/guest/run.sh.
# With kernel.syslog_ns_auto=1 every user namespace they make comes with
# a syslog namespace, and a network namespace made in the same call (or
# later, inside) is bound to it; with 0 (each one's control) they share
# the host's log.
AUTO=$SC/syslog_ns_auto
RT=$T/rt
mkdir -p $RT/newroot
chmod 0777 $RT
expect "auto: kernel.syslog_ns_auto defaults to 0" 0 cat $AUTO
check "auto: a user namespace's root cannot write kernel.syslog_ns_auto" \
	klogns exec -U -- sh -c "! echo 1 2>/dev/null >$AUTO"
echo "<6>HOSTRT-$MARK" >/dev/kmsg
# shellcheck source=runtimes.sh
. /etc/runtimes.sh
# What each runtime's container runs: a LOG rule on lo, a record, one
# ping (its request and its reply pass OUTPUT on lo: two LOG lines), then
# its log by util-linux dmesg after a line "log:".
cat >$RT/rt.sh <<'EOF'
ip link set lo up
iptables -A OUTPUT -o lo -j LOG --log-prefix "RT-$1: " || echo "iptables failed"
echo "<6>RTREC-$1" >/dev/kmsg
ping -c 1 -W 1 127.0.0.1 >/dev/null 2>&1
echo log:
/usr/bin/dmesg
EOF
# rt_counts FILE NAME: in FILE's log (the lines after "log:", but a
# crun container's closing "end"), the line that begins a fresh log at
# depth 1, NAME's record, NAME's LOG lines, and every other line.
RT_BEGINS='\] syslog_ns: log of ns:[^ ]* begins (depth 1, ring 65536 bytes)$'
rt_counts() {
	sed -n '/^log:$/,$p' "$1" | sed '1d; /^end$/d' >"$1.log"
	printf '%s %s %s %s\n' "$(grep -c "$RT_BEGINS" "$1.log")" \
		"$(grep -c "\] RTREC-$2\$" "$1.log")" \
		"$(grep -c "\] RT-$2: IN= OUT=lo " "$1.log")" \
		"$(grep -vc "$RT_BEGINS\|\] RTREC-$2\$\|\] RT-$2: IN= OUT=lo " "$1.log")"
}
# Controls: rt_counts takes a container's own log and counts a host line.
printf 'log:\n[    0.9] syslog_ns: log of ns:4026532001 begins (depth 1, ring 65536 bytes)\n[    1.0] RTREC-x\n[    1.1] RT-x: IN= OUT=lo A\n[    1.2] RT-x: IN= OUT=lo B\n' >$RT/ctl.out
expect "runtimes: control: rt_counts counts a log's first line, a container's record and LOG lines" \
	"1 1 2 0" rt_counts $RT/ctl.out x
echo "[    0.5] HOSTRT-$MARK" >>$RT/ctl.out
expect "runtimes: control: rt_counts counts a host line among them" \
	"1 1 2 1" rt_counts $RT/ctl.out x

# rt_run NAME COMMAND...: COMMAND (which runs rt.sh NAME-$MARK) with
# kernel.syslog_ns_auto=1 into $RT/NAME.out, then the same with 0 as
# NAMEoff into $RT/NAMEoff.out; the host's log before, between and after
# in $RT/NAME.before, $RT/NAME.after and $RT/NAMEoff.after.
rt_run() {
	rr_name=$1
	shift
	busybox dmesg >"$RT/$rr_name.before"
	echo 1 >$AUTO
	"$@" sh $RT/rt.sh "$rr_name-$MARK" >"$RT/$rr_name.out" 2>&1
	echo 0 >$AUTO
	busybox dmesg >"$RT/$rr_name.after"
	"$@" sh $RT/rt.sh "${rr_name}off-$MARK" >"$RT/${rr_name}off.out" 2>&1
	busybox dmesg >"$RT/${rr_name}off.after"
}
# rt_checks NAME WHAT: the checks of rt_run NAME.
rt_checks() {
	expect "$2, auto on: util-linux dmesg inside shows only its log's first line, its record and its 2 LOG lines" \
		"1 1 2 0" rt_counts "$RT/$1.out" "$1-$MARK"
	check "$2, auto on: the host log is untouched" \
		host_kept "$RT/$1.before" "$RT/$1.after" "-$1-$MARK"
	gained "$RT/$1.after"
	check "$2, auto off (control): dmesg inside shows the host's log" \
		has "HOSTRT-$MARK" "$RT/${1}off.out"
	check "$2, auto off (control): its record is in the host's log, which host_kept catches" \
		fails host_kept "$RT/$1.after" "$RT/${1}off.after" "-${1}off-$MARK"
}

# util-linux unshare, as an unprivileged user: -U -r -n in one unshare(2).
rt_run un klogns exec -u 1000 -- /bin/unshare -U -r -n
rt_checks un "util-linux unshare -U -r -n (uid 1000)"
# bubblewrap, as an unprivileged user; --uid 0 and the two capabilities
# let the sandbox set up its network (bwrap drops every capability).
rt_run bw inroot klogns exec -u 1000 -- bwrap --unshare-user --unshare-net \
	--uid 0 --gid 0 --cap-add CAP_NET_ADMIN --cap-add CAP_NET_RAW --dev-bind / /
rt_checks bw "bwrap --unshare-user --unshare-net (uid 1000)"

# util-linux dmesg's options in a container (unshare -U -r, uid 1000).
cat >$RT/dm.sh <<EOF
echo '<3>DMX1-$MARK' >/dev/kmsg
echo '<14>DMX2-$MARK' >/dev/kmsg
echo decode:; /usr/bin/dmesg -x
echo syslog:; /usr/bin/dmesg -S
echo json:; /usr/bin/dmesg --json
echo jsonx:; /usr/bin/dmesg --json -x
echo clear:; /usr/bin/dmesg -c
echo after:; /usr/bin/dmesg; /usr/bin/dmesg -S
echo end:
EOF
# part NAME: the lines of $DMOUT between "NAME:" and the next "WORD:".
part() {
	sed -n "/^$1:\$/,/^[a-z]*:\$/p" "$DMOUT" | sed '1d; $d'
}
# joined: stdin with timestamps as [T], namespace ids as N, runs of
# spaces as one, the lines joined by "|".
joined() {
	sed 's/\[ *[0-9]*\.[0-9]*\]/[T]/; s/ of ns:[0-9]* / of ns:N /' | tr -s ' ' |
		tr '\n' '|' | sed 's/|$//'
}
# The line that begins the container's log.
ANN='syslog_ns: log of ns:N begins (depth 1, ring 65536 bytes)'

dm_text() {
	part "$1" | joined
}
# The JSON's messages; its frame (the lines indented less than a record's);
# with -x, the names of facility and level.
dm_json_msgs() {
	part json | grep -o '"msg": .*' | joined
}
dm_json_frame() {
	part json | grep -v '^      ' | joined
}
dm_jsonx() {
	part jsonx | grep -o '"fac": [^,]*\|"pri": [^,]*' | joined
}
# What dmesg and dmesg -S print after dmesg -c, in brackets.
dm_after() {
	grep -q '^end:$' "$DMOUT" || { echo "no end: in $DMOUT"; return 1; }
	echo "[$(part after | joined)]"
}
dm_after_empty() {
	[ "$(dm_after)" = "[]" ]
}
# dm_checks WHERE BEFORE AFTER: the checks of dm.sh's output in $DMOUT,
# which ran in WHERE; the host's log before and after it in BEFORE and
# AFTER.
dm_checks() {
	expect "dmesg -x in $1: facility and level decoded, its first line and 2 records only" \
		"kern :info : [T] $ANN|user :err : [T] DMX1-$MARK|user :info : [T] DMX2-$MARK" dm_text decode
	expect "dmesg -S in $1: syslog(2) gives its first line and 2 records only" \
		"[T] $ANN|[T] DMX1-$MARK|[T] DMX2-$MARK" dm_text syslog
	expect "dmesg --json in $1: its first line and 2 records only" \
		"\"msg\": \"$ANN\"|\"msg\": \"DMX1-$MARK\"|\"msg\": \"DMX2-$MARK\"" dm_json_msgs
	expect "dmesg --json in $1: an object with one array \"dmesg\"" \
		"{| \"dmesg\": [| ]|}" dm_json_frame
	expect "dmesg --json -x in $1: facility and level by name" \
		"\"fac\": \"kern\"|\"pri\": \"info\"|\"fac\": \"user\"|\"pri\": \"err\"|\"fac\": \"user\"|\"pri\": \"info\"" dm_jsonx
	expect "dmesg -c in $1: prints its first line and 2 records" \
		"[T] $ANN|[T] DMX1-$MARK|[T] DMX2-$MARK" dm_text clear
	check "dmesg -c in $1: then dmesg and dmesg -S show nothing" dm_after_empty
	check "dmesg -c in $1: the host keeps every line of its log" \
		host_kept "$2" "$3" "DMX[12]-$MARK"
	gained "$3"
}

# In util-linux unshare -U -r (uid 1000, auto on).
busybox dmesg >$RT/dm.before
echo 1 >$AUTO
klogns exec -u 1000 -- /bin/unshare -U -r sh $RT/dm.sh >$RT/dm.out 2>&1
echo 0 >$AUTO
busybox dmesg >$RT/dm.after
DMOUT=$RT/dm.out
dm_checks "unshare -U -r" $RT/dm.before $RT/dm.after
sed '$d' $RT/dm.before >$RT/dm.planted
check "dmesg -c: control: host_kept catches a host log that lost its last line" \
	fails host_kept $RT/dm.before $RT/dm.planted "DMX[12]-$MARK"
awk '{ print } /^after:$/ { print "[    9.9] HOSTDM-planted" }' $RT/dm.out >$RT/dm.planted
DMOUT=$RT/dm.planted
check "dmesg -c: control: dm_after_empty catches a line left after dmesg -c" \
	fails dm_after_empty

# In bubblewrap (uid 1000, a user namespace, auto on).
busybox dmesg >$RT/dmbw.before
echo 1 >$AUTO
inroot klogns exec -u 1000 -- bwrap --unshare-user --uid 0 --gid 0 \
	--cap-add CAP_SYSLOG --dev-bind / / sh $RT/dm.sh >$RT/dmbw.out 2>&1
echo 0 >$AUTO
busybox dmesg >$RT/dmbw.after
DMOUT=$RT/dmbw.out
dm_checks "bwrap --unshare-user" $RT/dmbw.before $RT/dmbw.after

# dmesg -w follows the container's log: FOLLOW1 shown, then the host
# writes a record, then FOLLOW2: the follower shows FOLLOW1 and FOLLOW2
# and not the host's record written between them.
rm -f $RT/w.out $RT/w.ready $RT/w.host
cat >$RT/follow.sh <<EOF
timeout -s KILL 60 /usr/bin/dmesg -w >$RT/w.out 2>&1 &
wpid=\$!
echo '<6>FOLLOW1-$MARK' >/dev/kmsg
for i in \$(seq 100); do grep -q FOLLOW1 $RT/w.out && break; sleep 0.1; done
touch $RT/w.ready
for i in \$(seq 100); do [ -e $RT/w.host ] && break; sleep 0.1; done
echo '<6>FOLLOW2-$MARK' >/dev/kmsg
for i in \$(seq 100); do grep -q FOLLOW2 $RT/w.out && break; sleep 0.1; done
kill \$wpid
EOF
echo 1 >$AUTO
klogns exec -u 1000 -- /bin/unshare -U -r sh $RT/follow.sh >$RT/follow.out 2>&1 &
fpid=$!
for _ in $(seq 200); do [ -e $RT/w.ready ] && break; sleep 0.1; done
handshake=no
[ -e $RT/w.ready ] && handshake=yes
echo "<6>HOSTFOLLOW-$MARK" >/dev/kmsg
touch $RT/w.host
wait $fpid
echo 0 >$AUTO
busybox dmesg >$RT/follow.host
check "dmesg -w in a container: the host wrote while it followed (handshake)" \
	test "$handshake" = yes
expect "dmesg -w in a container: follows its own log only" \
	"[T] $ANN|[T] FOLLOW1-$MARK|[T] FOLLOW2-$MARK" joined <$RT/w.out
check "dmesg -w: positive control: the host's record is in the host's log" \
	has "HOSTFOLLOW-$MARK" $RT/follow.host

# --- crun: OCI bundles with a busybox root file system ----------------------
# The root file system: static busybox and the applets the containers
# use, util-linux dmesg, iptables-legacy with its extensions, the static
# syslogns, and the guest's libraries (/lib, /lib64).  crun runs with
# --cgroup-manager=disabled and config.json has no cgroup namespace: the
# containers need no cgroup (no controller, no limit), so the guest
# kernel's config stays as it is.  The bundles pivot_root(2) (inroot).
# /dev/kmsg, not among OCI's default devices, is bound in, as an
# administrator who hands containers their log does; no seccomp profile
# (the guest kernel has no CONFIG_SECCOMP).
# /ct.sh NAME [net]: a container's program: rt.sh NAME (net), else only a
# record and the log; then "end" and sleep.
cat >$RT/ct.sh <<'EOF'
if [ "$2" = net ]; then
	sh /rt.sh "$1"
else
	echo "<6>RTREC-$1" >/dev/kmsg
	echo log:
	/usr/bin/dmesg
fi >/out 2>&1
echo end >>/out
exec sleep 300
EOF
mkdir -p $RT/crun-1000
chown 1000:1000 $RT/crun-1000

# crun_auto NAME WHAT: run bundle $RT/NAME as uid 1000 with the auto mode
# on, the host log in $RT/NAME.before and, once it ran, $RT/NAME.after.
crun_auto() {
	busybox dmesg >"$RT/$1.before"
	echo 1 >$AUTO
	crun_1000 run -d --bundle "$RT/$1" "$1" >"$RT/$1.run" 2>&1
	echo 0 >$AUTO
	check "crun rootless, $2: the container runs" wait_end "$RT/$1"
	busybox dmesg >"$RT/$1.after"
}

# Rootless: crun run by uid 1000, a user namespace in config.json, auto on.
mkbundle $RT/cu 1 /bin/sh /ct.sh "cu-$MARK" net
mkbundle $RT/cuoff 1 /bin/sh /ct.sh "cuoff-$MARK" net
crun_auto cu "auto on"
expect "crun rootless, auto on: dmesg inside shows only its first line, its record and its 2 LOG lines" \
	"1 1 2 0" rt_counts $RT/cu/rootfs/out "cu-$MARK"
check "crun rootless, auto on: the host log is untouched" \
	host_kept $RT/cu.before $RT/cu.after "-cu-$MARK"
gained $RT/cu.after
crun_1000 exec cu syslogns enter 1 -- /usr/bin/dmesg \
	>$RT/cu.exec 2>&1
check "crun exec (rootless): syslogns enter 1 reads the container's log" \
	has "RTREC-cu-$MARK" $RT/cu.exec
check "crun exec (rootless): and not the host's" hasnt "HOSTRT-$MARK" $RT/cu.exec
cupid=$(crun_1000 state cu | sed -n 's/^ *"pid": \([0-9]*\),$/\1/p')
cuns=$(readlink "/proc/$cupid/ns/syslog")
check "crun rootless, auto on: the container's init has a syslog namespace of its own" \
	sh -c "[ -n '$cupid' ] && [ -n '$cuns' ] && [ '$cuns' != 'syslog:[$INIT_INO]' ]"
expect "crun exec (rootless): syslogns enter 1 runs in the container's namespace" \
	"$cuns" crun_1000 exec cu syslogns enter 1 -- \
	readlink /proc/self/ns/syslog
crun_1000 run -d --bundle $RT/cuoff cuoff >$RT/cuoff.run 2>&1
check "crun rootless, auto off (control): the container runs" wait_end $RT/cuoff
busybox dmesg >$RT/cuoff.after
check "crun rootless, auto off (control): dmesg inside shows the host's log" \
	has "HOSTRT-$MARK" $RT/cuoff/rootfs/out
check "crun rootless, auto off (control): its record is in the host's log, which host_kept catches" \
	fails host_kept $RT/cu.after $RT/cuoff.after "-cuoff-$MARK"
expect "crun exec (rootless) without syslogns enter stays in the host's syslog namespace (crun 1.8.1 joins only the kinds it knows)" \
	"syslog:[$INIT_INO]" crun_1000 exec cu readlink /proc/self/ns/syslog
crun_1000 delete -f cu >/dev/null 2>&1
crun_1000 delete -f cuoff >/dev/null 2>&1

# util-linux dmesg's options in a rootless crun container (auto on).
cat >$RT/ctdm.sh <<'EOF'
sh /dm.sh >/out 2>&1
echo end >>/out
exec sleep 300
EOF
mkbundle $RT/cd 1 /bin/sh /ctdm.sh
crun_auto cd "dmesg options"
DMOUT=$RT/cd/rootfs/out
dm_checks "crun (rootless)" $RT/cd.before $RT/cd.after
crun_1000 delete -f cd >/dev/null 2>&1

# As root, syslogns run as the entrypoint (no user namespace, auto off).
mkbundle $RT/cr 0 /bin/syslogns run -t crunroot -- /bin/sh /ct.sh "cr-$MARK"
mkbundle $RT/croff 0 /bin/sh /ct.sh "croff-$MARK"
busybox dmesg >$RT/cr.before
crun_root run -d --bundle $RT/cr cr >$RT/cr.run 2>&1
check "crun as root, syslogns run as the entrypoint: the container runs" wait_end $RT/cr
busybox dmesg >$RT/cr.after
expect "crun as root + syslogns run: dmesg inside shows only its first line and its record" \
	"1 1 0 0" rt_counts $RT/cr/rootfs/out "cr-$MARK"
check "crun as root + syslogns run: the host log is untouched" \
	host_kept $RT/cr.before $RT/cr.after "-cr-$MARK"
gained $RT/cr.after
crun_root exec cr syslogns enter 1 -- /usr/bin/dmesg >$RT/cr.exec 2>&1
check "crun exec (root): syslogns enter 1 reads the container's log" \
	has "RTREC-cr-$MARK" $RT/cr.exec
check "crun exec (root): and not the host's" hasnt "HOSTRT-$MARK" $RT/cr.exec
expect "crun exec (root): the container's tag is crunroot" crunroot \
	crun_root exec cr syslogns enter 1 -- cat $SC/syslog_ns_tag
crun_root run -d --bundle $RT/croff croff >$RT/croff.run 2>&1
check "crun as root without syslogns run (control): the container runs" wait_end $RT/croff
busybox dmesg >$RT/croff.after
check "crun as root without syslogns run (control): dmesg inside shows the host's log" \
	has "HOSTRT-$MARK" $RT/croff/rootfs/out
check "crun as root without syslogns run (control): host_kept catches its record" \
	fails host_kept $RT/cr.after $RT/croff.after "-croff-$MARK"
crun_root delete -f cr >/dev/null 2>&1
crun_root delete -f croff >/dev/null 2>&1
expect "runtimes: kernel.syslog_ns_auto is back to 0" 0 cat $AUTO

# --- memory cgroup accounting ----------------------------------------------
# The same steps with four nested namespaces of a 4 KiB ring and of a 1 MiB
# ring, in a memory cgroup of their own: the difference in memory.current
# is the rings.  memory.current moves in charge batches of 64 pages per
# CPU (256 KiB) besides, so one 1 MiB ring is too small to tell from that
# noise; four are not.
CG=/sys/fs/cgroup
if mount -t cgroup2 none $CG && echo +memory >$CG/cgroup.subtree_control &&
	mkdir $CG/kl; then
	cat >$T/memcg.sh <<EOF
echo \$\$ >$CG/kl/cgroup.procs
b=\$(cat $CG/kl/memory.current)
n="klogns exec -n -s \$1 --"
\$n \$n \$n \$n cat $CG/kl/memory.current >$T/memcg.\$1
echo \$((\$(cat $T/memcg.\$1) - b))
EOF
	sh $T/memcg.sh 4096 >/dev/null	# warm-up: first-use charges
	small=$(sh $T/memcg.sh 4096)
	big=$(sh $T/memcg.sh 1048576)
	echo "# memcg: memory.current grew by $small bytes (4 x 4 KiB rings), $big bytes (4 x 1 MiB rings)"
	# 3 MiB leaves room for four charge batches either way
	check "memcg: four 1 MiB rings are charged to their creator's memory cgroup" \
		test $((big - small)) -ge $((3 * 1048576))
	check "memcg: control: four 4 KiB rings are not charged as 1 MiB ones" \
		test "$small" -lt $((3 * 1048576))
	rmdir $CG/kl
	umount $CG
else
	not_ok "memcg: cgroup2 with the memory controller is available"
fi

# --- the golden operations: a child answers as the host does -------------
# tests/golden/main.ops (without "syslog 11", which would move the capture
# out of the host log), settings.ops (printk.time, kernel.printk_devkmsg,
# kernel.dmesg_restrict and a caller without CAP_SYSLOG) and signals.ops
# (blocking reads and a signal, with and without SA_RESTART) run by
# tests/golden/capture on the host log and
# in a child with a ring as large as the host's; golden_norm.awk drops
# what reads the boot log and normalises timestamps and sequence numbers.
# Every section but the first must be identical, and neither capture may
# report a blocked operation or a handler that ran more or less than once.
# golden_child NAME MINSECT: the sections of /golden/NAME.ops (at least
# MINSECT of them)
golden_child() {
	g=$1
	grep -v '^syslog 11 ' "/golden/$g.ops" >"$T/$g.ops"
	# a record first, in both: the first operation drains the log with a
	# READ, which would wait in a log that earlier tests drained (the
	# host) or that is still empty (the child)
	for _ in 1 2 3; do
		echo "<6>golden $g" >/dev/kmsg
		capture "$T/$g.ops" >$T/cap.host 2>&1 && break	# 1: a foreign record raced
	done
	klogns exec -n -s 131072 -- sh -c "echo '<6>golden $g' >/dev/kmsg &&
		exec capture $T/$g.ops" >$T/cap.child 2>&1
	awk -f /golden/golden_norm.awk $T/cap.host >$T/norm.host
	awk -f /golden/golden_norm.awk $T/cap.child >$T/norm.child
	nsect=$(grep -c ': # == section' $T/norm.host)
	check "golden: $g: the host and the child ran all $nsect sections" \
		sh -c "[ $nsect -ge $2 ] && [ \$(grep -c ': # == section' $T/norm.child) = $nsect ] && ! grep -q '^# WARNING' $T/cap.host $T/cap.child"
	for sct in $(seq 2 $((nsect + 1))); do
		name=$(grep "^$sct: # == section" $T/norm.host | sed 's/.*section: \(.*\) ==/\1/')
		grep "^$sct: " $T/norm.host >$T/sect.host
		grep "^$sct: " $T/norm.child >$T/sect.child
		nops=$(grep -c "^$sct: > " $T/sect.host)
		ndiff=$(diff $T/sect.host $T/sect.child | grep -c '^[<>]')
		if [ "$ndiff" -eq 0 ]; then
			ok "golden: section '$name' ($nops ops) is identical in a child"
		else
			not_ok "golden: section '$name' ($nops ops) is identical in a child"
			diff $T/sect.host $T/sect.child | head -20 | sed 's/^/#   /'
		fi
	done
}
# as the transcripts were recorded: printk.devkmsg=on (with the ratelimit
# many writes would be dropped, and a READ that follows them would wait)
# settings.ops changes kernel.dmesg_restrict and printk.time too: all
# three are put back as they were, whatever the transcript left
devkmsg=$(cat /proc/sys/kernel/printk_devkmsg)
restrict=$(cat /proc/sys/kernel/dmesg_restrict)
ptime=$(cat /sys/module/printk/parameters/time)
echo on >/proc/sys/kernel/printk_devkmsg
golden_child main 10
golden_child settings 5
golden_child signals 3
check "golden: the settings are put back as they were (printk_devkmsg, dmesg_restrict, printk.time)" \
	sh -c "echo '$devkmsg' >/proc/sys/kernel/printk_devkmsg &&
		echo '$restrict' >/proc/sys/kernel/dmesg_restrict &&
		echo '$ptime' >/sys/module/printk/parameters/time &&
		[ \"\$(cat /proc/sys/kernel/printk_devkmsg /proc/sys/kernel/dmesg_restrict /sys/module/printk/parameters/time)\" = '$devkmsg
$restrict
$ptime' ]"
# the signals' results are the ones the ops file's comments promise
check "golden: signals: without SA_RESTART a blocked read is EINTR, in a child too" \
	sh -c "[ \$(grep -c '< ret=-1 errno=EINTR' $T/cap.child) = 3 ]"
check "golden: signals: with SA_RESTART it returns the record, in a child too" \
	sh -c "[ \$(grep -A1 '^> sig_read .* restart' $T/cap.child | grep -c 'data=.*sig_read wake') = 3 ]"

# --- a hostile unprivileged user --------------------------------------------
# uid 1000, every sysctl at its default, tries every way into the host log
# it has: 100 containers (user ns + syslog ns tagged like a kernel
# subsystem + netns), each with a LOG rule and two pings and four
# /dev/kmsg files flooded under a crafted comm, with the write ratelimit
# on.  The host's records must be exactly those it had before.
SC=/proc/sys/kernel
echo ratelimit >$SC/printk_devkmsg
cat >$T/hostile.sh <<'EOF'
ip link set lo up
iptables -A OUTPUT -o lo -j LOG --log-prefix "*ERROR* GPU hang $1 " || echo "iptables failed"
ping -c 2 -W 1 127.0.0.1 >/dev/null 2>&1
klogns flood "drm:GPU_hang" 4 25 "[drm] *ERROR* ring gfx timeout $1" >/dev/null
echo "own: $(busybox dmesg | grep -c "GPU hang $1") $(busybox dmesg | grep -c "ring gfx timeout $1")"
EOF
HOSTILE="$MARK\|drm\|GPU\|ns:[0-9]\|suppressed\|kernel BUG"
busybox dmesg >$T/hostile.before
i=0
while [ $i -lt 100 ]; do
	klogns exec -u 1000 -U -n -t drm -- unshare -n sh $T/hostile.sh "H$i-$MARK" \
		>$T/hostile.out 2>&1
	[ $i -eq 0 ] && cp $T/hostile.out $T/hostile.first
	i=$((i + 1))
done
busybox dmesg >$T/hostile.after
check "hostile: 100 containers at defaults: the host kept its records and gained none of theirs" \
	host_kept $T/hostile.before $T/hostile.after "$HOSTILE"
gained $T/hostile.after
cp $T/hostile.after $T/planted
echo "[   99.000000] [ns:4026532999:drm] *ERROR* GPU hang $MARK" >>$T/planted
check "hostile: control: one planted copy in the host log is caught" \
	fails host_kept $T/hostile.before $T/planted "$HOSTILE"
sed '$d' $T/hostile.before >$T/planted
check "hostile: control: one lost host record is caught" \
	fails host_kept $T/hostile.before $T/planted "$HOSTILE"
expect "hostile: positive control: a container's own log got its 4 LOG lines and 10 writes" \
	"own: 4 10" cat $T/hostile.first
expect "hostile: the last container too (nothing ran out)" "own: 4 10" cat $T/hostile.out

# The write ratelimit's note names the writer's comm: user-influenced, so
# not copied even with kernel-originated copies on (policy 1).
echo 1 >$SC/syslog_ns_propagate
busybox dmesg >$T/note.before
klogns exec -u 1000 -U -n -t note -- sh -c "klogns flood 'kernel BUG' 1 20 NOTE-$MARK >/dev/null;
	sleep 5.3; klogns flood 'kernel BUG' 1 1 NOTE2-$MARK >/dev/null; busybox dmesg" >$T/note.out 2>&1
echo 0 >$SC/syslog_ns_propagate
echo on >$SC/printk_devkmsg
busybox dmesg >$T/note.after
check "hostile: positive control: the child's log has the note naming the crafted comm" \
	has "printk: kernel BUG: 10 output lines suppressed due to ratelimiting" $T/note.out
check "hostile: policy 1: the note with a crafted comm does not reach the host" \
	host_kept $T/note.before $T/note.after "$HOSTILE"
gained $T/note.after

# Copies on (policy 2): 30 containers write at once; the host's budget is
# 5 per 10-minute window (new settings open a new window): together they
# get at most 5 copies, every one labelled with its namespace id.
echo 2 >$SC/syslog_ns_propagate
echo 5 >$SC/syslog_ns_propagate_burst
echo 600000 >$SC/syslog_ns_propagate_interval_ms
i=0
while [ $i -lt 30 ]; do
	klogns exec -u 1000 -U -n -t drm -- sh -c "for j in 1 2 3 4 5; do
		echo '<3>[drm] BUDGET-$MARK-$i-'\$j >/dev/kmsg; done; sleep 2" &
	i=$((i + 1))
done
wait
echo 0 >$SC/syslog_ns_propagate
echo 10 >$SC/syslog_ns_propagate_burst
echo 5000 >$SC/syslog_ns_propagate_interval_ms
busybox dmesg >$T/budget.all
grep "BUDGET-$MARK" $T/budget.all >$T/budget.host
nb=$(grep -c . $T/budget.host)
echo "# copy budget: 30 containers x 5 writes, a budget of 5: the host got $nb"
check "budget: the host got some copies (copies are on)" test "$nb" -ge 1
check "budget: 30 children together got at most one budget (5) into the host" test "$nb" -le 5
expect "budget: every copy is labelled [ns:<id>:drm] before the child's text" 0 \
	grep -vc "^\[[ 0-9.]*\] \[ns:[0-9][0-9]*:drm\] \[drm\] BUDGET-$MARK" $T/budget.host

# Memory: one user pins at most user.max_syslog_namespaces (128) rings of
# the default size, across all of its user namespaces.
expect "memory: uid 1000 cannot ask for a ring above the default size" EPERM \
	klogns exec -u 1000 -U -- klogns newns - 131072
expect "memory: nor inside a namespace its own user namespace owns" EPERM \
	klogns exec -u 1000 -U -n -- klogns newns - 1048576
expect "memory: uid 1000 may ask for the default size" 0 \
	klogns exec -u 1000 -U -- klogns newns - 65536
expect "memory: user.max_syslog_namespaces defaults to 128" 128 \
	cat /proc/sys/user/max_syslog_namespaces
klogns exec -u 1000 -U -- klogns quota 100 0 30 >$T/quota1.out 2>&1 &
q1=$!
for i in $(seq 150); do grep -q '^kib' $T/quota1.out 2>/dev/null && break; sleep 0.2; done
klogns exec -u 1000 -U -- klogns quota 100 0 >$T/quota2.out 2>&1
kill $q1 2>/dev/null
wait $q1 2>/dev/null
expect "memory: uid 1000's first user namespace holds 100 namespaces" \
	"created 100 none" sh -c "head -2 $T/quota1.out | tr '\n' ' ' | sed 's/ \$//'"
expect "memory: its second user namespace gets the other 28, then ENOSPC" \
	"created 28 ENOSPC" sh -c "head -2 $T/quota2.out | tr '\n' ' ' | sed 's/ \$//'"
kib=$(sed -n 's/^kib //p' $T/quota1.out)
echo "# memory: 100 namespaces of 64 KiB pinned $kib KiB of kernel memory (Slab + VmallocUsed + Percpu)"
expect "memory: the same user can create again once they are gone" 0 \
	klogns exec -u 1000 -U -- klogns newns - 0

# --- ebtables' log watcher ------------------------------------------------
# ebt_log follows the netfilter rules above: a bridge with a dummy port in
# the container's netns, a log rule on OUTPUT, one ARP request.  eba is
# bound, ebh is not; ebd is bound, with nf_log_all_netns=1.  The devices
# are deleted before the container ends, so that its netns (which holds
# its syslog namespace) goes quickly; this comes late in the suite all
# the same, after the checks of the host's copy budget, whose share per
# child counts every child still alive.
cat >$T/ebc.sh <<'EBC'
ip link set lo up
{ brctl addbr eb0 && ip link add ed0 type dummy && brctl addif eb0 ed0; } ||
	echo "bridge failed"
ip link set ed0 up
ip link set eb0 up
ip addr add 10.99.0.1/24 dev eb0
ebtables-legacy -A OUTPUT -p 0x0806 --log-prefix "EB-$1-$2" --log-arp ||
	echo "ebtables failed"
ping -c 1 -W 1 10.99.0.2 >/dev/null 2>&1
ip link del eb0
ip link del ed0
busybox dmesg
EBC
klogns exec -U -n -t eba -- unshare -n sh $T/ebc.sh eba "$MARK" >$T/eba.out 2>&1
klogns exec -U -- unshare -n sh $T/ebc.sh ebh "$MARK" >$T/ebh.out 2>&1
echo 1 >/proc/sys/net/netfilter/nf_log_all_netns
klogns exec -U -n -t ebd -- unshare -n sh $T/ebc.sh ebd "$MARK" >$T/ebd.out 2>&1
echo 0 >/proc/sys/net/netfilter/nf_log_all_netns
busybox dmesg >$T/host.dmesg
check "ebt_log: a bound netns's bridge frames are logged in its syslog namespace" \
	has "EB-eba-$MARK IN= OUT=ed0 MAC source = .* proto = 0x0806 ARP HTYPE=1" $T/eba.out
check "ebt_log: positive control: the bridge and the rule were set up (a)" \
	hasnt "failed" $T/eba.out
check "ebt_log: nf_log_all_netns=0: the host log has none of them" \
	hasnt "EB-eb[ah]-$MARK" $T/host.dmesg
check "ebt_log: an unbound netns logs nothing of its own" \
	hasnt "EB-ebh-$MARK" $T/ebh.out
check "ebt_log: positive control: the bridge and the rule were set up (h)" \
	hasnt "failed" $T/ebh.out
check "ebt_log: nf_log_all_netns=1: the container keeps its lines" \
	has "EB-ebd-$MARK IN= OUT=ed0" $T/ebd.out
check "ebt_log: nf_log_all_netns=1: the host has them as 6.12 prints them" \
	has "^\[[ 0-9.]*\] EB-ebd-$MARK IN= OUT=ed0 MAC source = " $T/host.dmesg

# --- lifetime ------------------------------------------------------------
# On the debug kernel (run.sh -L: klogkmemleak=1) kmemleak must be there
# and enabled; what boot left is forgotten, so that only leaks of the
# churn below are reported, and a planted leak must be reported.
kmemleak_start
expect "200 namespaces with open files created and freed" "done 200" klogns churn 200
if [ "$KMEMLEAK_ON" = 1 ]; then
	sleep 6	# kmemleak ignores objects younger than 5 s
	if kmemleak_report $T/kmemleak.out; then
		expect "kmemleak reports nothing after the churn" "" cat $T/kmemleak.out
	else
		not_ok "kmemleak reports nothing after the churn: kmemleak could not scan"
	fi
	kmemleak_control
fi
busybox dmesg >$T/host.dmesg
check "host log has no warning, BUG, lockdep or KASAN report" hasnt \
	'WARNING:\|BUG:\|possible circular\|possible recursive\|inconsistent lock\|refcount_t:\|Call Trace' \
	$T/host.dmesg

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
