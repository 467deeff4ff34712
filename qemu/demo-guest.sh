#!/bin/sh
# qemu/demo-guest.sh - the guest half of qemu/demo.sh: the kernel story of
# syslog namespaces, told step by step on the patched kernel.
#
# Two containers, c1 and c2, each a user namespace + syslog namespace
# (CLONE_NEWSYSLOG) + network namespace with an iptables LOG rule on lo, run
# as background loops that execute the commands this script hands them
# (files $D/<name>.<n>), so that each step runs inside the same
# containers.  Log lines are shown indented with "  | " (the harness
# drops lines that start with '[', the kernel console's).
D=/tmp/demo
mkdir -p $D /run
ln -sf xtables-legacy-multi /bin/iptables

step() { printf '\n=== %s ===\n' "$*"; }
say() { printf '%s\n' "$*"; }
show() { cut -c1-118 | sed 's/^/  | /'; }

# The container loop: run $D/NAME.N, write NAME.N.out, then NAME.N.done.
cat >$D/loop.sh <<'LOOP'
i=1
while :; do
	while [ ! -e /tmp/demo/$1.$i ]; do usleep 20000; done
	sh /tmp/demo/$1.$i >/tmp/demo/$1.$i.out 2>&1
	touch /tmp/demo/$1.$i.done
	i=$((i + 1))
done
LOOP

# shellcheck disable=SC2034 # read and written through eval in run_in
n_c1=0
# shellcheck disable=SC2034
n_c2=0
# run_in NAME COMMAND: run COMMAND in container NAME, show its output
# (never in a pipeline: the counters must stay in this shell).
# shellcheck disable=SC2154 # n is set by the eval
run_in() {
	eval "n=\$((n_$1 + 1)); n_$1=\$n"
	printf '%s\n' "$2" >$D/tmp.$$
	mv $D/tmp.$$ "$D/$1.$n"
	while [ ! -e "$D/$1.$n.done" ]; do usleep 20000; done
	show <"$D/$1.$n.out"
}

step "1. The host"
say "One kernel, one host log.  The host writes a line:"
echo "<6>host: hello from the host" >/dev/kmsg
say "# dmesg | tail -1"
dmesg | tail -1 | show

step "2. Two containers: user ns + syslog ns + network ns, each with a LOG rule"
say "By default nothing a container does reaches the host log.  For this demo"
say "the host's admin turns copies on (all records, and netfilter lines too):"
say "host# sysctl kernel.syslog_ns_propagate=2 net.netfilter.nf_log_all_netns=1"
echo 2 >/proc/sys/kernel/syslog_ns_propagate
echo 1 >/proc/sys/net/netfilter/nf_log_all_netns
for c in c1 c2; do
	klogns exec -U -n -t $c -- unshare -n sh $D/loop.sh $c &
	eval "pid_$c=\$!"
done
for c in c1 c2; do
	say "$c# ip link set lo up; iptables -A OUTPUT -o lo -j LOG --log-prefix \"$c-pkt: \""
	run_in $c "ip link set lo up; iptables -A OUTPUT -o lo -j LOG --log-prefix '$c-pkt: '; iptables -S OUTPUT"
done
say "Each container's log is empty to start with (it begins at its first record):"
for c in c1 c2; do
	say "$c# dmesg | wc -l"
	run_in $c "dmesg | wc -l"
done

step "3. Traffic hits the rules: c1 pings once, c2 pings twice"
say "c1# ping -c 1 127.0.0.1"
run_in c1 "ping -c 1 127.0.0.1 | grep transmitted"
say "c2# ping -c 2 127.0.0.1"
run_in c2 "ping -c 2 -i 0.2 127.0.0.1 | grep transmitted"
say "Each container's dmesg shows only its own packets:"
for c in c1 c2; do
	say "$c# dmesg"
	run_in $c "dmesg"
done

step "4. A destructive read in c1 changes nothing elsewhere"
host_before=$(dmesg | grep -c 'pkt: ')
say "c1# dmesg -c >/dev/null; dmesg | wc -l"
run_in c1 "dmesg -c >/dev/null; dmesg | wc -l"
say "c2# dmesg | wc -l      (still its first line and its 4 packets)"
run_in c2 "dmesg | wc -l"
say "host# dmesg | grep -c 'pkt: '   (before c1's read: $host_before)"
dmesg | grep -c 'pkt: ' | show

step "5. The host log holds labelled copies of the containers' packets"
say "(each copy starts with [ns:<namespace id>:<tag>]: a container cannot forge it)"
say "host# dmesg | grep 'pkt: '"
dmesg | grep 'pkt: ' | show

