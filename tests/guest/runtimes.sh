#!/bin/sh
# tests/guest/runtimes.sh - sourced in the guest (as /etc/runtimes.sh) by
# the suite (syslog_ns_tests.sh) and the demo (qemu/demo-guest.sh): how
# the unmodified Debian runtimes run in the initramfs.  The caller sets
# RT, a scratch directory, and may write RT/rt.sh, RT/ct.sh, RT/dm.sh and
# RT/ctdm.sh, which each bundle gets as /rt.sh, /ct.sh, /dm.sh, /ctdm.sh.
mkdir -p "$RT/newroot"

# inroot COMMAND...: COMMAND in a private mount namespace whose root is a
# recursive bind of / moved onto / (as switch_root does).  The initramfs
# root cannot be pivot_root(2)ed (rootfs has no parent mount), and bwrap
# and crun pivot; nor can a chroot serve (CLONE_NEWUSER is EPERM in one).
# cgroup2 is mounted on /sys/fs/cgroup there: crun refuses to start
# without a cgroup file system there, even with --cgroup-manager=disabled.
inroot() {
	unshare -m sh -c "mount -t cgroup2 none /sys/fs/cgroup &&
		mount --rbind / $RT/newroot && cd $RT/newroot &&
		mount --move . / && exec chroot . \"\$@\"" inroot "$@"
}
# mkbundle DIR USERNS ARG...: DIR/rootfs and DIR/config.json for a
# container that runs ARG...; USERNS 1: a user namespace mapping root to
# uid and gid 1000, the root file system theirs.
mkbundle() {
	mb_dir=$1 mb_user=$2
	shift 2
	mkdir -p "$mb_dir/rootfs" || return 1
	(
		cd "$mb_dir/rootfs" || exit 1
		mkdir -p bin usr/bin usr/lib/x86_64-linux-gnu dev proc sys tmp run
		cp /bin/busybox /bin/syslogns /bin/xtables-legacy-multi bin/
		for a in sh cat echo grep ip ping readlink sed sleep; do
			ln -s busybox bin/$a
		done
		ln -s xtables-legacy-multi bin/iptables
		cp /usr/bin/dmesg usr/bin/
		cp -a /lib /lib64 .
		cp -a /usr/lib/x86_64-linux-gnu/xtables usr/lib/x86_64-linux-gnu/
		for f in rt.sh ct.sh dm.sh ctdm.sh; do
			[ ! -f "$RT/$f" ] || cp "$RT/$f" .
		done
	) || return 1
	mb_args=
	for a in "$@"; do
		mb_args="$mb_args${mb_args:+, }\"$a\""
	done
	mb_caps='"CAP_SYS_ADMIN", "CAP_SYSLOG", "CAP_NET_ADMIN", "CAP_NET_RAW"'
	mb_ns='{"type": "pid"}, {"type": "mount"}, {"type": "network"}, {"type": "ipc"}, {"type": "uts"}'
	mb_maps=
	if [ "$mb_user" = 1 ]; then
		mb_ns="{\"type\": \"user\"}, $mb_ns"
		mb_maps='"uidMappings": [{"containerID": 0, "hostID": 1000, "size": 1}],
		"gidMappings": [{"containerID": 0, "hostID": 1000, "size": 1}],'
		chown -R 1000:1000 "$mb_dir"
	fi
	cat >"$mb_dir/config.json" <<EOF
{
	"ociVersion": "1.0.0",
	"process": {
		"terminal": false,
		"user": {"uid": 0, "gid": 0},
		"args": [$mb_args],
		"env": ["PATH=/usr/bin:/bin"],
		"cwd": "/",
		"capabilities": {
			"bounding": [$mb_caps],
			"effective": [$mb_caps],
			"permitted": [$mb_caps]
		}
	},
	"root": {"path": "rootfs"},
	"hostname": "ct",
	"mounts": [
		{"destination": "/proc", "type": "proc", "source": "proc"},
		{"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "mode=755"]},
		{"destination": "/dev/kmsg", "type": "bind", "source": "/dev/kmsg", "options": ["rbind", "rw"]}
	],
	"linux": {
		$mb_maps
		"namespaces": [$mb_ns]
	}
}
EOF
}
# wait_end DIR: until the container's /out ends with "end" (30 s at most).
wait_end() {
	for _w in $(seq 300); do
		[ "$(tail -1 "$1/rootfs/out" 2>/dev/null)" = end ] && return 0
		sleep 0.1
	done
	echo "no end in $1/rootfs/out"
	return 1
}
# crun_root ARG...: crun as root; crun_1000 ARG...: crun as uid 1000, its
# state in $RT/crun-1000.  Both in inroot.
crun_root() {
	inroot crun --cgroup-manager=disabled "$@"
}
crun_1000() {
	inroot klogns exec -u 1000 -- crun --root "$RT/crun-1000" \
		--cgroup-manager=disabled "$@"
}
