#!/bin/bash
# qemu/initramfs.sh - make the guest's initramfs (a gzip'ed newc cpio).
#
# Usage: qemu/initramfs.sh [-o OUT] [-c COMMAND] [-f SRC:DEST]... [PROGRAM...]
#
#   -o OUT       output file (default build/qemu/initramfs.cpio.gz)
#   -c COMMAND   shell command the guest runs as the test; without it the
#                guest starts an interactive shell on the serial console
#   -f SRC:DEST  copy file SRC to DEST inside the image (DEST absolute)
#   PROGRAM...   extra programs, installed as /bin/<name>; static ones are
#                copied as they are, dynamic ones with the libraries ldd
#                lists and the loader
#
# Contents: /bin/busybox (busybox-static) with a symlink for every applet,
# util-linux dmesg as /usr/bin/dmesg (ahead of busybox's /bin/dmesg in
# PATH; "busybox dmesg" is always the busybox one) with its libraries,
# /dev/console, and /init:
#   - mounts proc, sysfs and devtmpfs (on /dev: the kernel only mounts
#     devtmpfs itself for a disk root);
#   - runs COMMAND (from /etc/klog-test.sh) with sh, its output between
#     the lines "@@KLOG-BEGIN@@" and "@@KLOG-END rc=<exit status>@@";
#     without COMMAND, or when the kernel command line has klogshell=1, an
#     interactive shell;
#   - with klogprobe=1 on the command line it only prints
#     "@@KLOG-PROBE-OK@@" (qemu/run.sh's KVM probe);
#   - ends with "reboot -f" (QEMU's -no-reboot turns that into an exit).
# Kernel parameters of the form name=value (no dot in the name) reach /init
# and COMMAND as environment variables, e.g. golden=main.
#
# The archive is written by the kernel's usr/gen_init_cpio (compiled from
# the pristine tree), so no root privilege is needed for /dev/console.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$REPO/build/qemu/initramfs.cpio.gz
cmd=
files=()
while getopts "o:c:f:h" opt; do
	case $opt in
	o) out=$OPTARG ;;
	c) cmd=$OPTARG ;;
	f) files+=("$OPTARG") ;;
	h) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "usage: $0 [-o OUT] [-c COMMAND] [-f SRC:DEST]... [PROGRAM...]" ;;
	esac
done
shift $((OPTIND - 1))

BUSYBOX=${BUSYBOX:-/bin/busybox}
DMESG=${DMESG:-$(command -v dmesg || echo /usr/bin/dmesg)}
[ -x "$BUSYBOX" ] || die "$BUSYBOX missing (apt-get install busybox-static)"
file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' ||
	die "$BUSYBOX is not static (install busybox-static)"
[ -x "$DMESG" ] || die "util-linux dmesg not found"

# gen_init_cpio from the pristine tree, built once into build/qemu.
ensure_ksrc
gic=$REPO/build/qemu/gen_init_cpio
mkdir -p "$REPO/build/qemu"
if [ ! -x "$gic" ] || [ "$KSRC/usr/gen_init_cpio.c" -nt "$gic" ]; then
	# built aside and renamed: two runs may build it at once
	gcc -O2 -o "$gic.$$" "$KSRC/usr/gen_init_cpio.c"
	mv "$gic.$$" "$gic"
fi

# The image is described as a gen_init_cpio list (see
# usr/gen_init_cpio.c): dir/file/slink/nod lines, all owned by root.
list=$(mktemp)
trap 'rm -f "$list" "$list.init" "$list.test"' EXIT
declare -A have_dir=()
add_dir() {	# add_dir /a/b/c: every missing level
	local d=$1 p=
	local IFS=/
	for part in ${d#/}; do
		p+=/$part
		[ -n "${have_dir[$p]+x}" ] && continue
		have_dir[$p]=1
		echo "dir $p 0755 0 0" >>"$list"
	done
}
add_file() {	# add_file SRC DEST MODE
	add_dir "$(dirname "$2")"
	echo "file $2 $(realpath "$1") $3 0 0" >>"$list"
}
declare -A have_lib=()
add_libs() {	# add_libs PROGRAM: what ldd lists, at the same paths, and the loader
	local lib
	ldd "$1" >/dev/null 2>&1 || return 0	# static: nothing to add
	for lib in $(ldd "$1" | grep -o '/[^ ]*'); do
		[ -n "${have_lib[$lib]+x}" ] && continue
		have_lib[$lib]=1
		add_file "$lib" "$lib" 0755
	done
}

for d in /bin /sbin /usr/bin /usr/sbin /dev /proc /sys /tmp /root /etc /run /var/log; do
	add_dir "$d"
done
echo "nod /dev/console 0600 0 0 c 5 1" >>"$list"
echo "nod /dev/null 0666 0 0 c 1 3" >>"$list"

add_file "$BUSYBOX" /bin/busybox 0755
# busybox --list-full prints paths like "usr/bin/awk".
while read -r applet; do
	[ "/$applet" = /bin/busybox ] && continue
	add_dir "$(dirname "/$applet")"
	echo "slink /$applet /bin/busybox 0777 0 0" >>"$list"
done < <("$BUSYBOX" --list-full)

add_file "$DMESG" /usr/bin/dmesg 0755
add_libs "$DMESG"

for p in "$@"; do
	[ -x "$p" ] || die "program $p is not executable"
	add_file "$p" "/bin/$(basename "$p")" 0755
	add_libs "$p"
done
for f in "${files[@]}"; do
	src=${f%%:*} dst=${f#*:}
	[[ -f $src && $dst == /* ]] || die "bad -f $f (want an existing SRC and an absolute DEST)"
	add_file "$src" "$dst" 0644
done

# Minimal account databases for tests that switch users.
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$list.passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$list.group"
trap 'rm -f "$list" "$list.init" "$list.test" "$list.passwd" "$list.group"' EXIT
add_file "$list.passwd" /etc/passwd 0644
add_file "$list.group" /etc/group 0644

if [ -n "$cmd" ]; then
	printf '#!/bin/sh\n%s\n' "$cmd" >"$list.test"
	add_file "$list.test" /etc/klog-test.sh 0755
fi

cat >"$list.init" <<'INIT'
#!/bin/busybox sh
# /init of the libklog test initramfs (generated by qemu/initramfs.sh)
export PATH=/usr/bin:/usr/sbin:/bin:/sbin HOME=/root
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev
cd /
if [ "${klogprobe:-0}" = 1 ]; then
	echo "@@KLOG-PROBE-OK@@"
elif [ -x /etc/klog-test.sh ] && [ "${klogshell:-0}" != 1 ]; then
	echo "@@KLOG-BEGIN@@"
	/bin/sh /etc/klog-test.sh
	echo "@@KLOG-END rc=$?@@"
else
	echo "libklog guest: interactive shell; 'reboot -f' (or exit) ends QEMU"
	setsid cttyhack sh -l
fi
sync
reboot -f
INIT
add_file "$list.init" /init 0755

mkdir -p "$(dirname "$out")"
"$gic" "$list" | gzip -9n >"$out.tmp"
mv "$out.tmp" "$out"
msg "$out ($(stat -c %s "$out") bytes)"