step "6. A flood from c2 is ratelimited on the host"
say "c2# for i in \$(seq 20); do ping -c 1 127.0.0.1; done    (40 packets)"
run_in c2 "for i in \$(seq 20); do ping -c 1 127.0.0.1 >/dev/null; done; echo c2 log lines now: \$(dmesg | grep -c 'c2-pkt: ')"
say "(the host takes 10 copies per 5 s from all containers together, 5 each while"
say " c1 and c2 run; waiting 5 s, then one more packet, which reports the rest)"
sleep 5
run_in c2 "ping -c 1 127.0.0.1 >/dev/null"
say "host# dmesg | grep ':c2\\]' | tail -4"
dmesg | grep ':c2\]' | tail -4 | show
say "host# dmesg | grep -c ':c2\\] c2-pkt: '   (copies on the host)"
dmesg | grep -c ':c2\] c2-pkt: ' | show
say "c1# dmesg | wc -l     (c1 saw none of it)"
run_in c1 "dmesg | wc -l"

step "7. Each log is a namespace: /proc/PID/ns/syslog and setns(2)"
say "host# readlink /proc/self/ns/syslog; c1# and c2# the same"
readlink /proc/self/ns/syslog | show
run_in c1 "readlink /proc/self/ns/syslog"
run_in c2 "readlink /proc/self/ns/syslog"
touch $D/c2.ns
# shellcheck disable=SC2154 # pid_c2 is set by the eval in step 2
mount --bind "/proc/$pid_c2/ns/syslog" $D/c2.ns
say "host# mount --bind /proc/<c2's pid>/ns/syslog $D/c2.ns"
say "host# klogns exec -j $D/c2.ns -- dmesg | tail -2   (the host's root enters c2's log)"
klogns exec -j $D/c2.ns -- dmesg | tail -2 | show
say "c1# klogns setns $D/c2.ns   (c1's root cannot enter its sibling's log)"
run_in c1 "klogns setns $D/c2.ns"
umount $D/c2.ns

step "8. The same with the tools you already use"
say "Runtimes that make a user namespace per container need no change: with"
say "kernel.syslog_ns_auto=1 each new user namespace comes with a log of its own."
say "(Copies to the host are back at their default: none.)"
say "host# sysctl kernel.syslog_ns_propagate=0 kernel.syslog_ns_auto=1"
say "host# chmod 0666 /dev/kmsg   (unprivileged users may open it: it is their own log)"
echo 0 >/proc/sys/kernel/syslog_ns_propagate
echo 1 >/proc/sys/kernel/syslog_ns_auto
chmod 0666 /dev/kmsg
RT=$D/rt
mkdir -p $RT
chmod 0777 $RT
# shellcheck source=../tests/guest/runtimes.sh
. /etc/runtimes.sh
# shellcheck disable=SC2016 # $1 is the script's argument, in the guest
printf '%s\n' 'echo "<6>$1: hello from my container" >/dev/kmsg' \
	'/usr/bin/dmesg' >$RT/hello.sh
# A crun container's program: the same into /out, then "end" and sleep.
# shellcheck disable=SC2016
printf '%s\n' 'sh /hello.sh "$1" >/out 2>&1' 'echo end >>/out' \
	'exec sleep 300' >$RT/ct.sh
say "user\$ unshare -U -r -n sh hello.sh unshare      (util-linux 2.38, uid 1000)"
klogns exec -u 1000 -- /bin/unshare -U -r -n sh $RT/hello.sh unshare 2>&1 |
	show
say "user\$ bwrap --unshare-user --unshare-net --dev-bind / / sh hello.sh bwrap"
inroot klogns exec -u 1000 -- bwrap --unshare-user --unshare-net \
	--dev-bind / / sh $RT/hello.sh bwrap 2>&1 | show
say "user\$ crun run -d --bundle ct ct      (rootless crun 1.8.1, a user namespace in config.json)"
mkbundle $RT/ct 1 /bin/sh /ct.sh crun
cp $RT/hello.sh $RT/ct/rootfs/hello.sh
chown 1000:1000 $RT/ct/rootfs/hello.sh
mkdir -p $RT/crun-1000
chown 1000:1000 $RT/crun-1000
crun_1000 run -d --bundle $RT/ct ct >$RT/ct.run 2>&1
wait_end $RT/ct >/dev/null
sed '$d' $RT/ct/rootfs/out | show
say "user\$ crun exec ct syslogns enter 1 -- dmesg    (exec joins only the kinds crun knows)"
crun_1000 exec ct syslogns enter 1 -- /usr/bin/dmesg 2>&1 | show
say "host# syslogns list     (the running container's log, seen from the host)"
syslogns list 2>&1 | show
say "host# dmesg | grep -c 'hello from my container'    (nothing reached the host)"
dmesg | grep -c 'hello from my container' | show
crun_1000 delete -f ct >/dev/null 2>&1
echo 0 >/proc/sys/kernel/syslog_ns_auto

step "Done"
